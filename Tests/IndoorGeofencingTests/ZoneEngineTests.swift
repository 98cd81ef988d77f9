import Foundation
import IndoorModel
import Testing

@testable import IndoorGeofencing

@Suite("Zone engine: fences")
struct ZoneFenceEngineTests {
    @Test("jitter at the boundary never checks out; a confident exit does, after the check-out time")
    func boundaryJitterDoesNotFlap() {
        var engine = ZoneEngine(zones: [circleZone()])
        var fixes = [fix(0, x: 0)]
        // 60 s of fixes wandering across the 5 m boundary: 3.6 m … 6.4 m from the centre. With a 1 m margin
        // and 1 m accuracy a fix must be beyond 7 m to count as outside.
        for second in 1...59 {
            fixes.append(fix(Double(second), x: 5 + 1.4 * sin(Double(second) * 1.3)))
        }
        // Then confidently outside from t = 60.
        for second in 60...70 {
            fixes.append(fix(Double(second), x: 9))
        }
        let events = engine.run(fixes)
        #expect(summary(events) == ["checkIn@0", "checkOut@65"])
        let checkOut = events[1]
        #expect(checkOut.departure == 60)
        #expect(checkOut.dwell == 60)
        #expect(checkOut.checkIn == 0)
        #expect(checkOut.trigger == .fence)
    }

    @Test("a short excursion outside (less than the check-out time) does not check out")
    func shortExcursion() {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 5)])
        let events = engine.run([
            fix(0, x: 0), fix(1, x: 9), fix(2, x: 9), fix(3, x: 9), fix(4, x: 9), fix(5, x: 2), fix(12, x: 2),
        ])
        #expect(summary(events) == ["checkIn@0"])
        #expect(engine.openVisits.count == 1)
    }

    @Test("a poor accuracy radius widens the margin: a fix 3 m out with 4 m accuracy is not confidently outside")
    func accuracyWidensMargin() {
        var engine = ZoneEngine(zones: [circleZone(margin: 1, checkOutTime: 2)])
        var events = engine.run([
            fix(0, x: 0), fix(1, x: 8, accuracy: 4), fix(2, x: 8, accuracy: 4), fix(5, x: 8, accuracy: 4),
        ])
        #expect(summary(events) == ["checkIn@0"])
        events = engine.run([fix(6, x: 8, accuracy: 1), fix(7, x: 8, accuracy: 1), fix(8, x: 8, accuracy: 1)])
        #expect(summary(events) == ["checkOut@8"])
    }

    @Test("check-out is decided by advance(to:) when fixes stop outside")
    func checkOutByAdvance() {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 5)])
        _ = engine.run([fix(0, x: 0), fix(10, x: 12)])
        #expect(engine.advance(to: 14.9).isEmpty)
        let events = engine.advance(to: 15)
        #expect(summary(events) == ["checkOut@15"])
        #expect(events.first?.dwell == 10)
    }

    @Test("a fix on another floor is outside the fence")
    func otherFloor() {
        let zone = Zone(
            id: "z", name: "Z",
            fences: [.polygon(.rectangle(from: Point2D(x: 0, y: 0), to: Point2D(x: 10, y: 10)), floor: 1)],
            checkOutTime: 0)
        var engine = ZoneEngine(zones: [zone])
        #expect(engine.run([fix(0, x: 5, y: 5, floor: 0)]).isEmpty)
        let events = engine.run([fix(1, x: 5, y: 5, floor: 1), fix(2, x: 5, y: 5, floor: 2)])
        #expect(summary(events) == ["checkIn@1", "checkOut@2"])
    }

    @Test("each device has its own visit")
    func devicesAreIndependent() {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 0)])
        let events = engine.run([
            fix(0, x: 0, device: "a"), fix(1, x: 0, device: "b"), fix(2, x: 20, device: "a"),
        ])
        #expect(events.map { "\($0.kind.rawValue) \($0.device)" } == ["checkIn a", "checkIn b", "checkOut a"])
        #expect(engine.openVisits.map(\.device) == ["b"])
    }

    @Test("custom data and willCheckOut come with the events")
    func customData() {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 0, dwell: 1)])
        let events = engine.run([fix(0, x: 0), fix(2, x: 20)])
        #expect(summary(events) == ["checkIn@0", "dwell@1", "checkOut@2"])
        #expect(events.allSatisfy { $0.data == ["owner": "facilities"] && $0.zoneName == "Meeting room" })
        #expect(events[0].willCheckOut == true)
        #expect(events[1].willCheckOut == nil)
    }
}

