import Foundation
import IndoorModel
import Testing

@testable import IndoorGeofencing

/// An engine rebuilt by replaying recent inputs takes the store's open visits: ``ZoneEngine/resumeVisits(_:lastSeen:)``.
@Suite("Resuming the stored open visits after a restart")
struct ZoneVisitResumeTests {
    /// The store's open visit of the phone in `room`, checked in at `checkIn` seconds.
    static func stored(checkIn: Double, trigger: ZoneEvent.Trigger = .fence, beacon: String? = nil) -> ZoneVisit {
        ZoneVisit(zone: "room", device: "phone", trigger: trigger, beacon: beacon, checkIn: checkIn)
    }

    @Test("a visit the replay opened that the store closed is dropped, and its presence ending checks nothing out")
    func replayedVisitTheStoreClosed() {
        var engine = ZoneEngine(zones: [circleZone()])
        #expect(summary(engine.run([fix(100, x: 0), fix(101, x: 1)])) == ["checkIn@100"])
        engine.resumeVisits([])
        #expect(engine.openVisits.isEmpty)
        // Lost 60 s after its last fix: no check-out, since no visit is open. A new entry later checks in as usual.
        #expect(engine.advance(to: 200).isEmpty)
        #expect(summary(engine.run([fix(300, x: 0)])) == ["checkIn@300"])
    }

    @Test("a stored visit the replay also opened keeps the replay's presence and takes the stored check-in")
    func storedAndReplayed() {
        var engine = ZoneEngine(zones: [circleZone()])
        _ = engine.run([fix(100, x: 0), fix(101, x: 1)])
        engine.resumeVisits([Self.stored(checkIn: 40)])
        #expect(engine.openVisits == [Self.stored(checkIn: 40)])
        let events = engine.run([fix(102, x: 0), fix(110, x: 9), fix(116, x: 9)])
        #expect(summary(events) == ["checkOut@115"])
        #expect(events.first?.checkIn == 40)
        #expect(events.first?.departure == 110)
        #expect(events.first?.dwell == 70)
    }

    @Test("a stored visit the replay did not see is lost after the zone's timeout from when the device was last seen")
    func storedNotReplayed() {
        var engine = ZoneEngine(zones: [circleZone()])
        engine.resumeVisits([Self.stored(checkIn: 40)], lastSeen: ["phone": 95])
        #expect(engine.openVisits.count == 1)
        #expect(engine.advance(to: 154).isEmpty)
        let events = engine.advance(to: 156)
        #expect(summary(events) == ["checkOut@155"])
        #expect(events.first?.reason == .lost)
        #expect(events.first?.departure == 95)
        // Seen inside again before that: it stays, with no second check-in.
        var again = ZoneEngine(zones: [circleZone()])
        again.resumeVisits([Self.stored(checkIn: 40)], lastSeen: ["phone": 95])
        #expect(again.run([fix(120, x: 1)]).isEmpty)
        #expect(again.openVisits.first?.checkIn == 40)
    }

    @Test("a stored visit whose device the replay saw outside checks out as left")
    func storedSeenOutside() {
        var engine = ZoneEngine(zones: [circleZone()])
        _ = engine.run([fix(100, x: 20)])
        engine.resumeVisits([Self.stored(checkIn: 40)], lastSeen: ["phone": 100])
        let events = engine.advance(to: 106)
        #expect(summary(events) == ["checkOut@105"])
        #expect(events.first?.reason == .left)
        #expect(events.first?.departure == 100)
    }

    @Test("a stored beacon visit ends once its beacon has not been heard for the exit delay")
    func storedBeaconVisit() {
        var zone = circleZone()
        zone.fences = []
        zone.beacons = [ZoneBeacon(node: "desk", checkIn: .near)]
        zone.exitDelay = 10
        var engine = ZoneEngine(zones: [zone])
        engine.resumeVisits(
            [Self.stored(checkIn: 40, trigger: .beacon, beacon: "desk")], lastSeen: ["phone": 90])
        #expect(engine.run([ranging(95, node: "desk", .far)]).isEmpty)
        let events = engine.advance(to: 106)
        #expect(summary(events) == ["checkOut@105"])
        #expect(events.first?.departure == 95)
    }

    @Test("visits of unknown zones, closed visits and geoline crossings are not resumed")
    func ignored() {
        var engine = ZoneEngine(zones: [circleZone()])
        var other = Self.stored(checkIn: 1)
        other.zone = "hall"
        var closed = Self.stored(checkIn: 1)
        closed.checkOut = 2
        engine.resumeVisits([other, closed, Self.stored(checkIn: 1, trigger: .geoline)])
        #expect(engine.openVisits.isEmpty)
    }
}
