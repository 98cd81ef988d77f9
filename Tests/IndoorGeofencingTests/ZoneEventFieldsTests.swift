import Foundation
import IndoorModel
import Testing

@testable import IndoorGeofencing

/// What checked a device in travels with its visit's events and activity-log rows.
@Suite("Zone engine: events name the fence or beacon")
struct ZoneEventFieldsTests {
    @Test("a fence visit's check-in, dwell and check-out name the fence by id, or by index without one")
    func fenceNames() throws {
        let zone = Zone(
            id: "office", name: "Office",
            fences: [
                .circle(center: Point2D(x: 0, y: 0), radius: 2, id: "desk-3"),
                .circle(center: Point2D(x: 20, y: 0), radius: 2),
            ],
            checkOutTime: 0, dwellThreshold: 1)
        var engine = ZoneEngine(zones: [zone])
        var events = engine.run([fix(0, x: 0), fix(2, x: 50)])
        #expect(summary(events) == ["checkIn@0", "dwell@1", "checkOut@2"])
        #expect(events.map(\.fence) == ["desk-3", "desk-3", "desk-3"])
        #expect(events.allSatisfy { $0.beacon == nil && $0.proximity == nil })
        // The second fence has no id: its index in the zone, as text.
        events = engine.run([fix(10, x: 20), fix(12, x: 50)])
        #expect(summary(events) == ["checkIn@10", "dwell@11", "checkOut@12"])
        #expect(events.map(\.fence) == ["1", "1", "1"])
        #expect(engine.activity.visits.map(\.fence) == ["desk-3", "1"])
        let json = String(decoding: try JSONFormat.encoder().encode(events[0]), as: UTF8.self)
        #expect(json.contains(#""fence":"1""#))
    }

