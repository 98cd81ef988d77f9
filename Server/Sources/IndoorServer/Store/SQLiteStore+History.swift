import Foundation
import GRDB

extension SQLiteStore {
    public func fixHistory(_ query: FixHistoryQuery) async throws -> FixHistoryPage {
        // `type = 'fix'` written out, so that SQLite reads the partial index `event_fix_venue_t` in its order.
        var sql = "SELECT id, t, device, json FROM event WHERE venue = ? AND type = 'fix' AND t >= ? AND t < ?"
        var arguments: StatementArguments = [query.venue, max(query.from, query.after?.time ?? query.from), query.to]
        if let device = query.device {
            sql += " AND device = ?"
            arguments += [device]
        }
        if let floor = query.floor {
            // A fix with no floor (a venue without floors) is on every floor, as the map draws it.
            sql += " AND coalesce(json_extract(CAST(json AS TEXT), '$.floor') = ?, 1)"
            arguments += [floor]
        }
        if let after = query.after {
            sql += " AND (t > ? OR device > ? OR (device = ? AND id > ?))"
            arguments += [after.time, after.device, after.device, after.id]
        }
        sql += " ORDER BY t, device, id LIMIT ?"
        arguments += [query.limit + 1]
        let (statement, values) = (sql, arguments)
        let rows = try await pool.read { db in
            try Row.fetchAll(db, sql: statement, arguments: values).map { row in
                HistoryFix(
                    position: FixHistoryPosition(time: row["t"], device: row["device"], id: row["id"]),
                    json: row["json"])
            }
        }
        let fixes = Array(rows.prefix(query.limit))
        return FixHistoryPage(fixes: fixes, next: rows.count > query.limit ? fixes.last?.position : nil)
    }

    public func fixes(venue: String, at: Double, window: Double, device: String?) async throws -> [HistoryFix] {
        var sql = """
            SELECT id, t, device, json FROM (
                SELECT id, t, device, json, ROW_NUMBER() OVER (PARTITION BY device ORDER BY t DESC, id DESC) AS r
                FROM event WHERE venue = ? AND type = 'fix' AND t > ? AND t <= ?
            """
        var arguments: StatementArguments = [venue, at - window, at]
        if let device {
            sql += " AND device = ?"
            arguments += [device]
        }
        sql += ") WHERE r = 1"
        let (statement, values) = (sql, arguments)
        let rows = try await pool.read { db in
            try Row.fetchAll(db, sql: statement, arguments: values).map { row in
                HistoryFix(
                    position: FixHistoryPosition(time: row["t"], device: row["device"], id: row["id"]),
                    json: row["json"])
            }
        }
        return rows.sorted { $0.position.device < $1.position.device }
    }

    public func zoneReport(_ query: ZoneReportQuery) async throws -> ZoneReportData {
        guard query.edges.count >= 2 else {
            return ZoneReportData(counts: [], dwells: [], dwellsComplete: true, storedSince: nil)
        }
        // The visits of the period: those that checked in during it (by `visit_venue_checkIn`), and those from
        // before it that ended in it or are open (by `visit_venue_checkOut`: `+checkIn` keeps SQLite from reading
        // every earlier visit through the check-in index instead).
        let counts = """
            WITH \(ZoneReportSQL.buckets(query.edges, postgres: false)),
            v AS (
                SELECT zone, device, checkIn AS a, COALESCE(departure, checkOut, :now) AS z FROM visit
                WHERE venue = :venue AND checkIn >= :from AND checkIn < :to
                UNION ALL
                SELECT zone, device, checkIn AS a, COALESCE(departure, checkOut, :now) AS z FROM visit
                WHERE venue = :venue AND +checkIn < :from AND checkOut >= :from
                UNION ALL
                SELECT zone, device, checkIn AS a, :now AS z FROM visit
                WHERE venue = :venue AND +checkIn < :from AND checkOut IS NULL),
            \(ZoneReportSQL.counts(least: "MIN", greatest: "MAX"))
            """
        let dwells = """
            SELECT zone, checkIn, dwell FROM visit
            WHERE venue = ? AND checkIn >= ? AND checkIn < ? AND dwell IS NOT NULL
                AND (reason IS NULL OR reason <> 'crossing')
            LIMIT ?
            """
        let (venue, from, to, limit) = (query.venue, query.from, query.to, query.dwellLimit)
        return try await pool.read { db in
            let now = try Double.fetchOne(db, sql: "SELECT MAX(t) FROM device WHERE venue = ?", arguments: [venue])
            let arguments: StatementArguments = ["now": now ?? to, "venue": venue, "from": from, "to": to]
            let rows = try Row.fetchAll(db, sql: counts, arguments: arguments).map { row in
                ZoneBucketCounts(
                    zone: row[0], bucket: row[1], visits: row[2], devices: row[3],
                    presenceSeconds: (row[4] as Double?) ?? 0,
                    peak: row[5])
            }
            let found = try Row.fetchAll(db, sql: dwells, arguments: [venue, from, to, limit + 1]).map { row in
                ZoneDwell(zone: row[0], checkIn: row[1], dwell: row[2])
            }
            let since = try Double.fetchOne(
                db, sql: "SELECT MIN(checkIn) FROM visit WHERE venue = ?", arguments: [venue])
            return ZoneReportData(
                counts: rows, dwells: Array(found.prefix(limit)), dwellsComplete: found.count <= limit,
                storedSince: since)
        }
    }
}
