import Foundation
import GRDB

extension SQLiteStore {
    public func appendAudit(_ entries: [AuditEntry]) async throws {
        guard !entries.isEmpty else { return }
        try await pool.write { db in
            for entry in entries {
                try db.execute(
                    sql: """
                        INSERT INTO audit (at, keyId, keyLabel, method, route, path, venue, device, address, status)
                        VALUES (?,?,?,?,?,?,?,?,?,?)
                        """,
                    arguments: [
                        entry.time, entry.keyId, entry.keyLabel, entry.method, entry.route, entry.path, entry.venue,
                        entry.device, entry.address, entry.status,
                    ])
            }
        }
    }

    public func audit(_ query: AuditQuery) async throws -> [AuditEntry] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let from = query.from {
            conditions.append("at >= ?")
            arguments += [from]
        }
        if let to = query.to {
            conditions.append("at < ?")
            arguments += [to]
        }
        if let before = query.before {
            conditions.append("id < ?")
            arguments += [before]
        }
        arguments += [query.limit]
        let bound = arguments
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let sql = """
            SELECT id, at, keyId, keyLabel, method, route, path, venue, device, address, status FROM audit
            \(filter) ORDER BY id DESC LIMIT ?
            """
        return try await pool.read { db in
            try Row.fetchAll(db, sql: sql, arguments: bound).map { row in
                AuditEntry(
                    id: row["id"], time: row["at"], keyId: row["keyId"], keyLabel: row["keyLabel"],
                    method: row["method"], route: row["route"], path: row["path"], venue: row["venue"],
                    device: row["device"], address: row["address"], status: row["status"])
            }
        }
    }

    public func pruneAudit(recordedBefore cutoff: Double, limit: Int) async throws -> Int {
        // Among the `limit` oldest rows, as for sightings: entries are stored in the order of their ids.
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM audit WHERE id IN (SELECT id FROM audit ORDER BY id LIMIT ?) AND at < ?",
                arguments: [limit, cutoff])
            return db.changesCount
        }
    }
}