@Suite("Zone engine: re-trigger, dwell, disabled zones")
struct ZoneRulesTests {
    @Test("with check-out, the re-trigger window starts at check-out")
    func retriggerFromCheckOut() {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 5, retrigger: 30)])
        var events = engine.run([fix(0, x: 0), fix(10, x: 20), fix(15, x: 20)])
        #expect(summary(events) == ["checkIn@0", "checkOut@15"])
        // 35 s after the check-in but only 20 s after the check-out: suppressed.
        events = engine.run([fix(35, x: 0), fix(40, x: 20), fix(45, x: 20)])
        #expect(events.isEmpty)
        // 35 s after the check-out: a new visit.
        events = engine.run([fix(50, x: 0)])
        #expect(summary(events) == ["checkIn@50"])
        #expect(engine.activity.visits.count == 1)
    }

    @Test("the re-trigger window is per device")
    func retriggerPerDevice() {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 0, retrigger: 60)])
        let events = engine.run([
            fix(0, x: 0, device: "a"), fix(1, x: 20, device: "a"), fix(2, x: 0, device: "a"), fix(3, x: 0, device: "b"),
        ])
        #expect(events.map { "\($0.kind.rawValue) \($0.device)" } == ["checkIn a", "checkOut a", "checkIn b"])
    }

    @Test("without check-out, the re-trigger window starts at check-in and no check-out ever comes")
    func retriggerFromCheckIn() {
        var engine = ZoneEngine(zones: [circleZone(checkOut: false, checkOutTime: 2, retrigger: 30)])
        var events = engine.run([fix(0, x: 0), fix(5, x: 20), fix(8, x: 20)])
        #expect(summary(events) == ["checkIn@0"])
        #expect(events[0].willCheckOut == false)
        // Re-entry 20 s after the check-in: suppressed.
        events = engine.run([fix(20, x: 0), fix(22, x: 20), fix(25, x: 20)])
        #expect(events.isEmpty)
        // Re-entry 40 s after the check-in: a new check-in.
        events = engine.run([fix(40, x: 0)])
        #expect(summary(events) == ["checkIn@40"])
        #expect(engine.advance(to: 1000).isEmpty)
        #expect(engine.activity.visits.map(\.checkIn) == [0, 40])
        #expect(engine.activity.visits.allSatisfy { $0.checkOut == nil && $0.dwell == nil })
    }

    @Test("staying in the zone never checks in twice")
    func noSecondCheckInWhileInside() {
        var engine = ZoneEngine(zones: [circleZone(checkOut: false)])
        let events = engine.run((0..<20).map { fix(Double($0), x: Double($0 % 3)) })
        #expect(summary(events) == ["checkIn@0"])
    }

    @Test(
        "dwell: a check-out carries departure − check-in; the dwell event fires once, at check-in + threshold",
        arguments: [
            // (stay in seconds, threshold, dwell event expected)
            (31.0, 20.0, true), (19.0, 20.0, false), (20.0, 20.0, true),
        ])
    func dwellArithmetic(stay: Double, threshold: Double, expectDwell: Bool) {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 5, dwell: threshold)])
        var fixes: [Fix] = []
        var t = 100.0
        while t <= 100 + stay - 1 {
            fixes.append(fix(t, x: 1))
            t += 1
        }
        for outside in 0...6 {
            fixes.append(fix(100 + stay + Double(outside), x: 12))
        }
        let events = engine.run(fixes)
        let dwells = events.filter { $0.kind == .dwell }
        #expect(dwells.count == (expectDwell ? 1 : 0))
        if let dwell = dwells.first {
            #expect(dwell.time == 100 + threshold)
            #expect(dwell.dwell == threshold)
        }
        let checkOut = events.first { $0.kind == .checkOut }
        #expect(checkOut?.time == 100 + stay + 5)
        #expect(checkOut?.departure == 100 + stay)
        #expect(checkOut.flatMap(\.dwell).map { abs($0 - stay) < 1e-9 } == true)
        #expect(
            engine.activity.visits == [
                ZoneVisit(
                    zone: "room", device: "phone", trigger: .fence, fence: "0", checkIn: 100, checkOut: 100 + stay,
                    reason: .left)
            ])
        #expect(engine.activity.totalDwell(device: "phone", zone: "room") == stay)
    }

    @Test("a disabled zone checks no one in")
    func disabledZoneChecksNoOneIn() {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 0, enabled: false)])
        #expect(engine.run([fix(0, x: 0), fix(1, x: 20), fix(2, x: 0)]).isEmpty)
        #expect(engine.activity.visits.isEmpty)
    }

    @Test("disabling a zone with an open visit: the visit still checks out, and the event says disabled")
    func disabledZoneStillChecksOut() {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 0)])
        let checkIn = engine.run([fix(0, x: 0)])
        #expect(checkIn.first?.zoneEnabled == true)
        let found = engine.setEnabled(false, zone: "room")
        let missing = engine.setEnabled(false, zone: "nowhere")
        #expect(found)
        #expect(!missing)
        let events = engine.run([fix(10, x: 20), fix(11, x: 0)])
        #expect(summary(events) == ["checkOut@10"])
        #expect(events.first?.zoneEnabled == false)
        #expect(events.first?.dwell == 10)
        // Enabled again: the device is inside but has not entered anew; leaving and entering checks in.
        engine.setEnabled(true, zone: "room")
        let again = engine.run([fix(12, x: 0), fix(13, x: 20), fix(14, x: 0)])
        #expect(summary(again) == ["checkIn@14"])
    }
}

