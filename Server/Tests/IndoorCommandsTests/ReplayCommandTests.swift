import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning
import IndoorRanging
import Testing

@testable import IndoorCommands

/// Two nodes 20 m apart; a fenced room round the east node (with a dwell threshold), a desk beacon on the
/// east node, and a gate halfway.
private let venueJSON = #"""
    {"id":"tiny","name":"Tiny","anchor":{"latitude":52.5,"longitude":13.4},
     "nodes":[{"id":"n1","x":0,"y":0},{"id":"n2","x":20,"y":0}],
     "zones":[
      {"id":"east","name":"East room","fences":[{"polygon":[[15,-5],[25,-5],[25,5],[15,5]]}],
       "checkOutTime":2,"dwellThreshold":2,"data":{"team":"blue"}},
      {"id":"desk","name":"Desk","beacons":[{"node":"n2","checkIn":"near"}]},
      {"id":"gate","name":"Gate","geolines":[{"id":"door","points":[[10,-5],[10,5]]}]}
     ]}
    """#

/// West node heard at 0…2 s, east node at 10…13 s, west again at 20…23 s; two bad lines (7 and 11).
private let sightingsCSV = """
    t,device,node,rssi
    0,p,n1,-59
    1,p,n1,-60
    2,p,n1,-59
    10,p,n2,-59
    11,p,n2,-58
    bad,p,n2,-59
    12,p,n2,-59
    13,p,n2,-60
    20,p,n1,-59
    21,p,n1
    22,p,n1,-59
    23,p,n1,-59

    """

private func replay(
    _ sightings: String, file: String, interval: Double = 1, method: String = "weighted-centroid",
    rssiFilter: ReplayRSSIFilter = .ema
) throws -> (lines: [String], problems: [String]) {
    var lines: [String] = []
    let outcome = try ReplayCommand.replay(
        venue: Data(venueJSON.utf8), venueFile: "venue.json", sightings: sightings, sightingsFile: file,
        method: method, interval: interval, rssiFilter: rssiFilter
    ) { lines.append($0) }
    return (lines, outcome.problems.map(\.description))
}

@Suite("indoor replay")
struct ReplayCommandTests {
    @Test("fixes and zone events as JSON Lines; bad lines reported with file:line, the rest replayed")
    func replayCSV() throws {
        let (lines, problems) = try replay(sightingsCSV, file: "walk.csv")
        #expect(problems == ["walk.csv:7: t 'bad' is not a number", "walk.csv:11: expected 4 fields, found 3"])
        let zoneLines = lines.filter { $0.contains(#""type":"zone""#) }
        #expect(
            zoneLines == [
                #"{"beacon":"n2","data":{},"device":"p","event":"checkIn","proximity":"near","t":10,"trigger":"beacon","type":"zone","willCheckOut":true,"zone":"desk","zoneEnabled":true,"zoneName":"Desk"}"#,
                #"{"data":{"team":"blue"},"device":"p","event":"checkIn","fence":"0","t":10,"trigger":"fence","type":"zone","willCheckOut":true,"zone":"east","zoneEnabled":true,"zoneName":"East room"}"#,
                #"{"data":{},"device":"p","direction":"leftToRight","event":"checkIn","geoline":"door","t":10,"trigger":"geoline","type":"zone","willCheckOut":false,"zone":"gate","zoneEnabled":true,"zoneName":"Gate"}"#,
                #"{"checkIn":10,"data":{"team":"blue"},"device":"p","dwell":2,"event":"dwell","fence":"0","t":12,"trigger":"fence","type":"zone","zone":"east","zoneEnabled":true,"zoneName":"East room"}"#,
                #"{"data":{},"device":"p","direction":"rightToLeft","event":"checkIn","geoline":"door","t":20,"trigger":"geoline","type":"zone","willCheckOut":false,"zone":"gate","zoneEnabled":true,"zoneName":"Gate"}"#,
                #"{"checkIn":10,"data":{"team":"blue"},"departure":20,"device":"p","dwell":10,"event":"checkOut","fence":"0","reason":"left","t":22,"trigger":"fence","type":"zone","zone":"east","zoneEnabled":true,"zoneName":"East room"}"#,
                #"{"beacon":"n2","checkIn":10,"data":{},"departure":13,"device":"p","dwell":3,"event":"checkOut","proximity":"near","reason":"left","t":23,"trigger":"beacon","type":"zone","zone":"desk","zoneEnabled":true,"zoneName":"Desk"}"#,
            ])
        let fixLines = lines.filter { $0.contains(#""type":"fix""#) }
        #expect(
            fixLines.map { try? JSONDecoder().decode(Fix.self, from: Data($0.utf8)).time } == [
                1, 2, 10, 11, 12, 13, 20, 22, 23,
            ])
        // The first fix waits half a second for more readings: made at the second sighting, from both.
        #expect(
            fixLines.first
                == #"{"accuracy":1.066,"confidence":0.167,"device":"p","latitude":52.5,"longitude":13.4,"method":"weighted-centroid","t":1,"type":"fix","x":0,"y":0,"z":0}"#
        )
        // The east node's fix: 20 m east of the anchor is 0.000294° of longitude at 52.5° N.
        let east = try JSONDecoder().decode(Fix.self, from: Data(fixLines[2].utf8))
        #expect(east.position.x == 20)
        #expect(abs((east.coordinate?.longitude ?? 0) - 13.400294506) < 1e-8)
        // Every line is one JSON object.
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any])
        }
    }

    @Test("JSON Lines input gives the same output; --interval sets the data time between fixes")
    func replayJSONLines() throws {
        let csv = try DatasetCSV.parseSightings(sightingsCSV, file: "walk.csv")
        let jsonl = try SightingsJSONLines.text(csv.rows)
        let fromCSV = try replay(sightingsCSV, file: "walk.csv")
        let fromJSONL = try replay(jsonl, file: "walk.jsonl")
        #expect(fromJSONL.lines == fromCSV.lines)
        #expect(fromJSONL.problems.isEmpty)
        let everySighting = try replay(sightingsCSV, file: "walk.csv", interval: 0)
        // Every sighting but the first, which waits half a second for more readings.
        #expect(everySighting.lines.filter { $0.contains(#""type":"fix""#) }.count == 9)
        let everyFive = try replay(sightingsCSV, file: "walk.csv", interval: 5)
        let times = everyFive.lines.compactMap { try? JSONDecoder().decode(Fix.self, from: Data($0.utf8)).time }
        #expect(times == [1, 10, 20])
        let broken = try replay(#"{"t":1,"device":"p","node":"n1","rssi":-60}"# + "\n{\"t\":2}\n", file: "b.jsonl")
        #expect(broken.problems.count == 1)
        #expect(broken.problems.first?.hasPrefix("b.jsonl:2: ") == true)
        #expect(broken.lines.count == 1)
    }

    @Test("positioning's RSSI filters plug in as the zones' ranger", arguments: ReplayRSSIFilter.allCases)
    func rssiFilters(filter: ReplayRSSIFilter) throws {
        let zones = { (lines: [String]) in lines.filter { $0.contains(#""type":"zone""#) } }
        let reference = try replay(sightingsCSV, file: "walk.csv")
        let other = try replay(sightingsCSV, file: "walk.csv", rssiFilter: filter)
        #expect(zones(other.lines) == zones(reference.lines))
    }

    @Test("the positioning-filter ranger: ARMA smoothing, log-distance with the node calibration or tx power")
    func replayRanger() {
        let node = Node(
            id: "n1", position: Point3D(x: 0, y: 0, z: 0),
            calibration: NodeCalibration(rssiAtOneMeter: -50, pathLossExponent: 2))
        var ranger = RSSIRanger(nodes: [node], filter: .arma(coefficient: 0.1))
        _ = ranger.range(Sighting(time: 0, device: "p", node: "n1", rssi: -60))
        let second = ranger.range(Sighting(time: 1, device: "p", node: "n1", rssi: -70))
        #expect(abs(second.rssi - -61) < 1e-9)
        // −61 dBm with −50 dBm at 1 m, exponent 2: 10^(11/20) ≈ 3.55 m, beyond the 3 m of near.
        #expect(abs(second.distance - pow(10, 11.0 / 20)) < 1e-9)
        #expect(second.proximity == .far)
        let withTx = ranger.range(Sighting(time: 0, device: "p", node: "n9", rssi: -85, txPower: -65))
        #expect(abs(withTx.distance - 10) < 1e-9)
        #expect(withTx.proximity == .far)
    }

    @Test("visits still open when the recording ends get one open line each, with the dwell so far")
    func openVisitsAtTheEnd() throws {
        // Two devices: p walks into the east room and the recording ends there; q stays west.
        let csv = "t,device,node,rssi\n0,p,n1,-59\n0,q,n1,-59\n1,p,n1,-60\n10,p,n2,-59\n11,p,n2,-58\n12.5,p,n2,-59\n"
        var lines: [String] = []
        let outcome = try ReplayCommand.replay(
            venue: Data(venueJSON.utf8), venueFile: "venue.json", sightings: csv, sightingsFile: "walk.csv",
            method: "weighted-centroid"
        ) { lines.append($0) }
        #expect(
            lines.filter { $0.contains(#""event":"open""#) } == [
                #"{"checkIn":10,"data":{"team":"blue"},"device":"p","dwell":2.5,"event":"open","fence":"0","t":12.5,"trigger":"fence","type":"zone","zone":"east","zoneEnabled":true,"zoneName":"East room"}"#,
                #"{"beacon":"n2","checkIn":10,"data":{},"device":"p","dwell":2.5,"event":"open","proximity":"near","t":12.5,"trigger":"beacon","type":"zone","zone":"desk","zoneEnabled":true,"zoneName":"Desk"}"#,
            ])
        // The open lines come last.
        #expect(lines.suffix(2).allSatisfy { $0.contains(#""event":"open""#) })
        #expect(outcome.summary.openVisits == 2)
        #expect(
            outcome.summary.description
                == "replay: 6 sightings, 5 fixes, 4 zone events; 2 visits still open at t = 12.5")
        // A recording that ends after every check-out has no open line.
        let closed = try replay(sightingsCSV, file: "walk.csv")
        #expect(!closed.lines.contains { $0.contains(#""event":"open""#) })
    }

    @Test(
        "without --method: auto (its posterior held at the one node heard, and the fixes say so), the same lines as asking for it"
    )
    func defaultMethod() throws {
        // The README walk over two nodes.
        let walk = "t,device,node,rssi\n0,p,n1,-59\n1,p,n1,-60\n10,p,n2,-59\n11,p,n2,-58\n20,p,n1,-59\n22,p,n1,-59\n"
        var lines: [String] = []
        let outcome = try ReplayCommand.replay(
            venue: Data(venueJSON.utf8), venueFile: "venue.json", sightings: walk, sightingsFile: "walk.csv"
        ) { lines.append($0) }
        let fixes = lines.compactMap { try? JSONDecoder().decode(Fix.self, from: Data($0.utf8)) }
        #expect(fixes.map(\.time) == [1, 10, 11, 20, 22])  // the first waits half a second for more readings
        #expect(fixes.allSatisfy { $0.method == "auto" })
        // One node heard at a time: each fix within a few centimetres of it (n1 at x 0, n2 at x 20).
        #expect(fixes.allSatisfy { min(abs($0.position.x), abs($0.position.x - 20)) < 0.25 && $0.position.y == 0 })
        #expect(!lines.contains { $0.contains(#""y":-0"#) })
        #expect(outcome.summary.fallbacks.isEmpty)
        #expect(outcome.summary.description == "replay: 6 sightings, 5 fixes, 7 zone events")
        let named = try replay(walk, file: "walk.csv", method: "auto")
        #expect(lines == named.lines)

        // Asked for by name, a trilaterating method has no fallback.
        let strict = try ReplayCommand.replay(
            venue: Data(venueJSON.utf8), venueFile: "venue.json", sightings: walk, sightingsFile: "walk.csv",
            method: "nonlinear"
        ) { _ in }
        #expect(strict.summary.fixes == 0)
        #expect(strict.summary.noFix == ["tooFewNodes": 3])  // tried once each first-fix wait ends: at 1, 11, 22 s
    }

    @Test("the documented example runs without --method and gives what docs/COMMANDS.md says")
    func documentedExample() throws {
        let venue = #"""
            {"id": "tiny", "name": "Tiny", "anchor": {"latitude": 52.5, "longitude": 13.4},
             "nodes": [{"id": "n1", "x": 0, "y": 0}, {"id": "n2", "x": 20, "y": 0}],
             "zones": [
               {"id": "east", "name": "East room", "fences": [{"polygon": [[15, -5], [25, -5], [25, 5], [15, 5]]}],
                "checkOutTime": 2, "data": {"team": "blue"}},
               {"id": "gate", "name": "Gate", "geolines": [{"id": "door", "points": [[10, -5], [10, 5]]}]}]}
            """#
        let walk = "t,device,node,rssi\n0,p,n1,-59\n1,p,n1,-60\n10,p,n2,-59\n11,p,n2,-58\n20,p,n1,-59\n22,p,n1,-59\n"
        var lines: [String] = []
        let outcome = try ReplayCommand.replay(
            venue: Data(venue.utf8), venueFile: "venue.json", sightings: walk, sightingsFile: "walk.csv"
        ) { lines.append($0) }
        let events = lines.compactMap { try? JSONDecoder().decode(ZoneEventLine.self, from: Data($0.utf8)) }
            .filter { $0.type == "zone" }
        #expect(
            events.map { "\($0.event) \($0.zone)@\($0.t)" } == [
                "checkIn east@10.0", "checkIn gate@10.0", "checkIn gate@20.0", "checkOut east@22.0",
            ])
        #expect(
            lines.contains {
                $0.contains(#""departure":20"#) && $0.contains(#""dwell":10"#) && $0.contains(#""reason":"left""#)
            })
        #expect(
            outcome.summary.description
                == "replay: 6 sightings, 5 fixes, 4 zone events")
    }

    @Test("the summary counts sightings, fixes, zone events, attempts without a fix and unknown nodes")
    func summary() throws {
        let outcome = try ReplayCommand.replay(
            venue: Data(venueJSON.utf8), venueFile: "venue.json", sightings: sightingsCSV + "24,p,n7,-70\n",
            sightingsFile: "walk.csv", method: "weighted-centroid"
        ) { _ in }
        #expect(
            outcome.summary.description
                == "replay: 11 sightings, 10 fixes, 7 zone events; 1 sightings of nodes not in the venue")
        var failed = ReplaySummary()
        failed.sightings = 5
        failed.noFix = ["tooFewNodes": 4, "notHeard": 1]
        #expect(
            failed.description
                == "replay: 5 sightings, 0 fixes, 0 zone events; 5 attempts gave no fix (notHeard 1, tooFewNodes 4)")
    }

    @Test("an unknown method or a bad venue is an error that says so")
    func errors() throws {
        #expect(throws: UnknownMethodError.self) { try replay(sightingsCSV, file: "walk.csv", method: "magic") }
        let error = try #require(throws: FormatError.self) {
            _ = try ReplayCommand.replay(
                venue: Data(#"{"id":"v","zones":[{"id":"z","fences":[{"center":[0,0]}]}]}"#.utf8), venueFile: "v.json",
                sightings: sightingsCSV, sightingsFile: "walk.csv"
            ) { _ in }
        }
        #expect(error.description.hasPrefix("v.json: zones[0].fences[0]") == true)
    }

    @Test(
        "a venue that is empty, not JSON, or has two zones with one id is an error naming the file and field",
        arguments: [
            ("", "v.json: file is empty; expected a venue JSON object"),
            (" \n", "v.json: file is empty; expected a venue JSON object"),
            ("t,device,node,rssi", "v.json: line 1, column 1: expected a value, found 't'"),
            (
                "{\"id\":\"v\",\n \"nodes\": [{\"id\":\"n1\" \"x\":0}]}",
                "v.json: line 2, column 23: expected ',' or '}' after an object member, found '\"'"
            ),
            (
                #"{"id":"v","zones":[{"id":"a"},{"id":"b"},{"id":"a","name":"Again"}]}"#,
                "v.json: zones[2].id: zone id 'a' is already used by zones[0]; zone ids must be unique"
            ),
        ])
    func badVenues(venue: String, message: String) throws {
        let error = try #require(throws: FormatError.self) {
            _ = try ReplayCommand.replay(
                venue: Data(venue.utf8), venueFile: "v.json", sightings: sightingsCSV, sightingsFile: "walk.csv"
            ) { _ in }
        }
        #expect(error.description.hasPrefix(message) == true, "\(error.description)")
    }

    @Test(
        "empty sightings: a CSV without a header is an error naming the file; an empty JSON Lines file is a problem naming it and replays nothing"
    )
    func emptySightings() throws {
        let error = try #require(throws: FormatError.self) { try replay("", file: "walk.csv") }
        #expect(
            error.description.hasPrefix("walk.csv:1: file is empty") == true, "\(error.description)")
        let outcome = try ReplayCommand.replay(
            venue: Data(venueJSON.utf8), venueFile: "venue.json", sightings: "", sightingsFile: "walk.jsonl"
        ) { _ in Issue.record("no line expected") }
        #expect(
            outcome.problems.map(\.description) == [
                "walk.jsonl:1: file is empty; expected one JSON sighting object per line"
            ])
        #expect(outcome.summary.description == "replay: 0 sightings, 0 fixes, 0 zone events")
    }

    @Test("sightings of nodes the venue does not have are counted, locate nothing and check no one in")
    func onlyUnknownNodes() throws {
        let (lines, problems) = try replay("t,device,node,rssi\n0,p,n9,-50\n1,p,n9,-50\n", file: "walk.csv")
        #expect(lines.isEmpty)
        #expect(problems.isEmpty)
    }

    @Test(
        "a venue without nodes, with one node, with its nodes at one point or on an unlisted floor replays with every method",
        arguments: [
            #"{"id": "phones", "name": "Phones only", "nodes": []}"#,
            #"{"id": "z", "zones": [{"id": "r", "fences": [{"polygon": [[0, 0], [4, 0], [4, 4], [0, 4]]}]}]}"#,
            #"{"id": "one", "nodes": [{"id": "n1", "x": 0, "y": 0}]}"#,
            #"{"id": "pt", "nodes": [{"id": "n1", "x": 1, "y": 1}, {"id": "n2", "x": 1, "y": 1}, {"id": "n9", "x": 1, "y": 1}]}"#,
            #"{"id": "fl", "floors": [{"level": 0, "outline": [[0, 0], [9, 0], [9, 9], [0, 9]]}], "nodes": [{"id": "n1", "x": 0, "y": 0, "floor": 4}, {"id": "n2", "x": 9, "y": 0, "floor": 4}]}"#,
        ])
    func degenerateVenues(venue: String) throws {
        for method in MethodCatalog.Method.allCases where !method.needsSurvey {
            for name in [method.rawValue, "\(method.rawValue)+track"] {
                let outcome = try ReplayCommand.replay(
                    venue: Data(venue.utf8), venueFile: "v.json", sightings: sightingsCSV, sightingsFile: "walk.csv",
                    method: name
                ) { _ in }
                #expect(outcome.summary.description.hasPrefix("replay: 10 sightings"), "\(name)")
            }
        }
    }

    @Test("--first-fix-delay 0 fixes at the first sighting; bad session options are refused")
    func sessionOptions() throws {
        var at: [Double] = []
        for delay in [0.5, 0.0] {
            var fixes: [String] = []
            let bytes = Data(sightingsCSV.utf8)
            var done = false
            _ = try ReplayCommand.replay(
                venue: Data(venueJSON.utf8), venueFile: "venue.json", sightingsFile: "walk.csv",
                read: {
                    defer { done = true }
                    return done ? nil : bytes
                },
                options: ReplayCommand.Options(method: "weighted-centroid", firstFixDelay: delay), problem: { _ in },
                write: { line in if line.contains(#""type":"fix""#) { fixes.append(line) } })
            let first = try #require(fixes.first)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
            at.append(try #require(object["t"] as? Double))
        }
        #expect(at == [1, 0])
        #expect(throws: (any Error).self) {
            try IndoorCommand.parseAsRoot(["replay", "--venue", "v.json", "s.csv", "--first-fix-delay", "-1"])
        }
        #expect(throws: (any Error).self) {
            try IndoorCommand.parseAsRoot(["replay", "--venue", "v.json", "s.csv", "--maximum-devices", "0"])
        }
    }

    @Test("the command line parses venue, sightings, method and interval")
    func parsing() throws {
        let command = try IndoorCommand.parseAsRoot(["replay", "--venue", "v.json", "s.csv", "--interval", "0.5"])
        let replay = try #require(command as? ReplayCommand)
        #expect(replay.venue == "v.json")
        #expect(replay.sightings == "s.csv")
        #expect(replay.interval == 0.5)
        #expect(replay.method == nil)
        let nonlinear = try IndoorCommand.parseAsRoot(["replay", "--venue", "v.json", "s.csv", "--method", "nonlinear"])
        #expect((nonlinear as? ReplayCommand)?.method == "nonlinear")
        #expect(replay.rssiFilter == .ema)
        let kalman = try IndoorCommand.parseAsRoot([
            "replay", "--venue", "v.json", "s.jsonl", "--rssi-filter", "kalman",
        ])
        #expect((kalman as? ReplayCommand)?.rssiFilter == .kalman)
        #expect(throws: (any Error).self) {
            try IndoorCommand.parseAsRoot(["replay", "--venue", "v.json", "s.csv", "--interval", "-1"])
        }
    }
}

/// The fields of a replay zone line that the tests read.
private struct ZoneEventLine: Decodable {
    var type: String
    var event: String
    var zone: String
    var t: Double
}
