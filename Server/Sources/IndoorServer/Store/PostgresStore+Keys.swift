import Foundation
import PostgresNIO

extension PostgresStore {
    package func keys() async throws -> [StoredKey] {
        try await mapped {
            try await client.query(
                """
                SELECT hash, kind, label, id, origin, created_at, last_used_at, expires_at, venues FROM api_key
                ORDER BY created_at, id
                """, logger: logger
            ).collect().compactMap { row in
                let (hash, kind, label, id, origin, created, lastUsed, expires, venues) = try row.decode(
                    (String, String, String, String, String, Double, Double?, Double?, String?).self)
                return KeyKind(rawValue: kind).map {
                    StoredKey(
                        hash: hash, kind: $0, label: label, id: id, origin: KeyOrigin(rawValue: origin) ?? .api,
                        created: created, lastUsed: lastUsed, expires: expires,
                        venues: StoredKey.venues(json: venues))
                }
            }
        }
    }

    package func addKey(_ key: StoredKey) async throws {
        try await mapped {
            try await client.query(
                """
                INSERT INTO api_key (hash, kind, label, created_at, id, origin, expires_at, venues)
                VALUES (\(key.hash), \(key.kind.rawValue), \(key.label), \(key.created), \(key.id),
                \(key.origin.rawValue), \(key.expires), \(key.venuesJSON)) ON CONFLICT (hash) DO NOTHING
                """, logger: logger)
        }
    }

    package func revokeKey(id: String) async throws -> Bool {
        try await mapped {
            try await client.query("DELETE FROM api_key WHERE id = \(id) RETURNING 1", logger: logger)
                .collect().isEmpty == false
        }
    }

    package func retireOperatorKeys(keeping hashes: Set<String>) async throws -> [String] {
        let kept = hashes.sorted()
        let operatorOrigin = KeyOrigin.operator.rawValue
        return try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query(
                    "UPDATE api_key SET origin = \(operatorOrigin) WHERE hash = ANY(\(kept)) AND origin <> \(operatorOrigin)",
                    logger: logger)
                return try await connection.query(
                    """
                    DELETE FROM api_key WHERE origin = \(operatorOrigin) AND NOT (hash = ANY(\(kept))) RETURNING id
                    """, logger: logger
                ).collect().map { try $0.decode(String.self) }.sorted()
            }
        }
    }

    package func touchKeys(_ lastUsed: [String: Double]) async throws {
        guard !lastUsed.isEmpty else { return }
        let entries = lastUsed.sorted { $0.key < $1.key }
        let ids = entries.map(\.key)
        let times = entries.map(\.value)
        try await mapped {
            try await client.query(
                """
                UPDATE api_key SET last_used_at = used.t FROM unnest(\(ids)::text[], \(times)::float8[]) AS used(id, t)
                WHERE api_key.id = used.id AND (api_key.last_used_at IS NULL OR api_key.last_used_at < used.t)
                """, logger: logger)
        }
    }
}
