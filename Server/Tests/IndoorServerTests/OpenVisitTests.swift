import Foundation
import IndoorGeofencing
import IndoorServer
import IndoorServerTestSupport
import Testing

/// Both stores keep at most one open visit of a device in a zone.
@Suite struct OpenVisitTests {
    @Test(arguments: StoreKind.tested)
    func aDeviceHasOneOpenVisitPerZoneAtMost(store kind: StoreKind) async throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let store = try await database.open()
        // A check-in while the device's visit of that zone is open (a session started afresh after a restart).
        for time in [1.0, 5.0] {
            _ = try await store.commit(
                IngestBatch(
                    venue: "a", sightings: [], events: [PostgresStoreTests.zone(.checkIn, "p", "z1", time)],
                    receivedAt: 1))
        }
        var visits = try await store.visits(VisitQuery(venue: "a")).visits
        #expect(visits.count == 1)
        #expect(visits.first?.checkIn == 1)
        #expect(visits.first?.checkOut == nil)
        _ = try await store.commit(
            IngestBatch(
                venue: "a", sightings: [], events: [PostgresStoreTests.zone(.checkOut, "p", "z1", 9, checkIn: 5)],
                receivedAt: 2))
        visits = try await store.visits(VisitQuery(venue: "a")).visits
        #expect(visits.map(\.checkOut) == [9])
        #expect(visits.count == 1)
        // Another zone, or another device, has its own.
        _ = try await store.commit(
            IngestBatch(
                venue: "a", sightings: [],
                events: [
                    PostgresStoreTests.zone(.checkIn, "p", "z2", 10), PostgresStoreTests.zone(.checkIn, "q", "z1", 10),
                ],
                receivedAt: 3))
        #expect(try await store.visits(VisitQuery(venue: "a")).visits.filter { $0.checkOut == nil }.count == 2)
    }
}
