import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorRanging
import IndoorSession
import Synchronization
import Testing

/// What docs/GEOFENCING.md promises an app about monitoring, the observer, zones, rooms and peers, done with the
/// public API alone: the app ranges with its own radio code and feeds what it measured.
@Suite("App side: geofencing")
struct GeofencingPromisesTests {
    static let condition = BeaconCondition(uuid: AppSide.uuid, major: 1)

    /// A ranging update the app made with its own scanner.
    static func ranged(
        _ minor: UInt16, at time: Double, device: String = "me", meters: Double = 1, proximity: Proximity = .near
    ) -> RangedBeacon {
        RangedBeacon(
            time: time, device: device, source: .beacon(AppSide.beacon(minor)), rssi: -60, distance: meters,
            proximity: proximity)
    }

    /// A fix the app made or received.
    static func fix(_ device: String, x: Double, y: Double, at time: Double) -> Fix {
        Fix(
            time: time, device: device, position: Point3D(x: x, y: y, z: 0), accuracy: 1, confidence: 0.5,
            method: "app")
    }

    /// The pharmacy of GEOFENCING.md: a fence and a beacon (node b3) that checks in at `immediate`.
    static func pharmacy() throws -> Venue {
        try Venue.decodeJSON(
            Data(
                """
                {"id": "clinic", "name": "Clinic",
                 "nodes": [{"id": "b3", "beacon": "\(AppSide.uuidText)/1/3", "x": 25, "y": 5}],
                 "zones": [{"id": "pharmacy", "name": "Pharmacy",
                            "fences": [{"polygon": [[20, 0], [30, 0], [30, 10], [20, 10]]}],
                            "beacons": [{"beacon": "\(AppSide.uuidText)/1/3", "checkIn": "immediate"}],
                            "checkOutTime": 5, "exitDelay": 10}]}
                """.utf8))
    }

