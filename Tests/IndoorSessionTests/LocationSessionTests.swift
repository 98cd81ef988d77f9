import Foundation
import IndoorEvaluation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning
import IndoorSession
import Testing

/// The README's tiny venue: two nodes 20 m apart and a room around the east one.
let tinyVenue = Venue(
    id: "tiny", name: "Tiny",
    nodes: [Node(id: "n1", position: Point3D(x: 0, y: 0, z: 0)), Node(id: "n2", position: Point3D(x: 20, y: 0, z: 0))],
    zones: [
        Zone(
            id: "east", name: "East room",
            fences: [
                .polygon(
                    Polygon([
                        Point2D(x: 15, y: -5), Point2D(x: 25, y: -5), Point2D(x: 25, y: 5), Point2D(x: 15, y: 5),
                    ]))
            ],
            checkOutTime: 2)
    ],
    anchor: GeoAnchor(origin: GeoCoordinate(latitude: 52.5, longitude: 13.4)))

/// The README's walk: near n1, then n2 (in the east room), then n1 again.
let tinyWalk = [
    Sighting(time: 0, device: "p", node: "n1", rssi: -59), Sighting(time: 1, device: "p", node: "n1", rssi: -60),
    Sighting(time: 10, device: "p", node: "n2", rssi: -59), Sighting(time: 11, device: "p", node: "n2", rssi: -58),
    Sighting(time: 20, device: "p", node: "n1", rssi: -59), Sighting(time: 22, device: "p", node: "n1", rssi: -59),
]

@Suite("LocationSession")
struct LocationSessionTests {
    @Test func fixesCarryCoordinatesAndTheFenceChecksInAndOut() throws {
        var session = try LocationSession(
            SessionConfiguration(venue: tinyVenue, method: MethodCatalog.Selection(.nonlinear)))
        let events = session.ingest(tinyWalk)
        let fixes = events.compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
        let zones = events.compactMap { if case .zone(let zone) = $0 { zone } else { nil } }
        // Two nodes are too few for nonlinear: every fix comes from the fallback. The first waits half a second
        // (`firstFixDelay`) for more readings, so it is made at the second sighting.
        #expect(fixes.map(\.method) == Array(repeating: "weighted-centroid", count: fixes.count))
        #expect(fixes.map(\.time) == [1, 10, 11, 20, 22])
        let first = try #require(fixes.first?.coordinate)
        #expect(abs(first.latitude - 52.5) < 1e-6 && abs(first.longitude - 13.4) < 1e-6)
        #expect(zones.map(\.kind) == [.checkIn, .checkOut])
        #expect(zones.first?.time == 10)
        #expect(zones.last?.reason == .left)
        #expect(zones.last?.time == 22)
        #expect(zones.last?.departure == 20)
        #expect(zones.last?.dwell == 10)
        #expect(session.statistics.fixes == 5)
        #expect(session.statistics.fallbacks == ["tooFewNodes": 5])
        #expect(events.map(\.time) == events.map(\.time).sorted())
    }

    /// The session holds each device's room: nothing before its first fix (1 s), none before the east room, the east
    /// room from the fix inside it
    /// (10 s); at 20 s unknown (no fix has been in the room for 9 s, more than 8, and the fixes outside have not
    /// settled yet); none once they have settled for 2 s (22 s); forgotten with the device after its silence. A venue
    /// without rooms answers `nil`.
    @Test func theSessionHoldsEachDevicesRoom() throws {
        var session = try LocationSession(
            SessionConfiguration(venue: tinyVenue, method: MethodCatalog.Selection(.nonlinear)))
        #expect(session.room(of: "p") == nil)
        var answers: [RoomHold.Answer?] = []
        for sighting in tinyWalk {
            _ = session.ingest(sighting)
            answers.append(session.room(of: "p"))
        }
        #expect(answers == [nil, .noRoom, .room(0), .room(0), .unknown, .noRoom])
        // Kept while the device is held, then let go with it once it has been silent for the session's device memory
        // (60 s: the engine's device expiry).
        _ = session.advance(to: 22 + 59)
        #expect(session.room(of: "p") == .noRoom)
        _ = session.advance(to: 22 + 62)
        #expect(session.room(of: "p") == nil)
        #expect(session.heldDevices == 0)
        var bare = tinyVenue
        bare.zones = []
        var plain = try LocationSession(SessionConfiguration(venue: bare))
        _ = plain.ingest(tinyWalk)
        #expect(plain.room(of: "p") == nil)
    }

    @Test func anRSSIOutsideThePhysicalRangeIsRefusedAndCounted() throws {
        var clean = try LocationSession(SessionConfiguration(venue: tinyVenue))
        var dirty = try LocationSession(SessionConfiguration(venue: tinyVenue))
        let cleanEvents = clean.ingest(tinyWalk)
        var walk = tinyWalk
        walk.insert(Sighting(time: 10.5, device: "p", node: "n1", rssi: 1000), at: 3)
        walk.insert(Sighting(time: 10.6, device: "p", node: "n1", rssi: -.infinity), at: 4)
        let dirtyEvents = dirty.ingest(walk)
        #expect(dirtyEvents == cleanEvents)
        #expect(dirty.statistics.refused == 2)
        #expect(dirty.statistics.sightings == 8)
        #expect(clean.statistics.refused == 0)
    }

