import Foundation
import IndoorModel
import PostgresNIO

extension PostgresStore {
    package func fixHistory(_ query: FixHistoryQuery) async throws -> FixHistoryPage {
        var binds = PostgresBindings()
        binds.append(query.venue)
        binds.append(max(query.from, query.after?.time ?? query.from))
        binds.append(query.to)
        // `type = 'fix'` written out, so that PostgreSQL reads the partial index `event_fix_venue_t` in its order;
        // devices compare byte by byte (`COLLATE "C"`), as in SQLite, whatever the database's collation.
        var sql = """
            SELECT \(Self.fixColumns) FROM event
            WHERE venue = $1 AND type = 'fix' AND t >= $2 AND t < $3
            """
        if let device = query.device {
            binds.append(device)
            sql += " AND device = $\(binds.count)"
        }
        if let floor = query.floor {
            binds.append(String(floor))
            // A fix with no floor (a venue without floors) is on every floor, as the map draws it.
            sql += " AND coalesce(json->>'floor' = $\(binds.count), true)"
        }
        if let after = query.after {
            binds.append(after.time)
            let time = binds.count
            binds.append(after.device)
            let device = binds.count
            binds.append(after.id)
            sql +=
                " AND (t > $\(time) OR device COLLATE \"C\" > $\(device)"
                + " OR (device = $\(device) AND id > $\(binds.count)))"
        }
        binds.append(Int64(query.limit) + 1)
        sql += " ORDER BY t, device COLLATE \"C\", id LIMIT $\(binds.count)"
        let statement = PostgresQuery(unsafeSQL: sql, binds: binds)
        // Each row is read as it arrives, while the next ones are still on their way.
        let (fixes, more) = try await mapped {
            var reader = HistoryRowReader()
            var fixes: [HistoryFix] = []
            fixes.reserveCapacity(min(query.limit, 10_000))
            var more = false
            for try await row in try await client.query(statement, logger: logger) {
                guard fixes.count < query.limit else {
                    more = true
                    continue
                }
                fixes.append(try reader.fix(row))
            }
            return (fixes, more)
        }
        return FixHistoryPage(fixes: fixes, next: more ? fixes.last?.position : nil)
    }

    package func fixes(venue: String, at: Double, window: Double, device: String?) async throws -> [HistoryFix] {
        var binds = PostgresBindings()
        binds.append(venue)
        binds.append(at - window)
        binds.append(at)
        var sql = """
            SELECT \(Self.fixColumns) FROM (
                SELECT id, t, device, json, fix_json, ROW_NUMBER() OVER (PARTITION BY device ORDER BY t DESC, id DESC) AS r
                FROM event WHERE venue = $1 AND type = 'fix' AND t > $2 AND t <= $3
            """
        if let device {
            binds.append(device)
            sql += " AND device = $\(binds.count)"
        }
        sql += ") AS latest WHERE r = 1"
        let statement = PostgresQuery(unsafeSQL: sql, binds: binds)
        let rows = try await mapped { try await client.query(statement, logger: logger).collect() }
        var reader = HistoryRowReader()
        return try rows.map { try reader.fix($0) }.sorted { $0.position.device < $1.position.device }
    }

    /// A fix row's columns: its id, time and device, its JSON as written (`fix_json`), and for a fix stored without
    /// that (before the migration ``PostgresMigrations/fixJSONText``) its JSONB as PostgreSQL prints it
    /// (``HistoryRowReader``).
    static let fixColumns = "id, t, device, fix_json, CASE WHEN fix_json IS NULL THEN json::text END"

