import Foundation
import IndoorModel
import Testing

@testable import IndoorGeofencing

@Suite("Zone engine: lost devices")
struct ZoneLostDeviceTests {
    /// The meeting-room circle with a given lost timeout.
    func room(lost: Double?, checkOutTime: Double = 5, dwell: Double? = nil, retrigger: Double = 0) -> Zone {
        var zone = circleZone(checkOutTime: checkOutTime, dwell: dwell, retrigger: retrigger)
        zone.lostTimeout = lost
        return zone
    }

    @Test("fixes that stop inside: the visit checks out as lost after the timeout, its dwell ending at the last fix")
    func lostAfterTimeout() {
        var engine = ZoneEngine(zones: [room(lost: 60)])
        let events = engine.run((0...10).map { fix(Double($0), x: 1) })
        #expect(summary(events) == ["checkIn@0"])
        #expect(engine.advance(to: 69.9).isEmpty)
        #expect(engine.openVisits.count == 1)
        let out = engine.advance(to: 70)
        #expect(summary(out) == ["checkOut@70"])
        #expect(out.first?.reason == .lost)
        #expect(out.first?.departure == 10)
        #expect(out.first?.dwell == 10)
        #expect(engine.openVisits.isEmpty)
        #expect(
            engine.activity.visits
                == [
                    ZoneVisit(
                        zone: "room", device: "phone", trigger: .fence, fence: "0", checkIn: 0, checkOut: 10,
                        reason: .lost)
                ])
    }

    @Test("the default timeout is 60 s; a late advance still dates the check-out at last fix + timeout")
    func defaultTimeoutAndLateAdvance() {
        #expect(circleZone().lostTimeout == 60)
        var engine = ZoneEngine(zones: [circleZone()])
        _ = engine.run([fix(0, x: 0), fix(4, x: 2)])
        let out = engine.advance(to: 500)
        #expect(summary(out) == ["checkOut@64"])
        #expect(out.first?.dwell == 4)
    }

    @Test("a nil or zero timeout turns the rule off: the visit stays open", arguments: [nil, 0.0] as [Double?])
    func ruleOff(lost: Double?) {
        var engine = ZoneEngine(zones: [room(lost: lost)])
        _ = engine.run([fix(0, x: 0), fix(10, x: 1)])
        #expect(engine.advance(to: 100_000).isEmpty)
        #expect(engine.openVisits.map(\.checkIn) == [0])
    }

    @Test("only the device's own fixes count; a normal exit keeps reason left")
    func perDeviceAndLeft() {
        var engine = ZoneEngine(zones: [room(lost: 30, checkOutTime: 2)])
        var events = engine.run([fix(0, x: 0, device: "a"), fix(0, x: 0, device: "b")])
        // b keeps reporting inside, then walks out; a is silent after t = 0.
        events += engine.run((1...40).map { fix(Double($0), x: $0 < 35 ? 1 : 20, device: "b") })
        #expect(
            events.map { "\($0.kind.rawValue)@\(Int($0.time)) \($0.device) \($0.reason?.rawValue ?? "-")" } == [
                "checkIn@0 a -", "checkIn@0 b -", "checkOut@30 a lost", "checkOut@37 b left",
            ])
        #expect(events[3].departure == 35)
    }

    @Test("outside but not yet for the check-out time when fixes stop: lost, departing at the first outside fix")
    func lostOnTheWayOut() {
        var engine = ZoneEngine(zones: [room(lost: 60, checkOutTime: 100)])
        _ = engine.run([fix(0, x: 0), fix(10, x: 20)])
        let out = engine.advance(to: 200)
        #expect(summary(out) == ["checkOut@70"])
        #expect(out.first?.reason == .lost)
        #expect(out.first?.departure == 10)
        // When both rules fall due together, the device left.
        var tie = ZoneEngine(zones: [room(lost: 60, checkOutTime: 60)])
        _ = tie.run([fix(0, x: 0), fix(10, x: 20)])
        #expect(tie.advance(to: 70).map(\.reason) == [.left])
    }

    @Test("with the rule on, a dwell event needs a fix that proves the stay")
    func dwellNeedsAFix() {
        var engine = ZoneEngine(zones: [room(lost: 60, dwell: 20)])
        var events = engine.run((0...10).map { fix(Double($0), x: 1) })
        events += engine.advance(to: 69)
        #expect(summary(events) == ["checkIn@0"])
        events = engine.advance(to: 70)
        #expect(summary(events) == ["checkOut@70"])
        #expect(events.first?.dwell == 10)
        // Inside again after the loss (a new visit); a fix at 100 proves the 20 s dwell of the visit from 75.
        events = engine.run([fix(75, x: 1), fix(90, x: 1), fix(100, x: 1)])
        #expect(summary(events) == ["checkIn@75", "dwell@95"])
    }

    @Test("a zone beacon still heard keeps the visit open; the check-out then comes by the exit delay")
    func beaconOutlivesLostFence() {
        var zone = room(lost: 60)
        zone.beacons = [ZoneBeacon(node: "b1")]
        zone.exitDelay = 10
        var engine = ZoneEngine(zones: [zone])
        var events = engine.update(with: fix(0, x: 0))
        events += engine.run((1...100).map { ranging(Double($0), node: "b1", .near) })
        #expect(summary(events) == ["checkIn@0"])
        events = engine.advance(to: 120)
        #expect(summary(events) == ["checkOut@110"])
        #expect(events.first?.reason == .left)
        #expect(events.first?.departure == 100)
    }

    @Test("the re-trigger window starts at the lost check-out")
    func retriggerFromLost() {
        var engine = ZoneEngine(zones: [room(lost: 60, checkOutTime: 0, retrigger: 30)])
        var events = engine.run([fix(0, x: 0)])
        // Back 25 s after the lost check-out: suppressed; 30 s after: a new visit.
        events += engine.run([fix(80, x: 0), fix(81, x: 20), fix(85, x: 0)])
        #expect(summary(events) == ["checkIn@0", "checkOut@60"])
        events = engine.run([fix(86, x: 20), fix(90, x: 0)])
        #expect(summary(events) == ["checkIn@90"])
    }
}