    @Test func withoutAFallbackTooFewNodesGiveNoFix() throws {
        var session = try LocationSession(
            SessionConfiguration(venue: tinyVenue, method: MethodCatalog.Selection(.nonlinear), fallback: .none))
        let events = session.ingest(tinyWalk)
        #expect(events.isEmpty)
        // Tried once the first-fix delay has passed after each first sighting without a fix: at 1, 11 and 22 s.
        #expect(session.statistics.noFix["tooFewNodes"] == 3)
    }

    @Test func theDefaultMethodIsAutoWithOrWithoutACalibrationOrASurvey() throws {
        #expect(SessionConfiguration(venue: tinyVenue).method == MethodCatalog.Selection(.auto))
        let calibrated = SessionConfiguration(venue: tinyVenue, calibration: .uncalibrated)
        #expect(calibrated.method == MethodCatalog.Selection(.auto))
        #expect(calibrated.fallback == .weightedCentroid)
        let surveyed = SessionConfiguration(venue: tinyVenue, survey: Recording(sightings: [], truth: []))
        #expect(surveyed.method == MethodCatalog.Selection(.auto))
    }

    @Test func aMethodWithoutItsSurveyOrABadIntervalIsAClearError() {
        #expect(throws: MissingSurveyError.self) {
            try LocationSession(SessionConfiguration(venue: tinyVenue, method: MethodCatalog.Selection(.knn)))
        }
        #expect(throws: SessionError.self) {
            try LocationSession(SessionConfiguration(venue: tinyVenue, fixInterval: -1))
        }
    }

    @Test func aBatchIsTakenInTimeOrder() throws {
        var ordered = try LocationSession(SessionConfiguration(venue: tinyVenue))
        var shuffled = try LocationSession(SessionConfiguration(venue: tinyVenue))
        #expect(shuffled.ingest(tinyWalk.reversed()) == ordered.ingest(tinyWalk))
    }

    @Test func advanceChecksOutADeviceThatIsNoLongerHeard() throws {
        var session = try LocationSession(SessionConfiguration(venue: tinyVenue))
        _ = session.ingest(Array(tinyWalk.prefix(4)))
        #expect(session.openVisits.map(\.zone) == ["east"])
        #expect(session.advance(to: 70).isEmpty)
        let events = session.advance(to: 80)
        guard case .zone(let checkOut) = events.first else {
            Issue.record("expected a check-out, got \(events)")
            return
        }
        // Lost: no fix for the zone's lost timeout (60 s) after the last fix at t = 11 s.
        #expect(checkOut.kind == .checkOut && checkOut.reason == .lost && checkOut.time == 71)
        #expect(session.openVisits.isEmpty)
    }

    @Test func aSimulatedOfficeGivesTheSameEventsEveryRun() throws {
        var options = SimulatorOptions()
        options.duration = 60
        options.devices = 2
        let simulated = try Simulator(options: options).run()
        func run() throws -> ([SessionEvent], SessionStatistics) {
            var session = try LocationSession(SessionConfiguration(venue: simulated.venue))
            let events = session.ingest(simulated.dataset.test.sightings)
            return (events, session.statistics)
        }
        let (first, statistics) = try run()
        let (second, _) = try run()
        #expect(first == second)
        #expect(statistics.fixes > 100)
        #expect(statistics.refused == 0)
    }
}

@Suite("The default session on absurd venues")
struct AbsurdVenueTests {
    /// What the server's API fuzzing sends (node floors at Int.max and Int.min, positions 10⁵ m out, a path-loss
    /// exponent of 10³⁰⁸): the default method builds its map and answers or refuses, and never traps.
    @Test func theDefaultSessionNeitherTrapsNorAnswersNaN() throws {
        let extreme = NodeCalibration(rssiAtOneMeter: -19.76, pathLossExponent: 1.3578857987403926e308)
        let nodes = [
            Node(id: "a", position: Point3D(x: 39_817.99, y: -59_337.76, z: -6e-149), floor: -87_778_572),
            Node(id: "b", position: Point3D(x: -3e-171, y: -2.00001, z: -26_809.5), floor: .max, calibration: extreme),
            Node(id: "c", position: Point3D(x: 2e-124, y: 41_204.8, z: 0), floor: .min),
            Node(id: "d", position: Point3D(x: 21_022.1, y: 60_329.5, z: 18_260.6), floor: -358),
            Node(id: "e", position: Point3D(x: 1, y: 1, z: 1), floor: .max),
            Node(id: "f", position: Point3D(x: 2, y: 1, z: 1), floor: .max),
        ]
        var session = try LocationSession(SessionConfiguration(venue: Venue(id: "v", name: "", nodes: nodes)))
        var sightings: [Sighting] = []
        for second in 0..<4 {
            for (index, node) in nodes.enumerated() {
                sightings.append(
                    Sighting(time: Double(second), device: "p", node: node.id, rssi: -50 - Double(index) * 7))
            }
        }
        for case .fix(let fix) in session.ingest(sightings) {
            #expect(fix.position.x.isFinite && fix.position.y.isFinite)
        }
    }
}
