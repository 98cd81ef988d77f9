import Foundation
import IndoorModel
import Synchronization
import Testing

@testable import IndoorServer

/// A venue's jobs: its batches committed, streamed and answered; ticks; the replacement of its runtime.
@Suite struct IngestPipelineTests {
    /// A pipeline over a new SQLite store, with the fixture's venue running and a wall clock the test moves.
    struct Parts {
        let database: TestDatabase
        let store: any LocationStore
        let registry: VenueRegistry
        let nodeHealth = NodeHealthBook()
        let observers = SubscriberTable<VenueLiveEvents>()
        /// The wall clock, Unix seconds.
        let clock = TestClock(1000)
        let pipeline: IngestPipeline

        init(clustered: Bool = false) async throws {
            database = try TestDatabase(.sqlite)
            store = try await database.open()
            registry = VenueRegistry(clustered: clustered)
            registry.run(try VenueRuntime(venue: try VenueRegistryTests.venue("tiny"), learnsSurvey: false))
            let clock = clock
            pipeline = IngestPipeline(
                store: store, registry: registry, timeWindow: SightingTimeWindow(), metrics: ServerMetrics(),
                nodeHealth: nodeHealth, observers: observers, logger: .init(label: "test"),
                wallClock: { clock.now })
        }
    }

    @Test func anUnknownVenueIsNotFoundAndOneRunElsewhereSaysSo() async throws {
        let parts = try await Parts(clustered: true)
        defer { parts.database.remove() }
        let sightings = [Sighting(time: 1, device: "p", node: "n1", rssi: -60)]
        let missing = APIError.notFound(field: "venue", "venue 'x' does not exist; create it with PUT /v1/venues/x")
        await #expect(throws: missing) {
            try await parts.pipeline.admit(venue: "x", sightings: sightings)
        }
        parts.registry.catalogue(try VenueRegistryTests.venue("other"))
        await #expect(throws: VenueElsewhereError(venue: "other")) {
            try await parts.pipeline.admit(venue: "other", sightings: sightings)
        }
    }

    @Test func aBatchIsCommittedThenStreamedToTheVenueAndEveryObserverAndItsNodesAreHeard() async throws {
        let parts = try await Parts()
        defer { parts.database.remove() }
        let runtime = try #require(parts.registry.runtime("tiny"))
        let stream = runtime.subscribers.subscribe(bufferingPolicy: .unbounded)
        let observed = parts.observers.subscribe(bufferingPolicy: .unbounded)
        let admission = try await parts.pipeline.admit(venue: "tiny", sightings: GroupCommitTests.pair("p", at: 10))
        #expect(admission.refused.isEmpty)
        #expect(!admission.stored.isEmpty)
        #expect(admission.eventJSON.count == admission.stored.count)
        #expect(
            try await parts.store.events(venue: "tiny", after: 0, limit: 100).map(\.id) == admission.stored.map(\.id))
        runtime.subscribers.finishAll()
        parts.observers.finishAll()
        #expect(await Array(stream).map(\.stored) == admission.stored)
        let batches = await Array(observed)
        #expect(batches.map(\.venue) == ["tiny"])
        #expect(batches.first?.events.map(\.stored) == admission.stored)
        let health = parts.nodeHealth.health(venue: "tiny", nodes: ["n1", "n2"], at: 1000)
        #expect(health.map(\.lastHeard) == [nil, 1000])
    }

    @Test func aTickMovesOnlyAVenueQuietLongEnoughAndStoresWhatFallsDue() async throws {
        let parts = try await Parts()
        defer { parts.database.remove() }
        let admitted = try await parts.pipeline.admit(venue: "tiny", sightings: GroupCommitTests.pair("p", at: 10))
        try await parts.pipeline.tick(quiet: 1)
        #expect(
            try await parts.store.events(venue: "tiny", after: 0, limit: 100).map(\.id) == admitted.stored.map(\.id))
        // Two quiet minutes: "p", no longer heard, is checked out of the east room.
        parts.clock.advance(by: 120)
        try await parts.pipeline.tick(quiet: 1)
        let after = try await parts.store.events(venue: "tiny", after: 0, limit: 100)
        #expect(after.count > admitted.stored.count)
        #expect(
            after.contains {
                if case .zone(let zone) = $0.event { zone.kind == .checkOut && zone.reason == .lost } else { false }
            })
    }

    @Test func aReplacementRetiresTheOldRuntimeAndCarriesItsPresentOver() async throws {
        let parts = try await Parts()
        defer { parts.database.remove() }
        _ = try await parts.pipeline.admit(venue: "tiny", sightings: GroupCommitTests.pair("p", at: 10))
        let old = try #require(parts.registry.runtime("tiny"))
        let new = try VenueRuntime(venue: try VenueRegistryTests.venue("tiny", name: "Renamed"), learnsSurvey: false)
        #expect(try await parts.pipeline.replace(venue: "tiny", with: new) === old)
        #expect(parts.registry.isCurrent(new))
        #expect(old.locked { $0.retired })
        #expect(new.locked { $0.lastDataTime == 10.6 && $0.lastArrival == 1000 })
        #expect(new.deviceCount == 1)
        // A venue without a runtime simply runs the new one.
        let other = try VenueRuntime(venue: try VenueRegistryTests.venue("other"), learnsSurvey: false)
        #expect(try await parts.pipeline.replace(venue: "other", with: other) == nil)
        #expect(parts.registry.isCurrent(other))
    }
}

/// A wall clock a test sets: Unix seconds.
final class TestClock: Sendable {
    private let seconds: Mutex<Double>

    init(_ seconds: Double) { self.seconds = Mutex(seconds) }

    /// The time now.
    var now: Double { seconds.withLock { $0 } }

    /// Moves the clock on by `seconds`.
    func advance(by seconds: Double) { self.seconds.withLock { $0 += seconds } }
}