    @Test("GEOFENCING.md: a monitor with the default ranger enters, ranges and leaves a region")
    func monitorWithTheDefaultRanger() throws {
        var monitor = BeaconMonitor(exitDelay: 10)
        let condition = try BeaconCondition(parsing: "\(AppSide.uuidText)/1")
        let started = try monitor.start([condition], at: 0)
        #expect(started == [.didStartObserving(conditions: [condition], time: 0)])
        let events = monitor.ingest(Sighting(time: 1, device: "me", source: .beacon(AppSide.beacon(7)), rssi: -59))
        #expect(events.count == 2)
        #expect(events.first == .didEnterArea(condition: condition, beacon: AppSide.beacon(7), time: 1))
        #expect(monitor.satisfiedConditions == [condition])
        let exits = monitor.advance(to: 30)
        #expect(
            exits == [.didLeaveArea(AreaExit(condition: condition, beacon: AppSide.beacon(7), lastHeard: 1, time: 11))])
    }

    @Test("GEOFENCING.md: ranging from the app's own scanner enters a monitored region")
    func ownScannerRangingEntersARegion() throws {
        var monitor = BeaconMonitor(exitDelay: 10)
        _ = try monitor.start([Self.condition], at: 0)
        let events = monitor.ingest(ranged: Self.ranged(7, at: 2, meters: 0.4, proximity: .immediate))
        #expect(events.first == .didEnterArea(condition: Self.condition, beacon: AppSide.beacon(7), time: 2))
        let found = FoundBeacon(
            condition: Self.condition, beacon: AppSide.beacon(7),
            ranging: Self.ranged(7, at: 2, meters: 0.4, proximity: .immediate))
        #expect(events.last == .didFindBeacon(found))
    }

    /// A ranger of the app's own: every beacon is 2 m away.
    struct TwoMeters: BeaconRanger {
        var calls = 0
        mutating func range(_ sighting: Sighting) -> RangedBeacon {
            calls += 1
            return RangedBeacon(
                time: sighting.time, device: sighting.device, source: sighting.source, rssi: sighting.rssi,
                distance: 2, proximity: .near)
        }
    }

    @Test("GEOFENCING.md: a ranger of the app's own plugs into the monitor and the session")
    func customRangerPlugsIn() throws {
        var monitor = BeaconMonitor(ranger: TwoMeters(), exitDelay: 10)
        _ = try monitor.start([Self.condition], at: 0)
        let events = monitor.ingest(Sighting(time: 1, device: "me", source: .beacon(AppSide.beacon(7)), rssi: -90))
        guard case .didFindBeacon(let found)? = events.last else {
            Issue.record("expected didFindBeacon, got \(events)")
            return
        }
        #expect(found.ranging.distance == 2 && found.ranging.proximity == .near)
        var session = try LocationSession(
            SessionConfiguration(venue: try AppSide.venue(), ranger: TwoMeters(), monitoring: [Self.condition]))
        let sessionEvents = session.ingest(
            Sighting(time: 1, device: "me", source: .beacon(AppSide.beacon(7)), rssi: -90))
        let distances: [Double] = sessionEvents.compactMap {
            if case .monitor(.didFindBeacon(let found), _) = $0 { found.ranging.distance } else { nil }
        }
        #expect(distances == [2])
    }

    @Test("GEOFENCING.md: RSSIRanger with any filter, and SmoothingRanger with the app's thresholds, are rangers")
    func stackRangersWithTheAppsSettings() {
        var kalman = RSSIRanger(nodes: [], filter: .kalman(processNoise: 2, measurementNoise: 16))
        let heard = Sighting(time: 0, device: "me", source: .beacon(AppSide.beacon(7)), rssi: -59)
        let ranging = kalman.range(heard)
        #expect(abs(ranging.distance - 1) < 1e-9 && ranging.proximity == .near)
        let thresholds = Proximity.Thresholds(immediate: 1.5, near: 4)
        var smoothing = SmoothingRanger(smoothing: 1, thresholds: thresholds)
        let smoothed = smoothing.range(heard)
        #expect(smoothed.proximity == .immediate)
        #expect(thresholds.proximity(meters: 3) == .near && thresholds.proximity(meters: .nan) == .unknown)
    }

    @Test("GEOFENCING.md: monitor events and ranged beacons encode as the documented JSON lines")
    func monitorEventsEncodeAsDocumented() throws {
        let encoder = JSONFormat.encoder()
        let stop = MonitorEvent.didStopObserving(
            ObservationStop(
                reason: .authorizationRevoked, conditions: [Self.condition], beacons: [AppSide.beacon(7)], time: 30))
        let line = String(decoding: try encoder.encode(stop), as: UTF8.self)
        #expect(
            line == """
                {"beacons":["\(AppSide.uuidText)/1/7"],"conditions":["\(AppSide.uuidText)/1"],\
                "event":"didStopObserving","reason":"authorizationRevoked","t":30}
                """)
        let ranging = RangedBeacon(
            time: 12, device: "phone-1", source: .beacon(AppSide.beacon(7)), rssi: -67.5, distance: 2.5,
            proximity: .near)
        #expect(
            String(decoding: try encoder.encode(ranging), as: UTF8.self) == """
                {"beacon":"\(AppSide.uuidText)/1/7","device":"phone-1","distance":2.5,"proximity":"near",\
                "rssi":-67.5,"t":12}
                """)
    }

    /// Records the calls it gets.
    final class Recorder: BeaconObserverDelegate {
        let calls = Mutex<[String]>([])
        func didStartObserving(_ conditions: [BeaconCondition], at time: Double) {
            calls.withLock { $0.append("start \(time)") }
        }
        func didStopObserving(_ stop: ObservationStop) { calls.withLock { $0.append("stop \(stop.reason)") } }
        func didEnterArea(_ condition: BeaconCondition, beacon: BeaconID, at time: Double) {
            calls.withLock { $0.append("enter \(beacon.minor)") }
        }
        func didFindBeacon(_ found: FoundBeacon) { calls.withLock { $0.append("found \(found.beacon.minor)") } }
        func didLeaveArea(_ exit: AreaExit) { calls.withLock { $0.append("leave \(exit.beacon.minor)") } }
    }

    /// Implements one method only: the others have defaults.
    final class LeavesOnly: BeaconObserverDelegate {
        let leaves = Mutex(0)
        func didLeaveArea(_ exit: AreaExit) { leaves.withLock { $0 += 1 } }
    }

    @Test("GEOFENCING.md: the app makes a BeaconObserver, sets its delegate and gets every event in both")
    func observerWithDelegateAndStream() async throws {
        let observer = BeaconObserver(monitor: BeaconMonitor(exitDelay: 10))
        let recorder = Recorder()
        await observer.setDelegate(recorder)
        try await observer.start([Self.condition], at: 0)
        await observer.ingest(Sighting(time: 1, device: "me", source: .beacon(AppSide.beacon(7)), rssi: -59))
        await observer.advance(to: 20)
        await observer.stop(at: 21)
        await observer.finish()
        var streamed: [MonitorEvent] = []
        for await event in observer.events { streamed.append(event) }
        #expect(streamed.count == 5)
        #expect(recorder.calls.withLock { $0 } == ["start 0.0", "enter 7", "found 7", "leave 7", "stop requested"])
        #expect(await observer.isObserving == false)
    }

    @Test("GEOFENCING.md: every delegate method is optional")
    func delegateMethodsAreOptional() async throws {
        let observer = BeaconObserver(monitor: BeaconMonitor(exitDelay: 10))
        let delegate = LeavesOnly()
        await observer.setDelegate(delegate)
        try await observer.start([Self.condition], at: 0)
        await observer.ingest(Sighting(time: 1, device: "me", source: .beacon(AppSide.beacon(7)), rssi: -59))
        await observer.advance(to: 20)
        #expect(delegate.leaves.withLock { $0 } == 1)
    }

    @Test("GEOFENCING.md: monitor errors have public codes an app compares, from start and from capabilities")
    func monitorErrorsHaveComparableCodes() throws {
        var monitor = BeaconMonitor(exitDelay: 10)
        #expect(throws: MonitorError.self) { try monitor.start([], at: 0) }
        do {
            _ = try monitor.start([], at: 0)
        } catch let error as MonitorError {
            #expect(error.code == .emptyBeaconList && error.code != .observationInProgress)
        }
        let cases: [(MonitorCapabilities, MonitorError.Code)] = [
            (
                MonitorCapabilities(
                    locationServicesEnabled: false, authorized: true, monitoringAvailable: true, rangingAvailable: true),
                .locationServicesDisabled
            ),
            (
                MonitorCapabilities(
                    locationServicesEnabled: true, authorized: false, monitoringAvailable: true, rangingAvailable: true),
                .notAuthorized
            ),
            (
                MonitorCapabilities(
                    locationServicesEnabled: true, authorized: true, monitoringAvailable: false, rangingAvailable: true),
                .monitoringUnsupported
            ),
            (
                MonitorCapabilities(
                    locationServicesEnabled: true, authorized: true, monitoringAvailable: true, rangingAvailable: false),
                .rangingUnsupported
            ),
        ]
        for (capabilities, code) in cases {
            #expect(throws: MonitorError(code: code, message: capabilities.problem?.message ?? "")) {
                try monitor.start([Self.condition], at: 0, capabilities: capabilities)
            }
        }
        _ = try monitor.start([Self.condition], at: 0)
        #expect(throws: MonitorError.self) { try monitor.start([Self.condition], at: 1) }
        #expect(MonitorCapabilities.all.problem == nil)
    }

    @Test("GEOFENCING.md: revoking authorisation stops the monitor and the observer with authorizationRevoked")
    func revokingAuthorizationStopsObservation() async throws {
        var monitor = BeaconMonitor(exitDelay: 10)
        _ = try monitor.start([Self.condition], at: 0)
        _ = monitor.ingest(ranged: Self.ranged(7, at: 1))
        let expected = MonitorEvent.didStopObserving(
            ObservationStop(
                reason: .authorizationRevoked, conditions: [Self.condition], beacons: [AppSide.beacon(7)], time: 5))
        let stopped = monitor.revokeAuthorization(at: 5)
        #expect(stopped == [expected])
        let again = monitor.revokeAuthorization(at: 6)
        #expect(!monitor.isObserving && again.isEmpty)
        let observer = BeaconObserver(monitor: BeaconMonitor(exitDelay: 10))
        let recorder = Recorder()
        await observer.setDelegate(recorder)
        try await observer.start([Self.condition], at: 0)
        await observer.ingest(Sighting(time: 1, device: "me", source: .beacon(AppSide.beacon(7)), rssi: -59))
        await observer.revokeAuthorization(at: 5)
        #expect(recorder.calls.withLock { $0.last } == "stop authorizationRevoked")
    }

    @Test("GEOFENCING.md: zones check in by fence and by beacon from the app's fixes and ranging")
    func zonesCheckInFromFixesAndRanging() throws {
        let venue = try Self.pharmacy()
        var engine = ZoneEngine(zones: venue.zones, nodes: venue.nodes)
        let byBeacon = engine.update(with: Self.ranged(3, at: 5, device: "phone-1", meters: 0.3, proximity: .immediate))
        #expect(byBeacon.map(\.kind) == [.checkIn])
        #expect(byBeacon.first?.trigger == .beacon && byBeacon.first?.beacon == "b3")
        #expect(byBeacon.first?.proximity == .immediate)
        let byFence = engine.update(with: Self.fix("phone-2", x: 25, y: 5, at: 12))
        #expect(byFence.first?.trigger == .fence && byFence.first?.fence == "0" && byFence.first?.willCheckOut == true)
        #expect(engine.openVisits.map(\.device) == ["phone-1", "phone-2"])
    }

    @Test("GEOFENCING.md: ZoneEngine.setEnabled disables a zone at run time; an open visit still checks out")
    func zoneEngineDisablesAZoneAtRunTime() throws {
        let venue = try Self.pharmacy()
        var engine = ZoneEngine(zones: venue.zones, nodes: venue.nodes)
        _ = engine.update(with: Self.ranged(3, at: 5, device: "phone-1", meters: 0.3, proximity: .immediate))
        let disabled = engine.setEnabled(false, zone: "pharmacy")
        let unknown = engine.setEnabled(false, zone: "nowhere")
        #expect(disabled && !unknown)
        let whileDisabled = engine.update(with: Self.fix("phone-2", x: 25, y: 5, at: 6))
        #expect(whileDisabled.isEmpty)  // nobody checks in
        let due = engine.advance(to: 30)
        let checkOut = due.first { $0.device == "phone-1" }
        #expect(checkOut?.kind == .checkOut && checkOut?.zoneEnabled == false && checkOut?.time == 15)
        engine.setEnabled(true, zone: "pharmacy")
        let stayed = engine.update(with: Self.fix("phone-2", x: 25, y: 5, at: 31))
        #expect(stayed.isEmpty)  // no new entry yet
        _ = engine.update(with: Self.fix("phone-2", x: 0, y: 50, at: 32))
        _ = engine.advance(to: 40)
        let entered = engine.update(with: Self.fix("phone-2", x: 25, y: 5, at: 41))
        #expect(entered.map(\.kind) == [.checkIn])
    }

    @Test("GEOFENCING.md: the activity log, open visits, draining, and visits carried to a replaced venue")
    func activityLogAndCarriedVisits() throws {
        let venue = try Self.pharmacy()
        var engine = ZoneEngine(zones: venue.zones, nodes: venue.nodes)
        _ = engine.update(with: Self.ranged(3, at: 5, device: "phone-1", meters: 0.3, proximity: .immediate))
        _ = engine.update(with: Self.fix("phone-2", x: 25, y: 5, at: 12))
        _ = engine.advance(to: 16)  // phone-1's beacon silent for 10 s since 5 s
        let visit = ZoneVisit(
            zone: "pharmacy", device: "phone-1", trigger: .beacon, beacon: "b3", proximity: .immediate, checkIn: 5,
            checkOut: 5, reason: .left)
        #expect(engine.activity.visits == [visit])
        #expect(engine.activity.totalDwell(device: "phone-1", zone: "pharmacy") == 0)
        let drained = engine.drainActivity()
        #expect(drained == [visit] && engine.activity.visits.isEmpty)
        var replaced = ZoneEngine(zones: [], nodes: venue.nodes)
        let closed = replaced.carryVisits(from: engine)
        #expect(closed.map(\.reason) == [.zoneRemoved] && closed.first?.device == "phone-2")
    }

    @Test("GEOFENCING.md: rooms, and a held room that does not flap")
    func roomsAndHeldRooms() throws {
        let venue = try Self.pharmacy()
        let rooms = try #require(RoomMap(zones: venue.zones))
        #expect(rooms.room(at: Point2D(x: 25, y: 5), floor: nil) == 0)
        #expect(rooms.room(at: Point2D(x: 0, y: 50), floor: nil) == nil)
        var hold = RoomHold(
            configuration: RoomHold.Configuration(margin: 0.25, settleTime: 2, depth: 0.5, unknownAfter: 8))
        let inside = hold.update(point: Point2D(x: 25, y: 5), floor: nil, at: 0, in: rooms)
        // A fix just outside the wall keeps the room.
        let overTheWall = hold.update(point: Point2D(x: 30.1, y: 5), floor: nil, at: 1, in: rooms)
        #expect(inside == .room(0) && overTheWall == .room(0))
    }

    @Test("GEOFENCING.md: the app keeps a PeerDirectory: ranging and session data merge; lost, left, expired")
    func peerDirectoryOfTheApp() {
        var directory = PeerDirectory(timeout: 30, maximumPeers: 10)
        let ana = PeerKey(major: 172, minor: 8376)
        var events = directory.heard(ana, distance: 2, proximity: .near, at: 0)
        events += directory.update(ana, displayName: "Ana", at: 1)
        let stranger = RangedBeacon(
            time: 2, device: "me", source: .beacon(BeaconID(uuid: AppSide.uuid, major: 9, minor: 9)), rssi: -70,
            distance: 5, proximity: .far)
        events += directory.heard(stranger)
        #expect(directory[ana]?.displayName == "Ana" && directory[ana]?.isSessionMember == true)
        #expect(directory.peers.count == 2)
        events += directory.advance(to: 40)
        events += directory.left(ana, at: 41)
        let names = events.map { event -> String in
            switch event {
            case .appeared(let peer): "appeared \(peer.key)"
            case .updated(let peer): "updated \(peer.key)"
            case .lostSignal(let peer): "lostSignal \(peer.key)"
            case .left(let peer): "left \(peer.key)"
            case .expired(let peer): "expired \(peer.key)"
            }
        }
        #expect(
            names == [
                "appeared 172/8376", "updated 172/8376", "appeared 9/9", "expired 9/9", "lostSignal 172/8376",
                "left 172/8376",
            ])
        #expect(directory.peers.isEmpty)
    }
}
