import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning
import IndoorSession
import Testing

/// What README.md and docs/SESSION.md promise an app about `LocationSession` and its runner, done with the public
/// API alone.
@Suite("App side: the session")
struct SessionPromisesTests {
    @Test("README, SESSION.md: a runner over the app's sightings streams fixes and zone events")
    func runnerStreamsFixesAndZoneEvents() async throws {
        let runner = LocationSessionRunner(try LocationSession(SessionConfiguration(venue: try AppSide.venue())))
        Task { try await runner.run(AppSide.stream(AppSide.walk)) }
        var fixes: [Fix] = []
        var zones: [ZoneEvent] = []
        for await event in runner.events {
            switch event {
            case .fix(let fix): fixes.append(fix)
            case .zone(let zone): zones.append(zone)
            default: break
            }
        }
        #expect(fixes.map(\.time) == [1, 10, 11, 20, 22])
        // At the one node heard (n1, at the anchor), within the default's tenth of a metre: 1e-5° is about a metre.
        #expect(abs((fixes.first?.coordinate?.latitude ?? 0) - 52.5) < 1e-5)
        #expect(zones.map(\.kind) == [.checkIn, .checkOut])
        #expect(zones.map(\.time) == [10, 22])
        #expect(zones.first?.zoneName == "East room")
    }

    @Test("SESSION.md: the pure session ingests, advances and answers statistics, visits, locate, readings, room")
    func thePureSessionAnswersWhatTheDocsList() throws {
        var session = try LocationSession(SessionConfiguration(venue: try AppSide.venue()))
        let events = session.ingest(Array(AppSide.walk.prefix(4)))
        #expect(events.contains { if case .zone(let zone) = $0 { zone.kind == .checkIn } else { false } })
        #expect(session.statistics.sightings == 4 && session.statistics.fixes == 3)
        #expect(session.openVisits.map(\.zone) == ["east"])
        #expect(session.readings(device: "p", at: 11).map(\.node.id) == ["n2"])
        let located = try session.locate(device: "p", at: 11).get()
        // At the one node heard (n2, x 20 m), within the default's tenth of a metre.
        #expect(abs(located.position.x - 20) < 0.25)
        #expect(session.room(of: "p") == .room(0))
        // Nothing more is heard: the device is lost 60 s after its last fix, at 71 s.
        let due = session.advance(to: 120)
        let checkOut = due.compactMap { if case .zone(let zone) = $0 { zone } else { nil } }
        #expect(checkOut.map(\.reason) == [.lost])
        #expect(session.activity.visits.count == 1)
        let drained = session.drainActivity()
        #expect(drained.map(\.dwell) == [1])
        #expect(session.activity.visits.isEmpty)
    }

