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
            SELECT id, t, device, json::text FROM event
            WHERE venue = $1 AND type = 'fix' AND t >= $2 AND t < $3
            """
        if let device = query.device {
            binds.append(device)
            sql += " AND device = $\(binds.count)"
        }
        if let floor = query.floor {
            binds.append(String(floor))
            sql += " AND json->>'floor' = $\(binds.count)"
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
            SELECT id, t, device, json FROM (
                SELECT id, t, device, json::text AS json,
                    ROW_NUMBER() OVER (PARTITION BY device ORDER BY t DESC, id DESC) AS r
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

    /// Rows of `id, t, device, json` as history fixes, each fix's JSON written as SQLite keeps it (``FixJSON``, or
    /// the encoder where it cannot), not as PostgreSQL prints JSONB: both stores answer the same bytes.
    private static func historyFixes(_ rows: ArraySlice<PostgresRow>) throws -> [HistoryFix] {
        let decoder = JSONDecoder()
        let encoder = JSONFormat.encoder()
        return try rows.map { row in
            let (id, time, device, text) = try row.decode((Int64, Double, String, String).self)
            let fix = try decoder.decode(Fix.self, from: Data(text.utf8))
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
