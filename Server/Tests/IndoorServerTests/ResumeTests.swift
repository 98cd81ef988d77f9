import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorServer
import IndoorServerTestSupport
import Synchronization
import Testing

/// A restarted server (a new hub over the same store, as after `kill -9`) rebuilds each venue's session from its
/// latest stored sightings.
@Suite struct ResumeTests {
    @Test(arguments: StoreKind.tested)
    func aRestartMakesTheFirstFixStillWaitingAndDoublesNothing(store kind: StoreKind) async throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let now = Mutex(1_000_000.0)
        let first = try await VenueHub(
            store: try await database.open(), metrics: ServerMetrics(), wallClock: { now.withLock { $0 } })
        _ = try await first.putVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8))
        // "b" is heard twice beside n2 (inside the east room), so it is located and checks in; "a" once, so its
        // first fix still waits when the server stops without a tick.
        _ = try await first.ingest(
            venue: "tiny",
            sightings: [
                Sighting(time: 1, device: "b", node: "n2", rssi: -55),
                Sighting(time: 1.8, device: "a", node: "n2", rssi: -56),
                Sighting(time: 2, device: "b", node: "n2", rssi: -55),
            ])
        var store = try await database.open()
        #expect(try await store.latestFix(venue: "tiny", device: "a") == nil)
        #expect(try await store.latestFix(venue: "tiny", device: "b") != nil)
        let before = try await store.events(venue: "tiny", after: 0, limit: 100)
        #expect(before.contains { $0.event.device == "b" && Self.isCheckIn($0.event) })

        now.withLock { $0 += 0.3 }
        store = try await database.open()
        let second = try await VenueHub(store: store, metrics: ServerMetrics(), wallClock: { now.withLock { $0 } })
        // Nothing of "b" is stored again by the replay.
        let resumed = try await store.events(venue: "tiny", after: 0, limit: 100)
        #expect(resumed.filter { $0.event.device == "b" }.count == before.filter { $0.event.device == "b" }.count)
        // The first tick after a quiet second makes "a"'s first fix at its time (half a second after its sighting).
        now.withLock { $0 += 1 }
        try await second.tick()
        let fix = try #require(try await store.latestFix(venue: "tiny", device: "a"))
        #expect(abs(fix.time - 2.3) < 1e-9)
        // Two quiet minutes later, both are checked out of the east room (lost, after the zone's 60 s): the visit "b"
        // opened before the restart is closed, once.
        now.withLock { $0 += 120 }
        try await second.tick()
        let visits = try await store.visits(VisitQuery(venue: "tiny")).visits
        #expect(visits.filter { $0.device == "b" }.map(\.reason) == ["lost"])
        #expect(visits.filter { $0.device == "a" }.map(\.reason) == ["lost"])
        let checkIns = try await store.events(venue: "tiny", after: 0, limit: 100).filter { Self.isCheckIn($0.event) }
        #expect(checkIns.map(\.event.device).sorted() == ["a", "b"])
    }

    @Test(arguments: StoreKind.tested)
    func theLatestSightingsAreReadBackInTimeOrder(store kind: StoreKind) async throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let store = try await database.open()
        let beacon = try BeaconID(parsing: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/2")
        let sightings = [
            Sighting(time: 5, device: "p", node: "n1", rssi: -60),
            Sighting(time: 9, device: "p", source: .beacon(beacon), rssi: -61, txPower: -59),
            Sighting(time: 7, device: "q", node: "n2", rssi: -62),
            Sighting(time: 9, device: "q", node: "n1", rssi: -63),
        ]
        _ = try await store.commit(IngestBatch(venue: "v", sightings: sightings, events: [], receivedAt: 100))
        _ = try await store.commit(
            IngestBatch(
                venue: "w", sightings: [Sighting(time: 50, device: "r", node: "n1", rssi: -60)], events: [],
                receivedAt: 101))
        let recent = try await store.recentSightings(venue: "v", seconds: 2, limit: 10)
        #expect(recent.map(\.sighting) == [sightings[2], sightings[1], sightings[3]])
        #expect(recent.map(\.receivedAt) == [100, 100, 100])
        #expect(
            try await store.recentSightings(venue: "v", seconds: 2, limit: 2).map(\.sighting) == [
                sightings[1], sightings[3],
            ])
        #expect(try await store.recentSightings(venue: "none", seconds: 2, limit: 10).isEmpty)
    }

    static func isCheckIn(_ event: ServerEvent) -> Bool {
        if case .zone(let zone) = event { zone.kind == .checkIn } else { false }
    }
}
