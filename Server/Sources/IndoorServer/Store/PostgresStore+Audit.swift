import Foundation
import PostgresNIO

extension PostgresStore {
    package func appendAudit(_ entries: [AuditEntry]) async throws {
        guard !entries.isEmpty else { return }
        try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                for entry in entries {
                    try await connection.query(
                        """
                        INSERT INTO audit (at, key_id, key_label, method, route, path, venue, device, address, status)
                        VALUES (\(entry.time), \(entry.keyId), \(entry.keyLabel), \(entry.method), \(entry.route),
                        \(entry.path), \(entry.venue), \(entry.device), \(entry.address), \(Int32(clamping: entry.status)))
                        """, logger: logger)
                }
            }
        }
    }

    package func audit(_ query: AuditQuery) async throws -> [AuditEntry] {
        var sql = "SELECT id, at, key_id, key_label, method, route, path, venue, device, address, status FROM audit"
        var binds = PostgresBindings()
        var conditions: [String] = []
        if let from = query.from {
            binds.append(from)
            conditions.append("at >= $\(binds.count)")
        }
        if let to = query.to {
            binds.append(to)
            conditions.append("at < $\(binds.count)")
        }
        if let before = query.before {
            binds.append(before)
            conditions.append("id < $\(binds.count)")
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        binds.append(Int64(query.limit))
        sql += " ORDER BY id DESC LIMIT $\(binds.count)"
        let statement = PostgresQuery(unsafeSQL: sql, binds: binds)
        let rows = try await mapped { try await client.query(statement, logger: logger).collect() }
        return try rows.map { row in
            let (id, at, keyId, keyLabel, method, route, path, venue, device, address, status) = try row.decode(
                (Int64, Double, String?, String?, String, String, String, String?, String?, String?, Int32).self)
            return AuditEntry(
                id: id, time: at, keyId: keyId, keyLabel: keyLabel, method: method, route: route, path: path,
                venue: venue, device: device, address: address, status: Int(status))
        }
    }

    package func pruneAudit(recordedBefore cutoff: Double, limit: Int) async throws -> Int {
        try await mapped {
            Int(
                try await client.query(
                    """
                    WITH gone AS (DELETE FROM audit WHERE id IN (SELECT id FROM audit ORDER BY id LIMIT \(Int64(limit)))
                    AND at < \(cutoff) RETURNING 1) SELECT COUNT(*) FROM gone
                    """, logger: logger
                ).collect().first?.decode(Int64.self) ?? 0)
        }
    }
}
