import Foundation
import GRDB

extension SQLiteStore {
    public func pruneSightings(receivedBefore cutoff: Double, limit: Int) async throws -> Int {
        // Among the `limit` oldest rows only (sightings are stored in the order they are received), so that one
        // round costs the same however large the table is.
        try await pool.write { db in
            try db.execute(
                sql:
                    "DELETE FROM sighting WHERE id IN (SELECT id FROM sighting ORDER BY id LIMIT ?) AND receivedAt < ?",
                arguments: [limit, cutoff])
            return db.changesCount
        }
    }

    public func pruneEvents(storedBefore cutoff: Double, limit: Int) async throws -> Int {
        // Among the `limit` oldest rows, as for sightings: events are stored in the order of their ids.
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM event WHERE id IN (SELECT id FROM event ORDER BY id LIMIT ?) AND storedAt < ?",
                arguments: [limit, cutoff])
            return db.changesCount
        }
    }

    public func pruneVisits(closedBefore cutoff: Double, limit: Int) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: """
                    DELETE FROM visit WHERE id IN
                    (SELECT id FROM visit WHERE closedAt < ? ORDER BY closedAt LIMIT ?)
                    """,
                arguments: [cutoff, limit])
            return db.changesCount
        }
    }

    public func storage() async throws -> StoreStorage {
        try await pool.read { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return StoreStorage(
                bytes: pages * pageSize,
                oldestSighting: try Double.fetchOne(db, sql: "SELECT receivedAt FROM sighting ORDER BY id LIMIT 1"),
                oldestEvent: try Double.fetchOne(db, sql: "SELECT storedAt FROM event ORDER BY id LIMIT 1"),
                oldestVisit: try Double.fetchOne(
                    db, sql: "SELECT closedAt FROM visit WHERE closedAt IS NOT NULL ORDER BY closedAt LIMIT 1"))
        }
    }
}