    @Test("a fence id round-trips through the venue JSON; files without it still read")
    func fenceIDJSON() throws {
        let json = #"""
            {"id":"v","zones":[{"id":"z","fences":[{"id":"desk-3","polygon":[[0,0],[4,0],[4,4],[0,4]]},
            {"center":[9,9],"radius":1}]}]}
            """#
        let venue = try Venue.decodeJSON(Data(json.utf8), file: "v.json")
        let fences = try #require(venue.zones.first?.fences)
        #expect(fences.map(\.id) == ["desk-3", nil])
        let encoded = String(decoding: try JSONFormat.encoder().encode(fences), as: UTF8.self)
        #expect(encoded == #"[{"id":"desk-3","polygon":[[0,0],[4,0],[4,4],[0,4]]},{"center":[9,9],"radius":1}]"#)
    }

    @Test("a beacon visit's events name the beacon (node id) and its proximity at check-in")
    func beaconNames() {
        let zone = Zone(
            id: "desk", name: "Desk", beacons: [ZoneBeacon(node: "b1", checkIn: .near)], exitDelay: 10,
            dwellThreshold: 5)
        var engine = ZoneEngine(zones: [zone])
        var events = engine.run([ranging(0, node: "b1", .far), ranging(1, node: "b1", .immediate)])
        events += engine.run((2...8).map { ranging(Double($0), node: "b1", .far) })
        events += engine.advance(to: 30)
        #expect(summary(events) == ["checkIn@1", "dwell@6", "checkOut@18"])
        #expect(events.map(\.beacon) == ["b1", "b1", "b1"])
        #expect(events.map(\.proximity) == [.immediate, .immediate, .immediate])
        #expect(events.allSatisfy { $0.fence == nil })
        #expect(
            engine.activity.visits == [
                ZoneVisit(
                    zone: "desk", device: "phone", trigger: .beacon, beacon: "b1", proximity: .immediate, checkIn: 1,
                    checkOut: 8, reason: .left)
            ])
    }

    @Test("a beacon the venue does not know is named by its identity text")
    func beaconIdentity() throws {
        let uuid = try #require(UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        let zone = Zone(id: "z", name: "Z", beacons: [ZoneBeacon(beacon: BeaconCondition(uuid: uuid, major: 1))])
        var engine = ZoneEngine(zones: [zone])
        let sighting = RangedBeacon(
            time: 3, device: "phone", source: .beacon(BeaconID(uuid: uuid, major: 1, minor: 7)), rssi: -60,
            distance: 1, proximity: .near)
        let events = engine.update(with: sighting)
        #expect(events.map(\.beacon) == ["E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/7"])
        #expect(events.map(\.proximity) == [.near])
        #expect(engine.openVisits.map(\.beacon) == ["E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/7"])
    }

    @Test("a geoline crossing is logged with its geoline")
    func geolineLogged() {
        let gate = Zone(
            id: "gate", name: "Gate", geolines: [ZoneGeoline(points: [Point2D(x: 0, y: -5), Point2D(x: 0, y: 5)])])
        var engine = ZoneEngine(zones: [gate])
        let events = engine.run([fix(0, x: -2), fix(1, x: 2)])
        #expect(events.map(\.geoline) == ["0"])
        #expect(engine.activity.visits.map(\.geoline) == ["0"])
    }
}

/// Only the beacons that admitted a device (came within their check-in proximity) hold its beacon presence.
@Suite("Zone engine: beacon exit rule")
struct ZoneBeaconExitRuleTests {
    let zone = Zone(
        id: "lounge", name: "Lounge", beacons: [ZoneBeacon(node: "A"), ZoneBeacon(node: "B")], exitDelay: 10)

    @Test("a faint other beacon of the zone does not hold the visit open nor inflate the dwell")
    func faintBeaconDoesNotHold() {
        var engine = ZoneEngine(zones: [zone])
        var events: [ZoneEvent] = []
        // A at near from 0 to 20 s, then silent; B heard at far from 0 to 80 s.
        for second in 0...80 {
            if second <= 20 { events += engine.update(with: ranging(Double(second), node: "A", .near)) }
            events += engine.update(with: ranging(Double(second), node: "B", .far))
        }
        events += engine.advance(to: 100)
        #expect(summary(events) == ["checkIn@0", "checkOut@30"])
        let checkOut = events.last
        #expect(checkOut?.departure == 20)
        #expect(checkOut.flatMap(\.dwell).map { abs($0 - 20) < 1e-9 } == true)
        #expect(checkOut?.beacon == "A")
        #expect(checkOut?.reason == .left)
        // B still heard faintly after the check-out: no new check-in.
        #expect(engine.run((81...90).map { ranging(Double($0), node: "B", .far) }).isEmpty)
    }

    @Test("another beacon that comes within its own check-in proximity joins and holds the visit")
    func secondBeaconJoins() {
        var engine = ZoneEngine(zones: [zone])
        var events = engine.run((0...20).map { ranging(Double($0), node: "A", .near) })
        // B near at 15 s: admitted; then heard at far until 60 s.
        events += engine.run([ranging(15, node: "B", .near)])
        events += engine.run((21...60).map { ranging(Double($0), node: "B", .far) })
        events += engine.advance(to: 100)
        #expect(summary(events) == ["checkIn@0", "checkOut@70"])
        #expect(events.last?.departure == 60)
        #expect(events.last?.beacon == "A")
    }

    @Test("the admitted set starts anew with each presence")
    func admittedSetResets() {
        var engine = ZoneEngine(zones: [zone])
        var events = engine.run([ranging(0, node: "B", .near), ranging(1, node: "A", .far)])
        events += engine.advance(to: 20)
        #expect(summary(events) == ["checkIn@0", "checkOut@10"])
        // A checks in anew; B, admitted in the last presence, is faint now and does not hold this one.
        events = engine.run([ranging(30, node: "A", .immediate), ranging(35, node: "B", .far)])
        events += engine.advance(to: 60)
        #expect(summary(events) == ["checkIn@30", "checkOut@40"])
        #expect(events.map(\.beacon) == ["A", "A"])
        #expect(events.first?.proximity == .immediate)
    }
}
