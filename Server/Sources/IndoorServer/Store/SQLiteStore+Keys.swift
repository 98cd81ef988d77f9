import Foundation
import GRDB

extension SQLiteStore {
    public func keys() async throws -> [StoredKey] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT hash, kind, label, id, origin, createdAt, lastUsedAt, expiresAt, venues FROM apiKey
                    ORDER BY createdAt, id
                    """
            ).compactMap { row in
                guard let kind = KeyKind(rawValue: row["kind"]) else { return nil }
                return StoredKey(
                    hash: row["hash"], kind: kind, label: row["label"], id: row["id"],
                    origin: KeyOrigin(rawValue: row["origin"]) ?? .api, created: row["createdAt"],
                    lastUsed: row["lastUsedAt"], expires: row["expiresAt"],
                    venues: StoredKey.venues(json: row["venues"]))
            }
        }
    }

    public func addKey(_ key: StoredKey) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO apiKey (hash, kind, label, createdAt, id, origin, expiresAt, venues)
                    VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(hash) DO NOTHING
                    """,
                arguments: [
                    key.hash, key.kind.rawValue, key.label, key.created, key.id, key.origin.rawValue, key.expires,
                    key.venuesJSON,
                ])
        }
    }

    public func revokeKey(id: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM apiKey WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    public func retireOperatorKeys(keeping hashes: Set<String>) async throws -> [String] {
        try await pool.write { db in
            var retired: [String] = []
            for row in try Row.fetchAll(db, sql: "SELECT hash, id, origin FROM apiKey") {
                let hash: String = row["hash"]
                let origin: String = row["origin"]
                if hashes.contains(hash) {
                    if origin != KeyOrigin.operator.rawValue {
                        try db.execute(
                            sql: "UPDATE apiKey SET origin = ? WHERE hash = ?",
                            arguments: [KeyOrigin.operator.rawValue, hash])
                    }
                } else if origin == KeyOrigin.operator.rawValue {
                    try db.execute(sql: "DELETE FROM apiKey WHERE hash = ?", arguments: [hash])
                    retired.append(row["id"])
                }
            }
            return retired.sorted()
        }
    }

    public func touchKeys(_ lastUsed: [String: Double]) async throws {
        guard !lastUsed.isEmpty else { return }
        try await pool.write { db in
            for (id, time) in lastUsed.sorted(by: { $0.key < $1.key }) {
                try db.execute(
                    sql: "UPDATE apiKey SET lastUsedAt = ? WHERE id = ? AND (lastUsedAt IS NULL OR lastUsedAt < ?)",
                    arguments: [time, id, time])
            }
        }
    }
}
