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
        let rows = try await mapped { try await client.query(statement, logger: logger).collect() }
        let fixes = try Self.historyFixes(rows.prefix(query.limit))
        return FixHistoryPage(fixes: fixes, next: rows.count > query.limit ? fixes.last?.position : nil)
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
        return try Self.historyFixes(rows[...]).sorted { $0.position.device < $1.position.device }
    }

    /// A fix row's columns: its id, time and device, and its JSON's members taken apart by the server (so that the
    /// fix's JSON is written as SQLite keeps it without parsing JSONB's text: ``historyFixes(_:)``).
    static let fixColumns = """
        id, t, device, (json->>'x')::float8, (json->>'y')::float8, (json->>'z')::float8, (json->>'floor')::bigint,
        (json->>'accuracy')::float8, (json->>'confidence')::float8, json->>'method', (json->>'latitude')::float8,
        (json->>'longitude')::float8
        """

    /// Rows of ``fixColumns`` as history fixes, each fix's JSON written as SQLite keeps it (``FixJSON``, or the
    /// encoder where it cannot), not as PostgreSQL prints JSONB: both stores answer the same bytes. A number of the
    /// stored JSON read as `float8` is the `Double` its text is, so the fix is the one stored.
    private static func historyFixes(_ rows: ArraySlice<PostgresRow>) throws -> [HistoryFix] {
        let encoder = JSONFormat.encoder()
        return try rows.map { row in
            let (id, time, device, x, y, z, floor, accuracy, confidence, method, latitude, longitude) =
                try row.decode(
                    (Int64, Double, String, Double, Double, Double?, Int64?, Double, Double, String, Double?, Double?)
                        .self)
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
