import Foundation
import PostgresNIO

extension PostgresStore {
    package func keys() async throws -> [StoredKey] {
        try await mapped {
            try await client.query("SELECT hash, kind, label FROM api_key ORDER BY created_at", logger: logger)
                .collect().compactMap { row in
                    let (hash, kind, label) = try row.decode((String, String, String).self)
                    return KeyKind(rawValue: kind).map { StoredKey(hash: hash, kind: $0, label: label) }
                }
        }
    }

    package func addKey(_ key: StoredKey) async throws {
        let now = Date().timeIntervalSince1970
        try await mapped {
            try await client.query(
                """
                INSERT INTO api_key (hash, kind, label, created_at) VALUES (\(key.hash), \(key.kind.rawValue),
                \(key.label), \(now)) ON CONFLICT (hash) DO NOTHING
                """, logger: logger)
        }
    }
}