    package func zoneReport(_ query: ZoneReportQuery) async throws -> ZoneReportData {
        guard query.edges.count >= 2 else {
            return ZoneReportData(counts: [], dwells: [], dwellsComplete: true, storedSince: nil)
        }
        let venue = query.venue
        let (from, to) = (query.from, query.to)
        return try await mapped {
            let now =
                try await client.query("SELECT MAX(t) FROM device WHERE venue = \(venue)", logger: logger)
                .collect().first?.decode(Double?.self) ?? nil
            var binds = PostgresBindings()
            binds.append(now ?? to)
            binds.append(venue)
            binds.append(from)
            binds.append(to)
            let sql = """
                WITH \(ZoneReportSQL.buckets(query.edges, postgres: true)),
                v AS (
                    SELECT zone, device, check_in AS a, COALESCE(departure, check_out, $1) AS z FROM visit
                    WHERE venue = $2 AND check_in >= $3 AND check_in < $4
                    UNION ALL
                    SELECT zone, device, check_in AS a, COALESCE(departure, check_out, $1) AS z FROM visit
                    WHERE venue = $2 AND check_in < $3 AND check_out >= $3
                    UNION ALL
                    SELECT zone, device, check_in AS a, $1 AS z FROM visit
                    WHERE venue = $2 AND check_in < $3 AND check_out IS NULL),
                \(ZoneReportSQL.counts(least: "LEAST", greatest: "GREATEST"))
                """
            let counts = try await client.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
                .collect().map { row in
                    let (zone, bucket, visits, devices, presence, peak) = try row.decode(
                        (String, Int64, Int64, Int64, Double?, Int64).self)
                    return ZoneBucketCounts(
                        zone: zone, bucket: Int(bucket), visits: Int(visits), devices: Int(devices),
                        presenceSeconds: presence ?? 0, peak: Int(peak))
                }
            let limit = Int64(query.dwellLimit)
            let found = try await client.query(
                """
                SELECT zone, check_in, dwell FROM visit
                WHERE venue = \(venue) AND check_in >= \(from) AND check_in < \(to) AND dwell IS NOT NULL
                    AND (reason IS NULL OR reason <> 'crossing')
                LIMIT \(limit + 1)
                """, logger: logger
            ).collect().map { row in
                let (zone, checkIn, dwell) = try row.decode((String, Double, Double).self)
                return ZoneDwell(zone: zone, checkIn: checkIn, dwell: dwell)
            }
            let since =
                try await client.query("SELECT MIN(check_in) FROM visit WHERE venue = \(venue)", logger: logger)
                .collect().first?.decode(Double?.self) ?? nil
            return ZoneReportData(
                counts: counts, dwells: Array(found.prefix(query.dwellLimit)),
                dwellsComplete: found.count <= query.dwellLimit, storedSince: since)
        }
    }
}

/// One cell of a history row read from its binary form: a big-endian `float8` or `int8`, UTF-8 text; any other form
/// or type through PostgresNIO's decoding (which also says what was wrong with a cell it cannot read).
enum HistoryCell {
    static func float8(_ cell: PostgresCell) throws -> Double {
        if var bytes = cell.bytes, cell.format == .binary, cell.dataType == .float8, bytes.readableBytes == 8,
            let bits = bytes.readInteger(as: UInt64.self)
        {
            return Double(bitPattern: bits)
        }
        return try cell.decode(Double.self)
    }

    static func int8(_ cell: PostgresCell) throws -> Int64 {
        if var bytes = cell.bytes, cell.format == .binary, cell.dataType == .int8, bytes.readableBytes == 8,
            let value = bytes.readInteger(as: Int64.self)
        {
            return value
        }
        return try cell.decode(Int64.self)
    }

    static func text(_ cell: PostgresCell) throws -> String {
        if var bytes = cell.bytes, cell.dataType == .text || cell.dataType == .varchar,
            let text = bytes.readString(length: bytes.readableBytes)
        {
            return text
        }
        return try cell.decode(String.self)
    }
}

/// Rows of ``PostgresStore/fixColumns`` as history fixes. A fix's JSON is the one the server wrote (`fix_json`), or
/// for a fix stored without it, its JSONB as PostgreSQL prints it decoded and written as SQLite keeps it
/// (``PostgresStore/eventJSON(printed:type:)``; a number of JSONB is the text it was given, so the fix is the one
/// stored): both stores answer the same bytes.
///
/// The cells are read straight from their binary form (``HistoryCell``): a page is thousands of rows, and
/// PostgresNIO's generic decoding of every column a row cost more than the query itself.
struct HistoryRowReader {
    private var cells: [PostgresCell] = []

    init() { cells.reserveCapacity(5) }

    mutating func fix(_ row: PostgresRow) throws -> HistoryFix {
        cells.removeAll(keepingCapacity: true)
        cells.append(contentsOf: row)
        guard cells.count == 5 else { throw StoreError("a history row has \(cells.count) columns, not 5") }
        let position = FixHistoryPosition(
            time: try HistoryCell.float8(cells[1]), device: try HistoryCell.text(cells[2]),
            id: try HistoryCell.int8(cells[0]))
        if let written = cells[3].bytes {
            return HistoryFix(position: position, json: Data(written.readableBytesView))
        }
        let printed = try HistoryCell.text(cells[4])
        return HistoryFix(position: position, json: try PostgresStore.eventJSON(printed: printed, type: "fix"))
    }
}
