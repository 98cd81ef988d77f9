import Foundation
import IndoorModel
import IndoorServer
import IndoorServerTestSupport
import Testing

/// The leases of ``PostgresStore``: one holder at a time, taken over only once expired or released, and a commit made
/// under a lease that changed hands refused whole.
@Suite(.serialized, .enabled(if: Postgres.isInstalled, Comment(rawValue: Postgres.notInstalled)))
struct ClusterStoreTests {
    static func batch(lease: VenueLease?) -> IngestBatch {
        IngestBatch(
            venue: "v", sightings: [Sighting(time: 1, device: "p", node: "n1", rssi: -60)],
            events: [
                .fix(
                    Fix(
                        time: 1, device: "p", position: Point3D(x: 1, y: 2, z: 0), floor: 0, accuracy: 1, confidence: 1,
                        method: "m"))
            ],
            receivedAt: 1, lease: lease)
    }

    @Test func aLeaseHasOneHolderAndALateCommitOfAnEarlierHolderIsRefusedWhole() async throws {
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        guard let store = try await database.open() as? PostgresStore else { return }
        defer { Task { await store.close() } }

        let first = try #require(try await store.acquireLease(venue: "v", owner: "a", seconds: 60))
        #expect(first.epoch == 1)
        // Held and unexpired: nobody else takes it.
        #expect(try await store.acquireLease(venue: "v", owner: "b", seconds: 60) == nil)
        #expect(try await store.renewLease(first, seconds: 60))
        #expect(try await store.commit(Self.batch(lease: first)).count == 1)

        // Released: the next instance takes it under the next epoch; the earlier holder can neither renew nor commit.
        try await store.releaseLease(first)
        let second = try #require(try await store.acquireLease(venue: "v", owner: "b", seconds: 60))
        #expect(second.epoch == 2)
        #expect(try await store.renewLease(first, seconds: 60) == false)
        await #expect(throws: LeaseLostError.self) { try await store.commit(Self.batch(lease: first)) }
        #expect(try await store.sightingCount(venue: "v") == 1)
        #expect(try await store.commit(Self.batch(lease: second)).count == 1)
        #expect(try await store.sightingCount(venue: "v") == 2)

        // Expired: taken over without a release.
        let third = try #require(try await store.acquireLease(venue: "w", owner: "a", seconds: 0.2))
        try await Task.sleep(for: .milliseconds(400))
        let leases = try await store.leases()
        #expect(leases["w"]?.expired == true)
        #expect(leases["v"]?.owner == "b")
        let taken = try #require(try await store.acquireLease(venue: "w", owner: "c", seconds: 60))
        #expect(taken.epoch == third.epoch + 1)

        // Heartbeats: the instances seen lately.
        _ = try await store.heartbeat(instance: "a", url: "http://127.0.0.1:1", within: 60)
        let members = try await store.heartbeat(instance: "b", url: "http://127.0.0.1:2", within: 60)
        #expect(members.map(\.id) == ["a", "b"])
    }
}
