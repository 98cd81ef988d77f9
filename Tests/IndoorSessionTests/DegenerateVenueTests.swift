import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning
import IndoorSession
import Testing

/// No venue crashes a session: venues without nodes, with one node, with every node on another floor or at one
/// point, with zones and no nodes, and venues drawn at random (seeded), for every method of the catalogue. A session
/// either refuses the configuration with an error or starts and answers: a fix or ``NoFix`` where nothing can be
/// located, and peers and zones still work.
@Suite("LocationSession: degenerate venues answer, never trap")
struct DegenerateVenueTests {
    static let peerUUID = UUID(
        uuid: (0x1C, 0x2D, 0x3E, 0x4F, 0x50, 0x61, 0x42, 0x83, 0x94, 0xA5, 0xB6, 0xC7, 0xD8, 0xE9, 0xFA, 0x0B))
    static let beaconUUID = UUID(
        uuid: (0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0))

    /// A named venue shape for the fixed cases.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var venue: Venue
        var testDescription: String { name }
    }

    static let square = Polygon([Point2D(x: 0, y: 0), Point2D(x: 12, y: 0), Point2D(x: 12, y: 8), Point2D(x: 0, y: 8)])
    static let zone = Zone(id: "room", name: "Room", fences: [.polygon(square)], lostTimeout: 5)
    static let circleZone = Zone(
        id: "spot", name: "Spot", fences: [.circle(center: Point2D(x: 3, y: 3), radius: 2)],
        beacons: [ZoneBeacon(node: "a", checkIn: .near)], exitDelay: 2)

    static func node(_ id: String, _ x: Double, _ y: Double, floor: Int? = nil, minor: UInt16? = nil) -> Node {
        Node(
            id: id, beacon: minor.map { BeaconID(uuid: beaconUUID, major: 1, minor: $0) },
            position: Point3D(x: x, y: y, z: 1), floor: floor)
    }

    static let fixedCases: [Case] = [
        Case(name: "no nodes (phones only)", venue: Venue(id: "phones", name: "Phones only")),
        Case(name: "no nodes, a zone", venue: Venue(id: "z", name: "Z", zones: [zone, circleZone])),
        Case(
            name: "no nodes, a floor",
            venue: Venue(id: "f", name: "F", floors: [Floor(level: 0, name: "G", outline: square)])),
        Case(name: "one node", venue: Venue(id: "one", name: "One", nodes: [node("a", 1, 1, minor: 1)], zones: [zone])),
        Case(name: "two nodes", venue: Venue(id: "two", name: "Two", nodes: [node("a", 0, 0), node("b", 10, 0)])),
        Case(
            name: "nodes at one point",
            venue: Venue(
                id: "point", name: "Point",
                nodes: [node("a", 4, 4), node("b", 4, 4), node("c", 4, 4), node("d", 4, 4)], zones: [zone])),
        Case(
            name: "nodes on a line",
            venue: Venue(
                id: "line", name: "Line", nodes: [node("a", 0, 0), node("b", 4, 0), node("c", 8, 0), node("d", 12, 0)])),
        Case(
            name: "every node on a floor the venue does not list",
            venue: Venue(
                id: "other", name: "Other", floors: [Floor(level: 0, name: "G", outline: square)],
                nodes: [
                    node("a", 0, 0, floor: 3), node("b", 10, 0, floor: 3), node("c", 0, 8, floor: 3),
                    node("d", 10, 8, floor: 3),
                ],
                zones: [zone])),
        Case(
            name: "nodes on two floors, one each",
            venue: Venue(
                id: "split", name: "Split",
                floors: [Floor(level: 0, name: "G", outline: square), Floor(level: 1, name: "1", outline: square)],
                nodes: [node("a", 0, 0, floor: 0), node("b", 10, 8, floor: 1)])),
        Case(
            name: "a floor with an empty outline",
            venue: Venue(
                id: "empty", name: "Empty", floors: [Floor(level: 0, name: "G", outline: Polygon([]))],
                nodes: [node("a", 0, 0), node("b", 10, 0), node("c", 0, 8), node("d", 10, 8)])),
        Case(
            name: "far-apart nodes",
            venue: Venue(
                id: "far", name: "Far",
                nodes: [node("a", 0, 0), node("b", 9000, 0), node("c", 0, 9000), node("d", -9000, -9000)])),
    ]

    /// Every catalogued method, untracked and tracked.
    static let selections: [MethodCatalog.Selection] = MethodCatalog.Method.allCases.flatMap {
        [MethodCatalog.Selection($0), MethodCatalog.Selection($0, tracking: true)]
    }

    @Test("a fixed degenerate venue answers with every method", arguments: fixedCases)
    func fixedVenue(_ venueCase: Case) throws {
        var random = SplitMix64(seed: 0xDE6E)
        for selection in Self.selections {
            try Self.exercise(venueCase.venue, selection: selection, random: &random)
        }
    }

    @Test("random venues and sightings (seeded) answer with every method", arguments: 0..<12)
    func randomVenue(_ seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 17)
        let venue = Self.randomVenue(random: &random)
        for selection in Self.selections {
            try Self.exercise(venue, selection: selection, random: &random)
        }
    }

    @Test func aPhonesOnlyVenueStillPairsPeersAndAnswersNoFix() throws {
        let venue = Venue(id: "phones", name: "Phones only")
        var session = try LocationSession(
            SessionConfiguration(venue: venue, peers: SessionConfiguration.PeerConfiguration(uuid: Self.peerUUID)))
        let peer = BeaconID(uuid: Self.peerUUID, major: 7, minor: 9)
        var events = session.ingest(Sighting(time: 1, device: "me", source: .beacon(peer), rssi: -60))
        events += session.ingest(Sighting(time: 2, device: "me", source: .node("ghost"), rssi: -60))
        events += session.advance(to: 3)
        #expect(session.knownPeers.map(\.key) == [PeerKey(peer)])
        #expect(events.contains { if case .peer = $0 { true } else { false } })
        #expect(!events.contains { if case .fix = $0 { true } else { false } })
        guard case .failure = session.locate(device: "me", at: 3) else {
            Issue.record("a venue without nodes located a device")
            return
        }
    }

    /// Builds a session over `venue` with `selection` (a small survey for the methods that need one), feeds it random
    /// sightings of known and unknown nodes, beacons and peers, and asks it what an app would: no trap, and no fix
    /// outside what the venue can place (finite coordinates).
    static func exercise(_ venue: Venue, selection: MethodCatalog.Selection, random: inout SplitMix64) throws {
        let survey = selection.method.needsSurvey ? surveyRecording(venue, random: &random) : nil
        let configuration = SessionConfiguration(
            venue: venue, method: selection, survey: survey, firstFixDelay: 0.5,
            monitoring: [BeaconCondition(uuid: beaconUUID)],
            peers: SessionConfiguration.PeerConfiguration(uuid: peerUUID, timeout: 3))
        let session: LocationSession
        do {
            session = try LocationSession(configuration)
        } catch {
            // A refusal is an answer (a method that needs a survey, over a venue it cannot learn).
            #expect(!"\(error)".isEmpty)
            return
        }
        var running = session
        var events: [SessionEvent] = []
        var time = 0.0
        for _ in 0..<60 {
            time += Double(random.next() % 700) / 1000
            events += running.ingest(randomSighting(venue, time: time, random: &random))
        }
        events += running.advance(to: time + 20)
        for event in events {
            if case .fix(let fix) = event {
                #expect(fix.position.x.isFinite && fix.position.y.isFinite, "\(selection) over \(venue.id)")
            }
        }
        for device in ["d0", "d1", "d2"] {
            switch running.locate(device: device, at: time + 20) {
            case .success(let fix): #expect(fix.position.x.isFinite && fix.position.y.isFinite)
            case .failure: break
            }
            _ = running.readings(device: device, at: time + 20)
            _ = running.room(of: device)
        }
    }

    static func randomSighting(_ venue: Venue, time: Double, random: inout SplitMix64) -> Sighting {
        let device = "d\(random.next() % 3)"
        let rssi = -30 - Double(random.next() % 70)
        switch random.next() % 6 {
        case 0:
            return Sighting(
                time: time, device: device,
                source: .beacon(BeaconID(uuid: peerUUID, major: UInt16(random.next() % 3), minor: 1)), rssi: rssi)
        case 1:
            return Sighting(
                time: time, device: device,
                source: .beacon(BeaconID(uuid: beaconUUID, major: 1, minor: UInt16(random.next() % 4))), rssi: rssi)
        case 2: return Sighting(time: time, device: device, node: "unknown-\(random.next() % 2)", rssi: rssi)
        default:
            guard !venue.nodes.isEmpty else { return Sighting(time: time, device: device, node: "none", rssi: rssi) }
            let node = venue.nodes[Int(random.next() % UInt64(venue.nodes.count))]
            return Sighting(time: time, device: device, node: node.id, rssi: rssi)
        }
    }

    /// A small survey over the venue's nodes: 16 truth points, each heard by every node at a path-loss level.
    static func surveyRecording(_ venue: Venue, random: inout SplitMix64) -> Recording {
        var sightings: [Sighting] = []
        var truth: [TruthPoint] = []
        for index in 0..<16 {
            let time = Double(index)
            let point = Point2D(x: Double(random.next() % 12), y: Double(random.next() % 8))
            let floor = venue.nodes.first?.floor
            truth.append(TruthPoint(time: time, device: "surveyor", point: point, floor: floor))
            for node in venue.nodes {
                let distance = max(hypot(node.position.x - point.x, node.position.y - point.y), 0.5)
                let rssi = -59 - 27 * log10(distance) + Double(random.next() % 5) - 2
                sightings.append(
                    Sighting(time: time + 0.1, device: "surveyor", node: node.id, rssi: max(rssi, -110)))
            }
        }
        return Recording(sightings: sightings, truth: truth)
    }

    /// A venue of 0–6 nodes, some at one point, on listed or unlisted floors, with 0–2 zones.
    static func randomVenue(random: inout SplitMix64) -> Venue {
        let nodeCount = Int(random.next() % 7)
        let floors: [Floor] =
            random.next() % 2 == 0
            ? [] : [Floor(level: 0, name: "G", outline: square), Floor(level: 1, name: "1", outline: square)]
        var nodes: [Node] = []
        for index in 0..<nodeCount {
            let stackOn = random.next() % 3 == 0 ? nodes.last : nil
            let x = stackOn?.position.x ?? Double(random.next() % 13)
            let y = stackOn?.position.y ?? Double(random.next() % 9)
            let floor: Int? = [nil, 0, 1, 5][Int(random.next() % 4)]
            nodes.append(node("n\(index)", x, y, floor: floor, minor: UInt16(index)))
        }
        let zones = [zone, circleZone].filter { _ in random.next() % 2 == 0 }
        return Venue(id: "random", name: "Random", floors: floors, nodes: nodes, zones: zones)
    }
}
