import Foundation
import PostgresNIO

extension PostgresStore {
    package func pruneSightings(receivedBefore cutoff: Double, limit: Int) async throws -> Int {
        // Among the `limit` oldest rows only, as in SQLite: one round costs the same however large the table is.
        try await deleted(
            """
            WITH gone AS (DELETE FROM sighting WHERE id IN (SELECT id FROM sighting ORDER BY id LIMIT \(Int64(limit)))
            AND received_at < \(cutoff) RETURNING 1) SELECT COUNT(*) FROM gone
            """)
    }

    package func pruneEvents(storedBefore cutoff: Double, limit: Int) async throws -> Int {
        try await deleted(
            """
            WITH gone AS (DELETE FROM event WHERE id IN (SELECT id FROM event ORDER BY id LIMIT \(Int64(limit)))
            AND stored_at < \(cutoff) RETURNING 1) SELECT COUNT(*) FROM gone
            """)
    }

    package func pruneVisits(closedBefore cutoff: Double, limit: Int) async throws -> Int {
        try await deleted(
            """
            WITH gone AS (DELETE FROM visit WHERE id IN (SELECT id FROM visit WHERE closed_at < \(cutoff)
            ORDER BY closed_at LIMIT \(Int64(limit))) RETURNING 1) SELECT COUNT(*) FROM gone
            """)
    }

    private func deleted(_ query: PostgresQuery) async throws -> Int {
        try await mapped {
            Int(try await client.query(query, logger: logger).collect().first?.decode(Int64.self) ?? 0)
        }
    }

    /// The size of the store's tables with their indexes and TOAST, bytes, and its oldest rows' times.
    package func storage() async throws -> StoreStorage {
        try await mapped {
            let rows = try await client.query(
                """
                SELECT
                    (SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
                     WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace
                     AND c.relname IN ('venue', 'sighting', 'event', 'device', 'visit', 'api_key',
                     'indoor_migrations')),
                    (SELECT received_at FROM sighting ORDER BY id LIMIT 1),
                    (SELECT stored_at FROM event ORDER BY id LIMIT 1),
                    (SELECT closed_at FROM visit WHERE closed_at IS NOT NULL ORDER BY closed_at LIMIT 1)
                """, logger: logger
            ).collect()
            guard let row = rows.first else { return StoreStorage(bytes: 0, oldestSighting: nil) }
            let (bytes, sighting, event, visit) = try row.decode((Int64, Double?, Double?, Double?).self)
            return StoreStorage(
                bytes: Int(bytes), oldestSighting: sighting, oldestEvent: event, oldestVisit: visit)
        }
    }
}
