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
                SELECT id, t, device, json, ROW_NUMBER() OVER (PARTITION BY device ORDER BY t DESC, id DESC) AS r
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

    /// A fix row's columns: its id, time and device, and its JSON's members taken apart by the server (so that the
    /// fix's JSON is written as SQLite keeps it without parsing JSONB's text: ``HistoryRowReader``).
    static let fixColumns = """
        id, t, device, (json->>'x')::float8, (json->>'y')::float8, (json->>'z')::float8, (json->>'floor')::bigint,
        (json->>'accuracy')::float8, (json->>'confidence')::float8, json->>'method', (json->>'latitude')::float8,
        (json->>'longitude')::float8
        """

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
    static func optionalFloat8(_ cell: PostgresCell) throws -> Double? {
        guard var bytes = cell.bytes else { return nil }
        if cell.format == .binary, cell.dataType == .float8, bytes.readableBytes == 8,
            let bits = bytes.readInteger(as: UInt64.self)
        {
            return Double(bitPattern: bits)
        }
        return try cell.decode(Double?.self)
    }

    static func float8(_ cell: PostgresCell) throws -> Double {
        guard let value = try optionalFloat8(cell) else { return try cell.decode(Double.self) }
        return value
    }

    static func optionalInt8(_ cell: PostgresCell) throws -> Int64? {
        guard var bytes = cell.bytes else { return nil }
        if cell.format == .binary, cell.dataType == .int8, bytes.readableBytes == 8,
            let value = bytes.readInteger(as: Int64.self)
        {
            return value
        }
        return try cell.decode(Int64?.self)
    }

    static func int8(_ cell: PostgresCell) throws -> Int64 {
        guard let value = try optionalInt8(cell) else { return try cell.decode(Int64.self) }
        return value
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

/// Rows of ``PostgresStore/fixColumns`` as history fixes, each fix's JSON written as SQLite keeps it (``FixJSON``, or
/// the encoder where it cannot), not as PostgreSQL prints JSONB: both stores answer the same bytes. A number of the
/// stored JSON read as `float8` is the `Double` its text is, so the fix is the one stored.
///
/// The cells are read straight from their binary form (``HistoryCell``): a page is thousands of rows, and
/// PostgresNIO's generic decoding of twelve columns a row cost more than the query itself.
struct HistoryRowReader {
    private let encoder = JSONFormat.encoder()
    private var cells: [PostgresCell] = []

    init() { cells.reserveCapacity(12) }

    mutating func fix(_ row: PostgresRow) throws -> HistoryFix {
        cells.removeAll(keepingCapacity: true)
        cells.append(contentsOf: row)
        guard cells.count == 12 else { throw StoreError("a history row has \(cells.count) columns, not 12") }
        let id = try HistoryCell.int8(cells[0])
        let time = try HistoryCell.float8(cells[1])
        let device = try HistoryCell.text(cells[2])
        let x = try HistoryCell.float8(cells[3])
        let y = try HistoryCell.float8(cells[4])
        let z = try HistoryCell.optionalFloat8(cells[5])
        let floor = try HistoryCell.optionalInt8(cells[6])
        let accuracy = try HistoryCell.float8(cells[7])
        let confidence = try HistoryCell.float8(cells[8])
        let method = try HistoryCell.text(cells[9])
        let latitude = try HistoryCell.optionalFloat8(cells[10])
        let longitude = try HistoryCell.optionalFloat8(cells[11])
        var coordinate: GeoCoordinate?
        if let latitude, let longitude { coordinate = GeoCoordinate(latitude: latitude, longitude: longitude) }
        let fix = Fix(
            time: time, device: device, position: Point3D(x: x, y: y, z: z ?? 0), floor: floor.map { Int($0) },
            accuracy: accuracy, confidence: confidence, method: method, coordinate: coordinate)
        return HistoryFix(
            position: FixHistoryPosition(time: time, device: device, id: id),
            json: try FixJSON.json(fix) ?? encoder.encode(fix))
    }
}
