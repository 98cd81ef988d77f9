import IndoorModel
import Testing

@testable import IndoorGeofencing

/// Edge cases: inputs that arrive late (a device's fix older than its last one) or broken (NaN, infinities),
/// and rules at the corners (re-enabled zones, dwell without check-out, geolines inside fences).
struct ZoneEdgeCaseTests {
    @Test("fixes with a NaN or infinite time or position are ignored, also as the start of a geoline move")
    func nonFiniteFixes() {
        let gate = Zone(
            id: "gate", name: "Gate",
            geolines: [ZoneGeoline(points: [Point2D(x: 0, y: -5), Point2D(x: 0, y: 5)])])
        var engine = ZoneEngine(zones: [circleZone(), gate])
        var events = engine.run([
            fix(.nan, x: 0), fix(.infinity, x: 0), fix(1, x: .nan), fix(2, x: 0, y: .infinity), fix(3, x: -20),
            fix(4, x: .nan), fix(5, x: -19),
        ])
        #expect(events.isEmpty)
        // The move from -19 (t = 5) to 1 (t = 6) crosses the gate and enters the room.
        events = engine.update(with: fix(6, x: 1))
        #expect(
            events.map { "\($0.kind.rawValue) \($0.zone)@\(Int($0.time))" } == ["checkIn room@6", "checkIn gate@6"])
    }

    @Test("a device that entered while the zone was disabled checks in at its next entry after re-enabling")
    func reEnabledZoneNeedsANewEntry() {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 5)])
        engine.setEnabled(false, zone: "room")
        var events = engine.run([fix(0, x: 0)])
        let enabled = engine.setEnabled(true, zone: "room")
        #expect(enabled)
        events += engine.run([fix(6, x: 0), fix(10, x: 1), fix(20, x: 30), fix(25, x: 30), fix(30, x: 0)])
        #expect(summary(events) == ["checkIn@30"])
        #expect(events.first?.zoneEnabled == true)
        let unknown = engine.setEnabled(true, zone: "no-such-zone")
        #expect(!unknown)
    }

    @Test(
        "crossing the zone's own geoline while inside its fence is no second check-in; outside it is",
        arguments: [true, false])
    func geolineInsideFence(checkOut: Bool) {
        let zone = Zone(
            id: "room", name: "Room", fences: [.circle(center: Point2D(x: 0, y: 0), radius: 5)],
            geolines: [ZoneGeoline(points: [Point2D(x: 0, y: -10), Point2D(x: 0, y: 10)])], checkOutEnabled: checkOut)
        var engine = ZoneEngine(zones: [zone])
        // In at 0, across the line inside the fence at 1 and 2, out (confidently) from 3; the crossing at 3 is
        // from inside (not yet out for the check-out time) and the one at 12 is after leaving.
        var events = engine.run([
            fix(0, x: -2), fix(1, x: 2), fix(2, x: -2), fix(3, x: 20), fix(9, x: 20), fix(12, x: -20, y: 8),
        ])
        events += engine.advance(to: 100)
        let described = events.map { "\($0.kind.rawValue)@\(Int($0.time)) \($0.trigger.rawValue)" }
        #expect(
            described
                == (checkOut
                    ? ["checkIn@0 fence", "checkOut@8 fence", "checkIn@12 geoline"]
                    : ["checkIn@0 fence", "checkIn@12 geoline"]))
    }

    @Test("without check-out, a dwell threshold fires nothing: a visit has no length")
    func dwellWithoutCheckOut() {
        var engine = ZoneEngine(zones: [circleZone(checkOut: false, dwell: 10)])
        var events = engine.run([fix(0, x: 0), fix(15, x: 0), fix(30, x: 0)])
        events += engine.advance(to: 100)
        #expect(summary(events) == ["checkIn@0"])
        #expect(events.first?.willCheckOut == false)
    }

    @Test("a NaN accuracy is never confidently outside: only the lost rule ends such a visit")
    func nanAccuracy() {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 5)])
        var events = engine.run([
            fix(0, x: 0, accuracy: .nan), fix(1, x: 30, accuracy: .nan), fix(10, x: 30, accuracy: .nan),
        ])
        #expect(summary(events) == ["checkIn@0"])
        // A negative accuracy counts as 0 m: 30 m out is confidently outside.
        events = engine.run([fix(11, x: 30, accuracy: -4), fix(16, x: 30, accuracy: -4)])
        #expect(summary(events) == ["checkOut@16"])
        #expect(events.first?.dwell == 11)
    }

    @Test("a late confidently-outside fix never checks a device out early, nor before its check-in")
    func lateOutsideFixIsIgnored() {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 5)])
        // Inside at 10, 11, 12; then a fix from t = 2, 20 m away, arrives late.
        var events = engine.run([fix(10, x: 0), fix(11, x: 1), fix(12, x: 0), fix(2, x: 20)])
        // Another device's input moves time on to 13: nothing is due for "phone".
        events += engine.update(with: fix(13, x: 50, device: "other"))
        events += engine.advance(to: 16)
        #expect(summary(events) == ["checkIn@10"])
        #expect(engine.openVisits.map(\.checkIn) == [10])
        // Leaving for real still checks out, with the dwell measured from the in-order fixes.
        events = engine.run([fix(20, x: 20), fix(26, x: 20)])
        #expect(summary(events) == ["checkOut@25"])
        #expect(events.first?.dwell == 10)
    }

    @Test("a late fix inside does not check in at a time before the device's last fix")
    func lateInsideFixIsIgnored() {
        var engine = ZoneEngine(zones: [circleZone()])
        let events = engine.run([fix(10, x: 20), fix(11, x: 20), fix(4, x: 0)])
        #expect(events.isEmpty)
        #expect(engine.openVisits.isEmpty)
    }

    @Test("a late fix never makes a device lost early")
    func lateFixDoesNotShortenLostTimeout() {
        var engine = ZoneEngine(zones: [circleZone()])  // lostTimeout 60 s
        var events = engine.run([fix(10, x: 0), fix(50, x: 0), fix(5, x: 0)])
        events += engine.advance(to: 100)
        #expect(summary(events) == ["checkIn@10"])
        events = engine.advance(to: 110)
        #expect(summary(events) == ["checkOut@110"])
        #expect(events.first?.reason == .lost)
        #expect(events.first?.dwell == 40)
    }

    @Test("a late geoline move is no crossing")
    func lateGeolineMove() {
        let gate = Zone(
            id: "gate", name: "Gate",
            geolines: [ZoneGeoline(points: [Point2D(x: 0, y: -5), Point2D(x: 0, y: 5)])])
        var engine = ZoneEngine(zones: [gate])
        let events = engine.run([fix(10, x: -2), fix(11, x: -1), fix(3, x: 2)])
        #expect(events.isEmpty)
    }

    @Test("late beacon sightings never shorten the exit delay nor give a negative dwell")
    func lateBeaconSighting() {
        let zone = Zone(id: "desk", name: "Desk", beacons: [ZoneBeacon(node: "b1")], exitDelay: 10)
        var engine = ZoneEngine(zones: [zone])
        var events = engine.run([
            ranging(20, node: "b1", .near), ranging(25, node: "b1", .far), ranging(3, node: "b1", .near),
        ])
        events += engine.advance(to: 34)
        #expect(summary(events) == ["checkIn@20"])
        events = engine.advance(to: 35)
        #expect(summary(events) == ["checkOut@35"])
        #expect(events.first?.dwell == 5)
    }
}
