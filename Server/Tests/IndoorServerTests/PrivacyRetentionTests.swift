import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorServerTestSupport
import Synchronization
import Testing

@testable import IndoorServer

/// Nothing kept forever (issue 50): a latest fix goes with its venue's events; a stored visit no session holds open
/// is closed as `lost` once it has been open longer than ``Retention/openVisits``.
@Suite struct PrivacyRetentionTests {
    static func fix(_ device: String, time: Double) -> ServerEvent {
        .fix(
            Fix(
                time: time, device: device, position: Point3D(x: 1, y: 1, z: 0), floor: 0, accuracy: 2,
                confidence: 0.5, method: "test"))
    }

    @Test(arguments: StoreKind.tested)
    func aLatestFixExpiresWithItsVenuesEvents(store: StoreKind) async throws {
        let database = try TestDatabase(store)
        defer { database.remove() }
        let store = try await database.open()
        _ = try await store.commit(
            IngestBatch(venue: "tiny", sightings: [], events: [Self.fix("old", time: 10)], receivedAt: 1000))
        _ = try await store.commit(
            IngestBatch(venue: "tiny", sightings: [], events: [Self.fix("new", time: 20)], receivedAt: 5000))
        #expect(try await store.pruneLatestFixes() == [])
        #expect(try await store.pruneEvents(storedBefore: 2000, limit: 100) == 1)
        #expect(try await store.pruneLatestFixes() == [ExpiredDevice(venue: "tiny", device: "old")])
        #expect(try await store.devices(venue: "tiny", since: -.infinity).map(\.device) == ["new"])
        #expect(try await store.pruneEvents(storedBefore: 6000, limit: 100) == 1)
        #expect(try await store.pruneLatestFixes() == [ExpiredDevice(venue: "tiny", device: "new")])
        #expect(try await store.devices(venue: "tiny", since: -.infinity).isEmpty)
    }

    @Test(arguments: StoreKind.tested)
    func aVisitNoSessionHoldsIsClosedAsLostAfterItsLimit(store: StoreKind) async throws {
        let database = try TestDatabase(store)
        defer { database.remove() }
        let store = try await database.open()
        let now = Mutex(1_000_000.0)
        let hub = try await VenueHub(store: store, metrics: ServerMetrics(), wallClock: { now.withLock { $0 } })
        _ = try await hub.putVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8))
        // A visit left open in the store (its session restarted and the device was never heard again).
        let checkIn = ZoneEvent(
            kind: .checkIn, time: 100, zone: "east", zoneName: "East room", device: "ghost", trigger: .fence)
        _ = try await store.commit(
            IngestBatch(venue: "tiny", sightings: [], events: [.zone(checkIn)], receivedAt: 1_000_000))
        // The venue's present: 5000 s of data time.
        _ = try await hub.ingest(venue: "tiny", sightings: [Sighting(time: 5000, device: "p", node: "n1", rssi: -60)])
        let keep = Retention(sightings: .infinity, events: .infinity, visits: .infinity, openVisits: 10_000)
        #expect(try await hub.prune(keep).closedVisits == 0)
        let close = Retention(sightings: .infinity, events: .infinity, visits: .infinity, openVisits: 3600)
        #expect(try await hub.prune(close).closedVisits == 1)
        let visit = try #require(try await store.visits(VisitQuery(venue: "tiny", device: "ghost")).visits.first)
        #expect(visit.reason == "lost")
        #expect(visit.checkOut == 5000)
        #expect(visit.dwell == nil)
        #expect(try await hub.prune(close).closedVisits == 0)
    }
}
