import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning
import IndoorSession
import Testing

/// Devices come and go (rotating private addresses): a device that is gone is let go by every part of the session,
/// its check-outs made once, and a cap bounds what a flood of ids can hold.
@Suite("LocationSession: devices that come and go are forgotten")
struct DeviceChurnTests {
    /// A 12 × 8 m room with a node at each corner; the room is a zone (lost after 60 s, the default).
    static let venue = Venue(
        id: "lobby", name: "Lobby",
        nodes: [
            Node(id: "a", position: Point3D(x: 0, y: 0, z: 1)), Node(id: "b", position: Point3D(x: 12, y: 0, z: 1)),
            Node(id: "c", position: Point3D(x: 12, y: 8, z: 1)), Node(id: "d", position: Point3D(x: 0, y: 8, z: 1)),
        ],
        zones: [
            Zone(
                id: "room", name: "Room",
                fences: [
                    .polygon(
                        Polygon([
                            Point2D(x: -1, y: -1), Point2D(x: 13, y: -1), Point2D(x: 13, y: 9), Point2D(x: -1, y: 9),
                        ]))
                ])
        ])

    /// Device `index` is heard by the four nodes once a second for five seconds, from `index × spacing` seconds.
    static func sightings(devices: Int, spacing: Double, prefix: String = "id") -> [Sighting] {
        var sightings: [Sighting] = []
        for index in 0..<devices {
            let start = Double(index) * spacing
            for second in 0..<5 {
                for (offset, node) in ["a", "b", "c", "d"].enumerated() {
                    sightings.append(
                        Sighting(
                            time: start + Double(second) + 0.01 * Double(offset), device: "\(prefix)\(index)",
                            node: node,
                            rssi: -60 - Double(offset)))
                }
            }
        }
        return sightings.sorted { ($0.time, $0.device) < ($1.time, $1.device) }
    }

    static func configuration(maximumDevices: Int = 100_000) -> SessionConfiguration {
        SessionConfiguration(
            venue: venue, method: MethodCatalog.Selection(.weightedCentroid), maximumDevices: maximumDevices)
    }

    @Test("600 devices each heard once for 5 s: after the lost timeout no part of the session holds any")
    func everyDeviceIsForgotten() throws {
        var session = try LocationSession(Self.configuration())
        var events: [SessionEvent] = []
        var mostHeld = 0
        for sighting in Self.sightings(devices: 600, spacing: 0.5) {
            events += session.ingest(sighting)
            mostHeld = max(mostHeld, session.heldDevices)
        }
        let end = 600 * 0.5 + 5
        for second in stride(from: end, through: end + 200, by: 1) {
            events += session.advance(to: second)
        }
        #expect(session.heldDevices == 0)
        #expect(session.heldDevicesByPart.filter { $0.value != 0 }.isEmpty, "\(session.heldDevicesByPart)")
        #expect(session.statistics.forgottenDevices == 600)
        #expect(session.statistics.evictedDevices == 0)
        // At most the devices of the last ~two minutes were held at once, never all 600.
        #expect(mostHeld < 300, "\(mostHeld)")
        // Every device checked in once and out once (lost), whatever was forgotten after.
        let zone = events.compactMap { event -> ZoneEvent? in if case .zone(let zone) = event { zone } else { nil } }
        #expect(zone.filter { $0.kind == .checkIn }.count == 600)
        #expect(zone.filter { $0.kind == .checkOut }.count == 600)
        #expect(zone.filter { $0.kind == .checkOut }.allSatisfy { $0.reason == .lost })
        #expect(Set(zone.map(\.device)).count == 600)
    }

    @Test("a device heard again after it was forgotten enters anew: a new check-in")
    func aForgottenDeviceEntersAnew() throws {
        var session = try LocationSession(Self.configuration())
        var events = session.ingest(Self.sightings(devices: 1, spacing: 0))
        events += session.advance(to: 200)
        #expect(session.heldDevices == 0)
        let again = Self.sightings(devices: 1, spacing: 0).map {
            var sighting = $0
            sighting.time += 300
            return sighting
        }
        events += session.ingest(again)
        let checkIns = events.filter { if case .zone(let zone) = $0 { zone.kind == .checkIn } else { false } }
        #expect(checkIns.count == 2)
        #expect(session.heldDevices == 1)
    }

    @Test("beyond maximumDevices the device silent longest is evicted, its open visit checked out once")
    func theCapHolds() throws {
        var session = try LocationSession(Self.configuration(maximumDevices: 50))
        var events: [SessionEvent] = []
        var mostHeld = 0
        for sighting in Self.sightings(devices: 200, spacing: 0.2) {
            events += session.ingest(sighting)
            mostHeld = max(mostHeld, session.heldDevices)
        }
        events += session.advance(to: 300)
        #expect(mostHeld == 50)
        #expect(session.statistics.evictedDevices > 0)
        #expect(session.statistics.evictedDevices + session.statistics.forgottenDevices == 200)
        let zone = events.compactMap { event -> ZoneEvent? in if case .zone(let zone) = event { zone } else { nil } }
        let checkIns = zone.filter { $0.kind == .checkIn }
        let checkOuts = zone.filter { $0.kind == .checkOut }
        #expect(checkIns.count == checkOuts.count)
        #expect(Set(checkOuts.map(\.device)).count == checkOuts.count)
        #expect(session.heldDevices == 0)
    }
}
