import Foundation
import Testing

@testable import IndoorModel

/// Values no venue or sighting can have are refused where they are read, naming the place.
@Suite("Validation at ingest")
struct ValidationTests {
    /// The message of the error that decoding `json` as a venue throws, or `nil` when it decodes.
    static func venueError(_ json: String) -> String? {
        do {
            _ = try Venue.decodeJSON(Data(json.utf8))
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(
        "a venue with an impossible value is refused, naming the JSON path",
        arguments: [
            (
                #"{"id":"v","zones":[{"id":"west"},{"id":"east"},{"id":"hall"},{"id":"east"}]}"#,
                "venue.json: zones[3].id: zone id 'east' is already used by zones[1]; zone ids must be unique"
            ),
            (
                #"{"id":"v","nodes":[{"id":"a","x":1e999,"y":2}]}"#,
                "venue.json: nodes[0].x: x '1e999' is not a finite number"
            ),
            (
                #"{"id":"v","nodes":[{"id":"a","x":1,"y":2},{"id":"b","x":1000000,"y":2}]}"#,
                "venue.json: nodes[1].x: x '1000000' is more than 100 km from the origin"
            ),
            (
                #"{"id":"v","nodes":[{"id":"a","x":1,"y":-1e6}]}"#,
                "venue.json: nodes[0].y: y '-1000000' is more than 100 km from the origin"
            ),
            (
                #"{"id":"v","nodes":[{"id":"a","x":1,"y":2,"z":-1e999}]}"#,
                "venue.json: nodes[0].z: z '-1e999' is not a finite number"
            ),
            (
                #"{"id":"v","floors":[{"level":0,"outline":[[0,0],[1e6,0],[0,5]]}]}"#,
                "venue.json: floors[0].outline[1]: x '1000000' is more than 100 km from the origin"
            ),
            (
                #"{"id":"v","floors":[{"level":0,"walls":[[[0,0],[0,1e999]]]}]}"#,
                "venue.json: floors[0].walls[0][1]: y '1e999' is not a finite number"
            ),
            (
                #"{"id":"v","floors":[{"level":1,"elevation":1e999}]}"#,
                "venue.json: floors[0].elevation: elevation '1e999' is not a finite number"
            ),
            (
                #"{"id":"v","zones":[{"id":"z","fences":[{"center":[1e6,0],"radius":2}]}]}"#,
                "venue.json: zones[0].fences[0].center: x '1000000' is more than 100 km from the origin"
            ),
            (
                #"{"id":"v","zones":[{"id":"z","fences":[{"center":[1,0],"radius":1e6}]}]}"#,
                "venue.json: zones[0].fences[0].radius: radius '1000000' is more than 100 km from the origin"
            ),
            (
                #"{"id":"v","zones":[{"id":"z","fences":[{"polygon":[[0,0],[4,0],[0,1e999]]}]}]}"#,
                "venue.json: zones[0].fences[0].polygon[2]: y '1e999' is not a finite number"
            ),
            (
                #"{"id":"v","zones":[{"id":"z","geolines":[{"points":[[0,0],[250000,3]]}]}]}"#,
                "venue.json: zones[0].geolines[0].points[1]: x '250000' is more than 100 km from the origin"
            ),
            (
                #"{"id":"v","anchor":{"latitude":91,"longitude":13.4}}"#,
                "venue.json: anchor.latitude: latitude 91.0 is not in -90...90"
            ),
            (
                #"{"id":"v","anchor":{"latitude":52.5,"longitude":-180.5}}"#,
                "venue.json: anchor.longitude: longitude -180.5 is not in -180...180"
            ),
            (
                #"{"id":"v","anchor":{"latitude":52.5,"longitude":13.4,"bearingDegrees":1e300}}"#,
                "venue.json: anchor.bearingDegrees: bearingDegrees 1e+300 is not in -360...360"
            ),
            (
                #"{"id":"v","anchor":{"latitude":52.5,"longitude":13.4,"bearingDegrees":-1e999}}"#,
                "venue.json: anchor.bearingDegrees: bearingDegrees '-1e999' is not a finite number"
            ),
            (
                #"{"id":"v","nodes":[{"id":"a","x":1,"y":2,"floor":1.5}]}"#,
                "venue.json: nodes[0].floor: expected an integer"
            ),
            (#"{"id":"v","floors":[{"level":0.5}]}"#, "venue.json: floors[0].level: expected an integer"),
            (
                #"{"id":"v","zones":[{"id":"z","geolines":[{"floor":2.5,"points":[[0,0],[1,1]]}]}]}"#,
                "venue.json: zones[0].geolines[0].floor: expected an integer"
            ),
            (
                #"{"id":"v","nodes":[{"id":"a","x":1,"y":2,"rssiAt1m":59}]}"#,
                "venue.json: nodes[0].rssiAt1m: rssiAt1m '59' is outside the physical range −130…20 dBm"
            ),
        ])
    func impossibleVenueValues(json: String, message: String) {
        #expect(Self.venueError(json) == message)
    }

    @Test("values at the limits are accepted")
    func limitsAreInclusive() throws {
        let venue = try Venue.decodeJSON(
            Data(
                #"""
                {"id":"v","anchor":{"latitude":-90,"longitude":180,"bearingDegrees":-360},
                 "floors":[{"level":-2,"elevation":-100000,"outline":[[-100000,100000],[100000,100000],[0,0]]}],
                 "nodes":[{"id":"a","x":100000,"y":-100000,"z":0,"floor":-2,"rssiAt1m":-130}],
                 "zones":[{"id":"z","fences":[{"center":[0,0],"radius":100000}]},{"id":"y"}]}
                """#.utf8))
        #expect(venue.nodes[0].position == Point3D(x: 100_000, y: -100_000, z: 0))
        #expect(venue.anchor?.bearingDegrees == -360)
        #expect(venue.floors[0].elevation == -100_000)
        #expect(venue.nodes[0].floor == -2)
        #expect(venue.zones.map(\.id) == ["z", "y"])
    }

    @Test func coordinateLimit() {
        #expect(LocalFrame.limitMeters == 100_000)
        #expect(LocalFrame.problem(meters: 99_999.5) == nil)
        #expect(LocalFrame.problem(meters: -100_000) == nil)
        #expect(LocalFrame.problem(meters: 100_000.5) == "is more than 100 km from the origin")
        #expect(LocalFrame.problem(meters: .nan) == "is not a finite number")
        #expect(LocalFrame.problem(meters: -.infinity) == "is not a finite number")
    }

    // MARK: Sightings

    @Test func rssiRange() {
        #expect(Sighting.physicalRSSIRange == -130...20)
        #expect(Sighting.advertisedTxPowerRange == -128...127)
        #expect(Sighting.rssiProblem(dBm: -70) == nil)
        #expect(Sighting.rssiProblem(dBm: -130) == nil)
        #expect(Sighting.rssiProblem(dBm: 20) == nil)
        #expect(Sighting.rssiProblem(dBm: 1000) == "rssi '1000' is outside the physical range −130…20 dBm")
        #expect(Sighting.rssiProblem(dBm: -130.5) == "rssi '-130.5' is outside the physical range −130…20 dBm")
        #expect(Sighting.rssiProblem(dBm: .nan) == "rssi 'nan' is not a finite number")
        #expect(Sighting.txPowerProblem(dBm: -59) == nil)
        #expect(Sighting.txPowerProblem(dBm: 300) == "tx '300' is outside the advertised power range −128…127 dBm")
    }

    @Test(
        "a sighting made in code is checked with the readers' words",
        arguments: [
            (Sighting(time: 1, device: "d", node: "n", rssi: -70, txPower: -59), nil),
            (
                Sighting(time: 1, device: "d", node: "n", rssi: 1000),
                "rssi '1000' is outside the physical range −130…20 dBm"
            ),
            (Sighting(time: 1, device: "d", node: "n", rssi: .infinity), "rssi 'inf' is not a finite number"),
            (
                Sighting(time: 1, device: "d", node: "n", rssi: -70, txPower: -200),
                "tx '-200' is outside the advertised power range −128…127 dBm"
            ),
            (Sighting(time: .nan, device: "d", node: "n", rssi: -70), "t 'nan' is not a finite number"),
            (Sighting(time: 1, device: "", node: "n", rssi: -70), "device is empty"),
            (Sighting(time: 1, device: "d", node: "", rssi: -70), "node is empty"),
        ] as [(Sighting, String?)])
    func sightingProblem(sighting: Sighting, message: String?) {
        #expect(sighting.problem == message)
    }

    @Test("an RSSI of +1000 dBm is refused by the CSV reader; the good rows are kept")
    func csvRefusesImpossibleRSSI() throws {
        let text = "t,device,node,rssi,tx\n1,d,n,-70,\n2,d,n,1000,\n3,d,n,-71,-59\n4,d,n,-72,300\n5,d,n,-131,\n"
        let parsed = try DatasetCSV.parseSightings(text, file: "walk.csv")
        #expect(parsed.rows.map(\.time) == [1, 3])
        #expect(
            parsed.problems.map(\.description) == [
                "walk.csv:3: rssi '1000' is outside the physical range −130…20 dBm",
                "walk.csv:5: tx '300' is outside the advertised power range −128…127 dBm",
                "walk.csv:6: rssi '-131' is outside the physical range −130…20 dBm",
            ])
        #expect(parsed.problems.allSatisfy { $0.code == .invalidValue })
    }

    @Test("an RSSI of +1000 dBm is refused by the JSON Lines reader; the good lines are kept")
    func jsonLinesRefuseImpossibleRSSI() {
        let text = """
            {"t":1,"device":"d","node":"n","rssi":-70}
            {"t":2,"device":"d","node":"n","rssi":1000}
            {"t":3,"device":"d","node":"n","rssi":-71,"tx":-59}
            {"t":4,"device":"d","node":"n","rssi":-72,"tx":300}
            {"t":5,"device":"d","node":"n","rssi":1e999}
            """
        let parsed = SightingsJSONLines.parse(text, file: "live.jsonl")
        #expect(parsed.rows.map(\.time) == [1, 3])
        #expect(
            parsed.problems.map(\.description) == [
                "live.jsonl:2: rssi '1000' is outside the physical range −130…20 dBm",
                "live.jsonl:4: tx '300' is outside the advertised power range −128…127 dBm",
                "live.jsonl:5: rssi '1e999' is not a finite number",
            ])
    }

    // MARK: nodes.csv and headers

    @Test(
        "a node coordinate beyond 100 km, or not finite, is refused naming the row",
        arguments: [
            (
                "id,x,y,z,floor\na,1,2,,\nb,3,4,,\nc,5,6,,\nd,1000000,8,,\n",
                "nodes.csv:5: x '1000000' is more than 100 km from the origin"
            ),
            ("id,x,y,z,floor\na,1,-1e6,,\n", "nodes.csv:2: y '-1e6' is more than 100 km from the origin"),
            ("id,x,y,z,floor\na,1,2,200000,\n", "nodes.csv:2: z '200000' is more than 100 km from the origin"),
            ("id,x,y,z,floor\na,1e999,2,,\n", "nodes.csv:2: x '1e999' is not a number"),
        ])
    func absurdNodeCoordinates(text: String, message: String) throws {
        let parsed = try DatasetCSV.parseNodes(text, file: "nodes.csv")
        #expect(parsed.problems.map(\.description) == [message])
        #expect(parsed.rows.count == text.split(separator: "\n").count - 2)
    }

    @Test func repeatedColumnIsRefused() {
        #expect(
            throws: FormatError(
                code: .invalidValue, file: "nodes.csv", line: 1,
                message: "header names column 'x' twice (columns 2 and 4); rename or remove one")
        ) {
            try DatasetCSV.parseNodes("id,x,y,x,floor\na,1,2,3,0\n", file: "nodes.csv")
        }
        #expect(throws: FormatError.self) {
            try DatasetCSV.parseSightings("t,device,node,rssi, rssi\n1,d,n,-70,-71\n")
        }
        // Columns without a name (a trailing comma) are ignored, not repeated.
        #expect(
            (try? DatasetCSV.parseSightings("t,device,node,rssi,,\n1,d,n,-70,,\n").rows.count) == 1)
    }

    @Test("an empty sightings file is an error in either format")
    func emptySightingsFiles() {
        for text in ["", "\n", " \r\n\n"] {
            #expect(throws: FormatError.self) { try DatasetCSV.parseSightings(text, file: "walk.csv") }
            let parsed = SightingsJSONLines.parse(text, file: "walk.jsonl")
            #expect(parsed.rows.isEmpty)
            #expect(
                parsed.problems.map(\.description) == [
                    "walk.jsonl:1: file is empty; expected one JSON sighting object per line"
                ])
            #expect(throws: FormatError.self) { try parsed.get() }
        }
        // A header without rows is a file of no sightings, not an error.
        #expect((try? DatasetCSV.parseSightings("t,device,node,rssi\n").problems.isEmpty) == true)
    }
}
