import Foundation
import IndoorModel
import Synchronization
import Testing

@testable import IndoorServer

/// Retention's rounds: each with the same cutoff, until one deletes nothing.
@Suite struct RetentionSweepTests {
    @Test func roundsRunWithOneCutoffUntilOneDeletesNothing() async throws {
        let counts = Mutex<(left: [Int], cutoffs: [Double])>(([3, 3, 1, 0, 9], []))
        let deleted = try await RetentionSweep.rounds(50, now: 1000) { cutoff in
            counts.withLock { counts in
                counts.cutoffs.append(cutoff)
                return counts.left.removeFirst()
            }
        }
        #expect(deleted == 7)
        #expect(counts.withLock { $0.cutoffs } == [950, 950, 950, 950])
    }

    @Test func anInfiniteRetentionRunsNoRound() async throws {
        let deleted = try await RetentionSweep.rounds(.infinity, now: 1000) { _ in
            Issue.record("a round ran for an infinite retention")
            return 0
        }
        #expect(deleted == 0)
    }

    @Test func aSweepDeletesByTheWallClockAndRecordsTheStoresOldestRows() async throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        let store = try await database.open()
        let sightings = [Sighting(time: 1, device: "a", node: "n1", rssi: -60)]
        for receivedAt in [100.0, 200.0, 300.0] {
            _ = try await store.commit(
                IngestBatch(venue: "tiny", sightings: sightings, events: [], receivedAt: receivedAt))
        }
        let metrics = ServerMetrics()
        let sweep = RetentionSweep(store: store, metrics: metrics, wallClock: { 350 })
        let pruned = try await sweep.prune(Retention(sightings: 100, events: .infinity, visits: .infinity), batch: 1)
        #expect(pruned == Retention.Pruned(sightings: 2))
        #expect(try await store.sightingCount(venue: "tiny") == 1)
        let text = metrics.text()
        #expect(text.contains("indoor_sightings_pruned_total 2"))
        #expect(text.contains("indoor_store_oldest_sighting_seconds 300"))
    }

    @Test func aSweepDeletesAuditEntriesOlderThanTheirRetention() async throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        let store = try await database.open()
        try await store.appendAudit(
            [100.0, 200.0, 300.0].map {
                AuditEntry(
                    time: $0, keyId: nil, keyLabel: nil, method: "GET", route: "/v1/activity", path: "/v1/activity",
                    venue: nil, device: nil, address: nil, status: 401)
            })
        let sweep = RetentionSweep(store: store, metrics: ServerMetrics(), wallClock: { 350 })
        let kept = Retention(sightings: .infinity, events: .infinity, visits: .infinity, audit: .infinity)
        #expect(try await sweep.prune(kept, batch: 1).isEmpty)
        let pruned = try await sweep.prune(
            Retention(sightings: .infinity, events: .infinity, visits: .infinity, audit: 100), batch: 1)
        #expect(pruned == Retention.Pruned(audit: 2))
        #expect(try await store.audit(AuditQuery()).map(\.time) == [300])
        #expect(Retention().audit == 90 * 86400)
    }
}
