import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorSession
import Testing

/// A session judges each sighting's time once, and positioning, zones and monitoring follow that judgement.
@Suite("LocationSession: one clock")
struct SessionClockTests {
    static func sighting(_ time: Double, _ device: String, _ minor: UInt16 = 1, rssi: Double = -59) -> Sighting {
        Sighting(
            time: time, device: device, source: .beacon(PipelineCasesTests.beacon(minor)), rssi: rssi)
    }

    static func session() throws -> LocationSession {
        try LocationSession(
            SessionConfiguration(
                venue: PipelineCasesTests.beaconVenue, fixInterval: 0, firstFixDelay: 0,
                monitoring: [BeaconCondition(uuid: PipelineCasesTests.uuid)]))
    }

    /// The devices each kind of event names.
    static func devices(_ events: [SessionEvent]) -> (fixes: Set<String>, zones: Set<String>, monitors: Set<String>) {
        var fixes: Set<String> = []
        var zones: Set<String> = []
        var monitors: Set<String> = []
        for event in events {
            switch event {
            case .fix(let fix): fixes.insert(fix.device)
            case .zone(let zone): zones.insert(zone.device)
            case .monitor(_, let device): monitors.insert(device)
            case .peer: break
            }
        }
        return (fixes, zones, monitors)
    }

    @Test func aLyingTimestampIsLeftOutByEveryPartAlike() throws {
        var session = try Self.session()
        // "p" beside beacon a: a fix, a check-in at the desk and the monitored region entered.
        var events = session.ingest((0..<5).map { Self.sighting(100 + Double($0) * 0.5, "p") })
        #expect(Self.devices(events) == (["p"], ["p"], ["p"]))
        // "liar" stamps its sightings two hours ahead: no part takes them (no fix, no zone, no monitor event),
        // each is counted once.
        events = session.ingest([Self.sighting(7300, "liar"), Self.sighting(7300.5, "liar")])
        #expect(events.isEmpty)
        #expect(session.statistics.clockOutliers == 2)
        #expect(session.readings(device: "liar", at: 7300.5).isEmpty)
        // "p" carries on in the present: the liar moved nothing (no check-out, no region left).
        events = session.ingest([Self.sighting(103, "p")])
        #expect(Self.devices(events).fixes == ["p"])
        #expect(!events.contains { if case .zone = $0 { true } else { false } })
        #expect(!events.contains { if case .monitor(.didLeaveArea, _) = $0 { true } else { false } })
        #expect(session.openVisits.map(\.device) == ["p"])
    }

    @Test func timeThatTwoDevicesAgreeMovedOnIsTakenByEveryPartAlike() throws {
        var session = try Self.session()
        _ = session.ingest((0..<5).map { Self.sighting(100 + Double($0) * 0.5, "p") })
        // Two devices agree that two hours have passed (the venue was quiet): the first is held back, the second
        // moves the present, and from then on both are located, check in and enter the region.
        #expect(session.ingest([Self.sighting(7300, "q")]).isEmpty)
        let events = session.ingest([
            Self.sighting(7300.2, "r"), Self.sighting(7300.4, "q"), Self.sighting(7300.6, "r"),
        ])
        let named = Self.devices(events)
        #expect(named.fixes == ["q", "r"])
        #expect(named.zones.isSuperset(of: ["q", "r"]))
        #expect(named.monitors.isSuperset(of: ["q", "r"]))
        #expect(session.statistics.clockOutliers == 1)
        // "p", last heard two hours before, is checked out of the desk (lost) by the move.
        let checkedOut = events.compactMap { event -> String? in
            guard case .zone(let zone) = event, zone.kind == .checkOut else { return nil }
            return zone.device
        }
        #expect(checkedOut == ["p"])
    }
}
