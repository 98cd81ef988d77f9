import Foundation
import GRDB

extension SQLiteStore {
    public func keys() async throws -> [StoredKey] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT hash, kind, label FROM apiKey ORDER BY createdAt").compactMap { row in
                guard let kind = KeyKind(rawValue: row["kind"]) else { return nil }
                return StoredKey(hash: row["hash"], kind: kind, label: row["label"])
            }
        }
    }

    public func addKey(_ key: StoredKey) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO apiKey (hash, kind, label, createdAt) VALUES (?,?,?,?) ON CONFLICT(hash) DO NOTHING",
                arguments: [key.hash, key.kind.rawValue, key.label, Date().timeIntervalSince1970])
        }
    }
}