@Suite("Zone engine: geolines")
struct ZoneGeolineTests {
    /// A gate along the y axis from (0, −5) to (0, 5): its left-hand side is x < 0.
    let gate = Zone(
        id: "gate", name: "Gate",
        geolines: [ZoneGeoline(id: "main", points: [Point2D(x: 0, y: -5), Point2D(x: 0, y: 5)])],
        data: ["kind": "gate"])

    @Test("crossing direction is reported; a geoline never checks out")
    func crossingDirection() {
        var engine = ZoneEngine(zones: [gate])
        let events = engine.run([fix(0, x: -2), fix(1, x: 2), fix(2, x: 3), fix(3, x: -1)])
        #expect(summary(events) == ["checkIn@1", "checkIn@3"])
        #expect(events.map(\.direction) == [.leftToRight, .rightToLeft])
        #expect(events.allSatisfy { $0.trigger == .geoline && $0.geoline == "main" && $0.willCheckOut == false })
        #expect(events.allSatisfy { $0.data == ["kind": "gate"] })
        #expect(engine.advance(to: 10_000).isEmpty)
        #expect(engine.openVisits.isEmpty)
        #expect(engine.activity.visits.count == 2)
        #expect(engine.activity.visits.allSatisfy { $0.checkOut == nil })
    }

    @Test("a move that crosses the line's extension, not the line, is no crossing")
    func extensionIsNoCrossing() {
        var engine = ZoneEngine(zones: [gate])
        #expect(engine.run([fix(0, x: -2, y: 8), fix(1, x: 2, y: 8)]).isEmpty)
    }

    @Test("stopping exactly on the line and going on crosses once")
    func stopOnTheLine() {
        var engine = ZoneEngine(zones: [gate])
        let events = engine.run([fix(0, x: 2), fix(1, x: 0), fix(2, x: -2)])
        #expect(events.map(\.direction) == [.rightToLeft])
    }

    @Test("the re-trigger time suppresses a quick re-crossing")
    func geolineRetrigger() {
        var zone = gate
        zone.retriggerTime = 10
        var engine = ZoneEngine(zones: [zone])
        let events = engine.run([fix(0, x: -2), fix(1, x: 2), fix(2, x: -2), fix(12, x: 2)])
        #expect(summary(events) == ["checkIn@1", "checkIn@12"])
    }

    @Test("a polyline gate, crossed on its second piece")
    func polyline() {
        let line = ZoneGeoline(points: [Point2D(x: 0, y: 0), Point2D(x: 10, y: 0), Point2D(x: 10, y: 10)])
        #expect(line.crossing(from: Point2D(x: 12, y: 5), to: Point2D(x: 8, y: 5)) == .rightToLeft)
        #expect(line.crossing(from: Point2D(x: 5, y: 1), to: Point2D(x: 5, y: -1)) == .leftToRight)
        #expect(line.crossing(from: Point2D(x: 5, y: 1), to: Point2D(x: 6, y: 2)) == nil)
    }
}

