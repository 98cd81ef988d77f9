import Foundation
import GRDB
import IndoorGeofencing
import IndoorModel

extension SQLiteStore {
    public func latestFix(venue: String, device: String) async throws -> Fix? {
        let data = try await pool.read { db in
            try Data.fetchOne(
                db, sql: "SELECT fix FROM device WHERE venue = ? AND device = ?", arguments: [venue, device])
        }
        return try data.map { try JSONDecoder().decode(Fix.self, from: $0) }
    }

    public func devices(venue: String, since: Double) async throws -> [Fix] {
        let rows = try await pool.read { db in
            try Data.fetchAll(
                db, sql: "SELECT fix FROM device WHERE venue = ? AND t >= ? ORDER BY device", arguments: [venue, since])
        }
        let decoder = JSONDecoder()
        return try rows.map { try decoder.decode(Fix.self, from: $0) }
    }

    public func visits(_ query: VisitQuery) async throws -> VisitPage {
        var sql = "SELECT * FROM visit WHERE venue = ?"
        var arguments: StatementArguments = [query.venue]
        if let zone = query.zone {
            sql += " AND zone = ?"
            arguments += [zone]
        }
        if let device = query.device {
            sql += " AND device = ?"
            arguments += [device]
        }
        if let from = query.from {
            sql += " AND (checkOut IS NULL OR checkOut >= ?)"
            arguments += [from]
        }
        if let to = query.to {
            sql += " AND checkIn < ?"
            arguments += [to]
        }
        if let before = query.before {
            sql += " AND id < ?"
            arguments += [before]
        }
        if query.openOnly { sql += " AND checkOut IS NULL" }
        sql += " ORDER BY id DESC LIMIT ?"
        arguments += [query.limit + 1]
        let (statement, values) = (sql, arguments)
        // Rows are not Sendable: they become visits inside the read, so that the read is GRDB's asynchronous one.
        let rows = try await pool.read { db in
            try Row.fetchAll(db, sql: statement, arguments: values).map { row in
                Visit(
                    id: row["id"], venue: row["venue"], zone: row["zone"], zoneName: row["zoneName"],
                    device: row["device"], trigger: row["trigger"], checkIn: row["checkIn"], checkOut: row["checkOut"],
                    departure: row["departure"], dwell: row["dwell"], reason: row["reason"])
            }
        }
        let visits = Array(rows.prefix(query.limit))
        return VisitPage(visits: visits, nextBefore: rows.count > query.limit ? visits.last?.id : nil)
    }

    public func events(venue: String, after: Int64, limit: Int) async throws -> [StoredEvent] {
        // Rows are not Sendable: their values are taken out inside the read, so that the read is GRDB's asynchronous one.
        let rows = try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, type, json FROM event WHERE venue = ? AND id > ? ORDER BY id LIMIT ?",
                arguments: [venue, after, limit]
            ).map { row -> (id: Int64, type: String, json: Data) in (row["id"], row["type"], row["json"]) }
        }
        let decoder = JSONDecoder()
        return try rows.map { row in
            let event = try ServerEvent.decode(type: row.type, json: row.json, decoder: decoder)
            return StoredEvent(id: row.id, venue: venue, event: event)
        }
    }

    public func latestEventID() async throws -> Int64 {
        try await pool.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM event") ?? 0 }
    }

    public func sightingCount(venue: String) async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sighting WHERE venue = ?", arguments: [venue]) ?? 0
        }
    }

    public func recentSightings(venue: String, seconds: Double, limit: Int) async throws -> [ReceivedSighting] {
        let rows = try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT t, device, node, beacon, rssi, tx, receivedAt FROM sighting
                    WHERE venue = ? AND t >= (SELECT MAX(t) FROM sighting WHERE venue = ?) - ?
                    ORDER BY t DESC, id DESC LIMIT ?
                    """, arguments: [venue, venue, seconds, limit])
        }
        return try rows.reversed().map { row in
            try ReceivedSighting(
                time: row["t"], device: row["device"], node: row["node"], beacon: row["beacon"], rssi: row["rssi"],
                txPower: row["tx"], receivedAt: row["receivedAt"])
        }
    }
}
