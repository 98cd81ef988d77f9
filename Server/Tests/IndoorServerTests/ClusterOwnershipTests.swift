import Foundation
import IndoorModel
import IndoorServerTestSupport
import Testing

@testable import IndoorServer

/// One instance's rounds in its cluster: the venues it takes, runs again when changed, drops and gives up.
@Suite(.serialized, .enabled(if: Postgres.isInstalled, Comment(rawValue: Postgres.notInstalled)))
struct ClusterOwnershipTests {
    /// An instance's ownership over `store`, with the parts it runs venues in.
    struct Parts {
        let registry = VenueRegistry(clustered: true)
        let ownership: ClusterOwnership

        init(instance: String, store: any ClusterStore) {
            let metrics = ServerMetrics()
            let scans = ScanSessions()
            let nodeHealth = NodeHealthBook()
            let pipeline = IngestPipeline(
                store: store, registry: registry, timeWindow: SightingTimeWindow(), metrics: metrics,
                nodeHealth: nodeHealth, observers: SubscriberTable(), logger: .init(label: "test"),
                wallClock: { 1000 })
            ownership = ClusterOwnership(
                identity: ClusterIdentity(instance: instance, url: "http://127.0.0.1:1"), store: store,
                registry: registry, pipeline: pipeline,
                resumption: VenueResume(store: store, metrics: metrics, wallClock: { 1000 }),
                learning: SurveyLearning(surveys: [:], registry: registry, scans: scans, metrics: metrics),
                scans: scans, nodeHealth: nodeHealth, metrics: metrics, logger: .init(label: "test"))
        }
    }

    static func stored(_ id: String, name: String = "Tiny") throws -> StoredVenue {
        StoredVenue(id: id, json: try VenueRegistryTests.venue(id, name: name).encodeJSON())
    }

    @Test func anInstanceAloneTakesEveryVenueRunsItsNewVersionDropsItWhenDeletedAndGivesItUp() async throws {
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        guard let store = try await database.open() as? PostgresStore else { return }
        defer { Task { await store.close() } }
        let parts = Parts(instance: "a", store: store)
        try await store.putVenue(try Self.stored("tiny"))
        try await store.putVenue(try Self.stored("other"))

        try await parts.ownership.round()
        #expect(parts.registry.ownedVenueIDs == ["other", "tiny"])
        #expect(parts.registry.venueIDs == ["other", "tiny"])
        #expect(parts.ownership.state.members.map(\.id) == ["a"])
        #expect(parts.ownership.owner(of: "tiny")?.id == "a")
        let lease = try #require(try await store.leases()["tiny"])
        #expect(lease.owner == "a" && !lease.expired)

        // Changed in the store (by another instance): run in its new version, under the same lease.
        try await store.putVenue(try Self.stored("tiny", name: "Renamed"))
        try await parts.ownership.round()
        #expect(parts.registry.runtime("tiny")?.venue.name == "Renamed")
        #expect(parts.registry.runtime("tiny")?.lease?.epoch == lease.epoch)

        // Deleted: no longer run, and no longer known.
        _ = try await store.deleteVenue(id: "other")
        try await parts.ownership.round()
        #expect(parts.registry.ownedVenueIDs == ["tiny"])
        #expect(parts.registry.venue(id: "other") == nil)

        // Left: every lease given up at once.
        let runtime = try #require(parts.registry.runtime("tiny"))
        await parts.ownership.leave()
        #expect(parts.registry.ownedVenueIDs.isEmpty)
        #expect(runtime.locked { $0.retired })
        #expect(try await store.leases()["tiny"]?.expired == true)
    }

    @Test func twoInstancesShareTheVenuesAndEachKnowsTheOthersOwner() async throws {
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        guard let store = try await database.open() as? PostgresStore else { return }
        defer { Task { await store.close() } }
        let ids = (0..<6).map { "v\($0)" }
        for id in ids { try await store.putVenue(try Self.stored(id)) }
        let a = Parts(instance: "a", store: store)
        let b = Parts(instance: "b", store: store)
        try await a.ownership.round()
        #expect(a.registry.ownedVenueIDs == ids)
        // "b" joins: it takes nothing held until "a" hands its share over in its next round.
        try await b.ownership.round()
        try await a.ownership.round()
        try await b.ownership.round()
        let owned = (a: Set(a.registry.ownedVenueIDs), b: Set(b.registry.ownedVenueIDs))
        #expect(owned.a.isDisjoint(with: owned.b))
        #expect(owned.a.union(owned.b) == Set(ids))
        #expect(!owned.a.isEmpty && !owned.b.isEmpty)
        try await a.ownership.round()
        for id in ids {
            #expect(a.ownership.owner(of: id)?.id == (owned.a.contains(id) ? "a" : "b"))
        }
        await a.ownership.leave()
        await b.ownership.leave()
    }
}
