import Foundation
import IndoorModel
import Testing

@testable import IndoorGeofencing

/// A venue replaced while devices are inside its zones: ``ZoneEngine/carryVisits(from:)``.
@Suite("Replacing a venue carries the open visits over")
struct ZoneVisitCarryTests {
    /// An engine whose phone checked in to `room` at t = 0 and is still inside at t = 10.
    static func engineWithAnOpenVisit() -> ZoneEngine {
        var engine = ZoneEngine(zones: [circleZone()])
        let events = engine.run([fix(0, x: 0), fix(5, x: 1), fix(10, x: 0)])
        #expect(summary(events) == ["checkIn@0"])
        return engine
    }

    @Test("the same zones: the visit goes on, and leaving checks out once, with the first check-in")
    func sameZones() {
        let before = Self.engineWithAnOpenVisit()
        var after = ZoneEngine(zones: [circleZone()])
        #expect(after.carryVisits(from: before).isEmpty)
        #expect(after.openVisits == before.openVisits)
        #expect(after.clock.present == 10)
        // Inside again: no second check-in. Then confidently outside from t = 20: checked out 5 s later.
        var events = after.run([fix(15, x: 0), fix(20, x: 9), fix(25, x: 9)])
        events += after.advance(to: 30)
        #expect(summary(events) == ["checkOut@25"])
        #expect(events.first?.checkIn == 0)
        #expect(events.first?.departure == 20)
        #expect(events.first?.reason == .left)
        #expect(after.openVisits.isEmpty)
    }

    @Test("a changed zone of the same id keeps the visit under its new rules")
    func changedZoneOfTheSameID() {
        let before = Self.engineWithAnOpenVisit()
        var after = ZoneEngine(zones: [circleZone(checkOutTime: 2)])
        #expect(after.carryVisits(from: before).isEmpty)
        #expect(after.openVisits.count == 1)
        let events = after.run([fix(20, x: 9), fix(21, x: 9), fix(22, x: 9)])
        #expect(summary(events) == ["checkOut@22"])
    }

    @Test("a zone that is gone: its visit is checked out at once, reason zoneRemoved")
    func removedZone() {
        let before = Self.engineWithAnOpenVisit()
        var other = circleZone()
        other.id = "hall"
        var after = ZoneEngine(zones: [other])
        let closed = after.carryVisits(from: before)
        #expect(summary(closed) == ["checkOut@10"])
        #expect(closed.first?.zone == "room")
        #expect(closed.first?.reason == .zoneRemoved)
        #expect(closed.first?.checkIn == 0)
        #expect(closed.first?.departure == 10)
        #expect(closed.first?.dwell == 10)
        #expect(after.openVisits.isEmpty)
        #expect(after.activity.visits.last?.reason == .zoneRemoved)
        // The phone is inside the new zone: it checks in there with its next fix.
        #expect(summary(after.run([fix(11, x: 0)])) == ["checkIn@11"])
    }
}