@Suite("Zone engine: beacons")
struct ZoneBeaconEngineTests {
    let zone = Zone(
        id: "desk", name: "Desk", beacons: [ZoneBeacon(node: "b1", checkIn: .near)], exitDelay: 10,
        data: ["desk": "12"])

    @Test("missed packets never check out; silence for the exit delay does; far sightings keep the visit")
    func beaconExitWithMissedPackets() {
        var engine = ZoneEngine(zones: [zone])
        // Far only: not close enough to check in.
        #expect(engine.run([ranging(0, node: "b1", .far), ranging(1, node: "b1", .unknown)]).isEmpty)
        var heard: [RangedBeacon] = []
        for second in 2...20 where ![5, 12, 13, 14].contains(second) {
            heard.append(ranging(Double(second), node: "b1", .near))
        }
        // Walking away: far, then unknown proximity — still heard.
        for second in 21...30 {
            heard.append(ranging(Double(second), node: "b1", second < 26 ? .far : .unknown))
        }
        let events = engine.run(heard)
        #expect(summary(events) == ["checkIn@2"])
        #expect(events.first?.trigger == .beacon)
        #expect(events.first?.willCheckOut == true)
        #expect(engine.advance(to: 39.9).isEmpty)
        let out = engine.advance(to: 40)
        #expect(summary(out) == ["checkOut@40"])
        #expect(out.first?.departure == 30)
        #expect(out.first?.dwell == 28)
        #expect(out.first?.data == ["desk": "12"])
    }

    @Test("a beacon visit that ends before the dwell threshold fires no dwell event, however late the exit is noticed")
    func beaconDwellNeedsEvidence() {
        var zone = zone
        zone.dwellThreshold = 20
        var engine = ZoneEngine(zones: [zone])
        var events = engine.run((100...118).map { ranging(Double($0), node: "b1", .near) })
        events += engine.advance(to: 125)
        events += engine.advance(to: 130)
        #expect(summary(events) == ["checkIn@100", "checkOut@128"])
        #expect(events.last?.dwell == 18)
        // Heard past the threshold: the dwell event comes with the sighting that proves it.
        events = engine.run((200...225).map { ranging(Double($0), node: "b1", .near) })
        #expect(summary(events) == ["checkIn@200", "dwell@220"])
    }

    @Test("check-in proximity: immediate-only beacons ignore near")
    func checkInProximity() {
        let zone = Zone(id: "till", name: "Till", beacons: [ZoneBeacon(node: "b1", checkIn: .immediate)])
        var engine = ZoneEngine(zones: [zone])
        #expect(engine.run([ranging(0, node: "b1", .near), ranging(1, node: "b1", .near)]).isEmpty)
        #expect(summary(engine.run([ranging(2, node: "b1", .immediate)])) == ["checkIn@2"])
    }

    @Test("a zone beacon given by identity matches sightings of the node that advertises it")
    func identityMatchesNode() throws {
        let uuid = try #require(UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        let node = Node(id: "b1", beacon: BeaconID(uuid: uuid, major: 1, minor: 7), position: Point3D(x: 0, y: 0, z: 0))
        let zone = Zone(id: "z", name: "Z", beacons: [ZoneBeacon(beacon: BeaconCondition(uuid: uuid, major: 1))])
        var engine = ZoneEngine(zones: [zone], nodes: [node])
        #expect(summary(engine.run([ranging(0, node: "b1", .near)])) == ["checkIn@0"])
        #expect(engine.run([ranging(1, node: "b2", .near)]).isEmpty)
    }

    @Test("fence and beacon together: the visit ends only when both have ended")
    func fenceAndBeacon() {
        var zone = circleZone(checkOutTime: 2)
        zone.beacons = [ZoneBeacon(node: "b1")]
        zone.exitDelay = 10
        var engine = ZoneEngine(zones: [zone])
        var events = engine.update(with: fix(0, x: 0))
        events += engine.update(with: ranging(1, node: "b1", .near))
        events += engine.run([fix(3, x: 20), fix(4, x: 20), fix(5, x: 20)])
        #expect(summary(events) == ["checkIn@0"])
        events = engine.advance(to: 11)
        #expect(summary(events) == ["checkOut@11"])
        #expect(events.first?.departure == 3)
    }
}