    @Test("SESSION.md: the runner takes an injected clock and moves data time on while the input is quiet")
    func runnerMovesOnByAnInjectedClock() async throws {
        let clock = ManualClock()
        let runner = LocationSessionRunner(
            try LocationSession(SessionConfiguration(venue: try AppSide.venue())), clock: clock, tick: .seconds(1))
        let (input, feed) = AsyncStream.makeStream(of: Sighting.self)
        let running = Task { try await runner.run(input) }
        for sighting in AppSide.walk.prefix(4) { feed.yield(sighting) }
        var iterator = runner.events.makeAsyncIterator()
        while let event = await iterator.next() {
            if case .fix(let fix) = event, fix.time == 11 { break }
        }
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(61))
        let next = await iterator.next()
        guard case .zone(let checkOut) = next else {
            Issue.record("expected a check-out, got \(String(describing: next))")
            return
        }
        #expect(checkOut.kind == .checkOut && checkOut.reason == .lost && checkOut.time == 71)
        feed.finish()
        try await running.value
    }

    @Test("SESSION.md: bad settings throw SessionError, UnknownMethodError or MissingSurveyError")
    func badSettingsThrowTheDocumentedErrors() throws {
        let venue = try AppSide.venue()
        #expect(throws: SessionError.self) { try LocationSession(SessionConfiguration(venue: venue, fixInterval: -1)) }
        #expect(throws: UnknownMethodError.self) {
            try MethodCatalog.engine(method: "no-such-method", nodes: venue.nodes)
        }
        let knn = try #require(MethodCatalog.Selection("knn"))
        #expect(throws: MissingSurveyError.self) {
            try LocationSession(SessionConfiguration(venue: venue, method: knn))
        }
    }

    @Test("SESSION.md: every setting of the table is the app's to set")
    func everySettingIsSettable() throws {
        let venue = try AppSide.venue()
        let condition = BeaconCondition(uuid: AppSide.uuid)
        let configuration = SessionConfiguration(
            venue: venue, method: MethodCatalog.Selection(.weightedCentroid, tracking: true),
            fallback: FallbackPolicy(method: .weightedCentroid, codes: [NoFix.Code.tooFewNodes]), calibration: nil,
            survey: nil, positioning: PositioningEngine.Configuration(), fixInterval: 0, firstFixDelay: 0,
            ranger: SmoothingRanger(nodes: venue.nodes), monitoring: [condition], monitoringExitDelay: 5,
            peers: SessionConfiguration.PeerConfiguration(uuid: AppSide.uuid, timeout: 20))
        var session = try LocationSession(configuration)
        #expect(session.configuration.method.name == "weighted-centroid+track")
        #expect(session.configuration.fallback.codes == [.tooFewNodes])
        #expect(
            FallbackPolicy.none.method == nil && FallbackPolicy.weightedCentroid.codes == FallbackPolicy.defaultCodes)
        let events = session.ingest(Sighting(time: 0, device: "p", node: "n1", rssi: -59))
        #expect(events.contains { if case .fix = $0 { true } else { false } })  // fixInterval 0, no first-fix delay
    }

    @Test("SESSION.md: a running session adopts positioning learned apart; another venue's is refused")
    func adoptsPositioningLearnedApart() throws {
        let venue = try AppSide.venue()
        var session = try LocationSession(SessionConfiguration(venue: venue))
        _ = session.ingest(Array(AppSide.walk.prefix(4)))
        let learned = try LocationSession(
            SessionConfiguration(venue: venue, method: MethodCatalog.Selection(.weightedCentroid, tracking: true)))
        try session.adoptPositioning(of: learned, replaying: AppSide.walk.prefix(4))
        #expect(session.configuration.method.name == "weighted-centroid+track")
        #expect(session.openVisits.map(\.zone) == ["east"])  // zone visits carry on
        var other = venue
        other.id = "other"
        let elsewhere = try LocationSession(SessionConfiguration(venue: other))
        #expect(throws: SessionError.self) { try session.adoptPositioning(of: elsewhere, replaying: []) }
    }

    @Test("SESSION.md: monitoring runs one monitor per device and reports enter, ranged beacons and leave")
    func sessionMonitorsBeaconsPerDevice() throws {
        let venue = try AppSide.venue()
        var session = try LocationSession(
            SessionConfiguration(venue: venue, monitoring: [BeaconCondition(uuid: AppSide.uuid)]))
        let heard = Sighting(time: 1, device: "phone", source: .beacon(AppSide.beacon(2)), rssi: -60)
        var events = session.ingest(heard)
        events += session.advance(to: 30)
        let monitor: [MonitorEvent] = events.compactMap {
            if case .monitor(let event, let device) = $0, device == "phone" { event } else { nil }
        }
        #expect(monitor.count == 4)
        guard monitor.count == 4 else { return }
        #expect(monitor[0] == .didStartObserving(conditions: [BeaconCondition(uuid: AppSide.uuid)], time: 1))
        #expect(
            monitor[1]
                == .didEnterArea(condition: BeaconCondition(uuid: AppSide.uuid), beacon: AppSide.beacon(2), time: 1))
        if case .didFindBeacon(let found) = monitor[2] {
            #expect(found.beacon == AppSide.beacon(2))
        } else {
            Issue.record("expected didFindBeacon, got \(monitor[2])")
        }
        if case .didLeaveArea(let exit) = monitor[3] {
            #expect(exit.time == 11 && exit.lastHeard == 1)
        } else {
            Issue.record("expected didLeaveArea, got \(monitor[3])")
        }
    }

    @Test("GEOFENCING.md, SESSION.md: the app reports that the user revoked permission; monitoring stops so")
    func sessionReportsRevokedAuthorization() async throws {
        let venue = try AppSide.venue()
        let condition = BeaconCondition(uuid: AppSide.uuid)
        var session = try LocationSession(SessionConfiguration(venue: venue, monitoring: [condition]))
        _ = session.ingest(Sighting(time: 1, device: "phone", source: .beacon(AppSide.beacon(2)), rssi: -60))
        let stops = session.revokeAuthorization(at: 3)
        guard case .monitor(.didStopObserving(let stop), let device)? = stops.first, stops.count == 1 else {
            Issue.record("expected one stop, got \(stops)")
            return
        }
        #expect(device == "phone" && stop.reason == .authorizationRevoked && stop.time == 3)
        #expect(stop.conditions == [condition] && stop.beacons == [AppSide.beacon(2)])
        // Allowed again: the next beacon sighting starts monitoring afresh.
        let again = session.ingest(Sighting(time: 5, device: "phone", source: .beacon(AppSide.beacon(2)), rssi: -60))
        #expect(again.contains { if case .monitor(.didStartObserving, _) = $0 { true } else { false } })
        // The runner forwards it too.
        let runner = LocationSessionRunner(
            try LocationSession(SessionConfiguration(venue: venue, monitoring: [condition])))
        let (input, feed) = AsyncStream.makeStream(of: Sighting.self)
        let running = Task { try await runner.run(input) }
        feed.yield(Sighting(time: 1, device: "phone", source: .beacon(AppSide.beacon(2)), rssi: -60))
        var iterator = runner.events.makeAsyncIterator()
        while let event = await iterator.next() {
            if case .monitor(.didFindBeacon, _) = event { break }
        }
        await runner.revokeAuthorization(at: 2)
        feed.finish()
        try await running.value
        var reason: ObservationStop.Reason?
        while let event = await iterator.next() {
            if case .monitor(.didStopObserving(let stop), _) = event { reason = stop.reason }
        }
        #expect(reason == .authorizationRevoked)
    }

    @Test("GEOFENCING.md: a zone is disabled and enabled again at run time, without a new session")
    func zoneDisabledAndEnabledAtRunTime() throws {
        var session = try LocationSession(SessionConfiguration(venue: try AppSide.venue()))
        let disabled = session.setZone("east", enabled: false)
        let unknown = session.setZone("no-such-zone", enabled: false)
        #expect(disabled && !unknown)
        // Into the room while it is disabled: fixes go on, nobody checks in.
        let inside = session.ingest(Array(AppSide.walk.prefix(4)))
        #expect(inside.contains { if case .fix = $0 { true } else { false } })
        #expect(!inside.contains { if case .zone = $0 { true } else { false } })
        // Enabled again: no check-in at once, but at the next entry.
        session.setZone("east", enabled: true)
        let back = session.ingest([
            Sighting(time: 12, device: "p", node: "n2", rssi: -58),
            Sighting(time: 20, device: "p", node: "n1", rssi: -59),
            Sighting(time: 30, device: "p", node: "n2", rssi: -59),
        ])
        let zones = back.compactMap { if case .zone(let zone) = $0 { zone } else { nil } }
        #expect(zones.map(\.kind) == [.checkIn] && zones.first?.time == 30 && zones.first?.zoneEnabled == true)
    }

    @Test("SESSION.md, GEOFENCING.md: peers with the app's UUID: session data, ranging, leave")
    func sessionPeersJoinAreHeardAndLeave() async throws {
        let venue = try AppSide.venue()
        var session = try LocationSession(
            SessionConfiguration(
                venue: venue, peers: SessionConfiguration.PeerConfiguration(uuid: AppSide.uuid, timeout: 30)))
        let ana = PeerKey(major: 172, minor: 8376)
        var events = session.updatePeer(ana, displayName: "Ana", at: 1)
        events += session.ingest(
            Sighting(time: 2, device: "me", source: .beacon(AppSide.beacon(8376, major: 172)), rssi: -59))
        #expect(session.knownPeers.first?.displayName == "Ana")
        #expect(session.knownPeers.first?.distance != nil)
        events += session.peerLeft(ana, at: 3)
        let peers: [PeerEvent] = events.compactMap { if case .peer(let event, _) = $0 { event } else { nil } }
        #expect(peers.count == 3)
        if case .appeared(let peer)? = peers.first { #expect(peer.isSessionMember) } else { Issue.record("\(peers)") }
        if case .left(let peer)? = peers.last { #expect(peer.key == ana) } else { Issue.record("\(peers)") }
        #expect(session.knownPeers.isEmpty)
        // The runner's forwarders.
        let runner = LocationSessionRunner(
            try LocationSession(
                SessionConfiguration(venue: venue, peers: SessionConfiguration.PeerConfiguration(uuid: AppSide.uuid))))
        await runner.updatePeer(ana, displayName: "Ana", at: 1)
        await runner.peerLeft(ana, at: 2)
        try await runner.run(AppSide.stream([]))
        var kinds: [String] = []
        for await event in runner.events {
            if case .peer(let peer, _) = event {
                switch peer {
                case .appeared: kinds.append("appeared")
                case .left: kinds.append("left")
                default: kinds.append("other")
                }
            }
        }
        #expect(kinds == ["appeared", "left"])
    }

    @Test("GEOFENCING.md: dwell totals from the activity log an app keeps")
    func dwellTotalsFromTheActivityLog() throws {
        var session = try LocationSession(SessionConfiguration(venue: try AppSide.venue()))
        _ = session.ingest(AppSide.walk)
        _ = session.ingest([
            Sighting(time: 30, device: "p", node: "n2", rssi: -59),
            Sighting(time: 34, device: "p", node: "n2", rssi: -59),
            Sighting(time: 40, device: "p", node: "n1", rssi: -59),
            Sighting(time: 43, device: "p", node: "n1", rssi: -59),
        ])
        let log = session.activity
        #expect(log.visits(device: "p").compactMap(\.dwell) == [10, 10])
        #expect(log.totalDwell(device: "p", zone: "east") == 20)
        #expect(log.totalDwell(device: "someone-else", zone: "east") == 0)
        var kept = ActivityLog()
        for visit in session.drainActivity() { kept.append(visit) }
        #expect(kept.totalDwell(device: "p", zone: "east") == 20 && kept.visits(zone: "east").count == 2)
    }
}
