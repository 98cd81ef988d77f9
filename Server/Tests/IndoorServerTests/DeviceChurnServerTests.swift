import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorServer
import Synchronization
import Testing

/// Devices come and go (rotating private addresses): once a device is gone the server holds none of it, the counts
/// in `/metrics` fall back, its check-outs are stored once, and the observers of every venue are told.
@Suite struct DeviceChurnServerTests {
    /// A 12 × 8 m room with a node at each corner, a zone over it (lost after 60 s).
    static let venueJSON = """
        {"id": "lobby", "name": "Lobby",
         "nodes": [{"id": "a", "x": 0, "y": 0}, {"id": "b", "x": 12, "y": 0}, {"id": "c", "x": 12, "y": 8},
                   {"id": "d", "x": 0, "y": 8}],
         "zones": [{"id": "room", "name": "Room", "fences": [{"polygon": [[-1, -1], [13, -1], [13, 9], [-1, 9]]}]}]}
        """
    static let origin = 1_000_000.0

    @Test(arguments: StoreKind.tested)
    func devicesThatAppearOnceAreHeldByNothingAfterTheLostTimeout(store kind: StoreKind) async throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let now = Mutex(Self.origin)
        let metrics = ServerMetrics()
        let hub = try await VenueHub(
            store: try await database.open(), metrics: metrics, wallClock: { now.withLock { $0 } })
        _ = try await hub.putVenue(id: "lobby", json: Data(Self.venueJSON.utf8))
        let observed = hub.observeAll(buffer: 100_000)
        // 200 devices, a new id every half second, each heard for 3 s by the four nodes.
        let devices = 200
        for tick in 0..<(devices + 6) {
            let second = Double(tick) / 2
            now.withLock { $0 = Self.origin + second }
            var batch: [Sighting] = []
            for index in stride(from: max(0, tick - 5), through: min(tick, devices - 1), by: 1) {
                for (offset, node) in ["a", "b", "c", "d"].enumerated() {
                    batch.append(
                        Sighting(
                            time: Self.origin + second + 0.01 * Double(offset), device: "id-\(index)", node: node,
                            rssi: -60 - Double(offset)))
                }
            }
            _ = try await hub.ingest(venue: "lobby", sightings: batch)
        }
        #expect((hub.heldDevices(venue: "lobby") ?? 0) > 0)
        // Quiet for three minutes of the wall clock: every device is lost, checked out, and let go.
        for _ in 0..<180 {
            now.withLock { $0 += 1 }
            try await hub.tick()
        }
        #expect(hub.heldDevices(venue: "lobby") == 0)
        // The session's activity log is emptied after each batch and tick: the store has the visits.
        #expect(hub.loggedVisits(venue: "lobby") == 0)
        let text = metrics.text()
        #expect(text.contains("indoor_devices_tracked 0"), "\(text)")
        #expect(text.contains(#"indoor_venue_devices_held{venue="lobby"} 0"#), "\(text)")
        // Each device checked in once and out once, stored.
        let store = try await database.open()
        let visits = try await store.visits(VisitQuery(venue: "lobby", limit: 10_000)).visits
        #expect(visits.count == devices)
        #expect(visits.allSatisfy { $0.reason == "lost" })
        // The observers were told of every device let go.
        hub.finishSubscribers()
        var forgotten: Set<String> = []
        for await batch in observed { forgotten.formUnion(batch.forgotten) }
        #expect(forgotten.count == devices)
    }
}
