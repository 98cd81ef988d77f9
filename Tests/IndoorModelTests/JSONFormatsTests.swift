import Foundation
import Testing

@testable import IndoorModel

@Suite("JSON formats")
struct JSONFormatsTests {
    static let beacon = BeaconID(
        uuid: UUID(
            uuid: (0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0)),
        major: 0, minor: 1)

    static let venue = Venue(
        id: "hq", name: "Head office",
        floors: [
            Floor(
                level: 0, name: "Ground floor",
                outline: .rectangle(from: Point2D(x: 0, y: 0), to: Point2D(x: 20, y: 10)),
                walls: [Segment(from: Point2D(x: 10, y: 0), to: Point2D(x: 10, y: 8))]),
            Floor(
                level: 1, name: "First floor",
                outline: .rectangle(from: Point2D(x: 0, y: 0), to: Point2D(x: 20, y: 10)),
                elevation: 4),
        ],
        nodes: [
            Node(
                id: "b0-1", beacon: beacon, position: Point3D(x: 2.5, y: 0.05, z: 2.2), floor: 0,
                calibration: NodeCalibration(rssiAtOneMeter: -61.5, pathLossExponent: 2.2)),
            Node(id: "gw-1", position: Point3D(x: 15, y: 9, z: 2.5), floor: 1),
        ],
        zones: [Zone(id: "lobby", name: "Lobby")],
        anchor: GeoAnchor(origin: GeoCoordinate(latitude: 52.520008, longitude: 13.404954), bearingDegrees: 20))

    @Test func venueRoundTrips() throws {
        let data = try Self.venue.encodeJSON()
        #expect(try Venue.decodeJSON(data) == Self.venue)
        // Encoding is stable: the same venue always gives the same bytes.
        #expect(try Self.venue.encodeJSON() == data)
    }

    @Test func minimalVenueGetsDefaults() throws {
        let venue = try Venue.decodeJSON(
            Data(#"{"id":"v","floors":[{"level":2}],"nodes":[{"id":"a","x":1,"y":2}]}"#.utf8))
        #expect(venue.name == "")
        #expect(venue.floors.first?.name == "Level 2")
        #expect(venue.floors.first?.elevation == 7)
        #expect(venue.nodes.first?.position == Point3D(x: 1, y: 2, z: 0))
        #expect(venue.nodes.first?.calibration == nil)
        #expect(venue.anchor == nil)
    }

    @Test(arguments: [
        (
            #"{"id":"v","nodes":[{"id":"a","x":1,"y":2},{"id":"b","x":1,"y":2},{"id":"c","x":"east","y":2}]}"#,
            "venue.json: nodes[2].x: expected a number"
        ),
        (#"{"id":"v","nodes":[{"id":"a","y":2}]}"#, "venue.json: nodes[0]: missing field 'x'"),
        (#"{"name":"v"}"#, "venue.json: missing field 'id'"),
        (
            #"{"id":"v","floors":[{"level":0,"walls":[[[0,0],[1]]]}]}"#,
            "venue.json: floors[0].walls[0][1]: a point is [x, y]: exactly two numbers in metres"
        ),
        (
            #"{"id":"v","nodes":[{"id":"a","x":1,"y":2,"beacon":"nope"}]}"#,
            "venue.json: nodes[0].beacon: beacon identity 'nope' is not UUID/major/minor"
        ),
        (
            #"{"id":"v","nodes":[{"id":"a","x":1,"y":2},{"id":"a","x":3,"y":4}]}"#,
            "venue.json: nodes[1]: node id 'a' is used twice"
        ),
        (
            #"{"id":"v","floors":[{"level":0},{"level":1},{"level":0}]}"#,
            "venue.json: floors[2]: floor level 0 is used twice"
        ),
        (
            #"{"id":"v","anchor":{"latitude":100,"longitude":0}}"#,
            "venue.json: anchor.latitude: latitude 100.0 is not in -90...90"
        ),
        (
            #"{"id":"v","nodes":[{"id":"a","x":1,"y":2,"pathLossExponent":-1}]}"#,
            "venue.json: nodes[0].pathLossExponent: pathLossExponent must be a positive number"
        ),
    ])
    func venueErrorsNameThePath(json: String, message: String) throws {
        let error = try #require(throws: FormatError.self) { try Venue.decodeJSON(Data(json.utf8)) }
        #expect(error.code == .invalidJSON)
        #expect(error.file == "venue.json")
        #expect(error.message == String(message.dropFirst("venue.json: ".count)))
        #expect("\(error)" == message)
        // The field's path is data too, the same path the message starts with.
        if let field = error.field { #expect(error.message.hasPrefix(field)) }
    }

    @Test func brokenJSONIsReported() throws {
        let error = try #require(throws: FormatError.self) { try Venue.decodeJSON(Data("{\"id\": ".utf8)) }
        #expect(error.description == "venue.json: line 1, column 8: unexpected end of input; expected a value")
    }

    @Test func sightingsJSONLinesRoundTrip() throws {
        let sightings = [
            Sighting(time: 12.5, device: "phone-1", node: "b0-1", rssi: -70),
            Sighting(time: 13, device: "phone-1", source: .beacon(Self.beacon), rssi: -81, txPower: -59),
        ]
        let text = try SightingsJSONLines.text(sightings)
        #expect(
            text == """
                {"device":"phone-1","node":"b0-1","rssi":-70,"t":12.5}
                {"beacon":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/0/1","device":"phone-1","rssi":-81,"t":13,"tx":-59}

                """)
        let parsed = SightingsJSONLines.parse(text)
        #expect(parsed.problems.isEmpty)
        #expect(parsed.rows == sightings)
    }

    @Test func sightingsJSONLinesKeepGoodLines() {
        let text = """
            {"t":1,"device":"d","node":"n","rssi":-70}\r
            {"t":2,"device":"d","node":"n","rssi":"loud"}

            {"t":3,"device":"d","rssi":-70}
            not json
            {"t":4,"device":"d","node":"n","rssi":-72}
            """
        let parsed = SightingsJSONLines.parse(text, file: "live.jsonl")
        #expect(parsed.rows.map(\.time) == [1, 4])
        #expect(
            parsed.problems.map(\.description) == [
                "live.jsonl:2: rssi: expected a number",
                "live.jsonl:4: missing field 'node'",
                parsed.problems.count > 2 ? parsed.problems[2].description : "",
            ])
        #expect(parsed.problems.count == 3)
        #expect(
            parsed.problems.last?.description == "live.jsonl:5: column 1: expected a value, found 'n' (not 'null')")
    }

    @Test(arguments: [
        (#"{"t":1,"device":"","node":"n","rssi":-70}"#, "s.jsonl:1: device is empty"),
        (#"{"t":1,"device":"d","node":"","rssi":-70}"#, "s.jsonl:1: node is empty"),
        (
            #"{"t":1,"device":"d","beacon":"x/1/2","rssi":-70}"#,
            "s.jsonl:1: beacon: beacon identity 'x/1/2': 'x' is not a UUID"
        ),
        (#"{"device":"d","node":"n","rssi":-70}"#, "s.jsonl:1: missing field 't'"),
    ])
    func badSightingLines(line: String, message: String) {
        let parsed = SightingsJSONLines.parse(line, file: "s.jsonl")
        #expect(parsed.rows.isEmpty)
        #expect(parsed.problems.map(\.description) == [message])
    }

    @Test func fixRoundTrips() throws {
        let fix = Fix(
            time: 300, device: "walker-1", position: Point3D(x: 15, y: 9, z: 1.2), floor: 0, accuracy: 2.5,
            confidence: 0.5, method: "weighted-centroid",
            coordinate: GeoCoordinate(latitude: 52.520038, longitude: 13.405206))
        let data = try JSONFormat.encoder().encode(fix)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"accuracy":2.5,"confidence":0.5,"device":"walker-1","floor":0,"latitude":52.520038,"longitude":13.405206,"method":"weighted-centroid","t":300,"x":15,"y":9,"z":1.2}"#
        )
        #expect(try JSONDecoder().decode(Fix.self, from: data) == fix)
    }
}

@Suite("Fix JSON precision")
struct FixPrecisionTests {
    @Test func lengthsAreWrittenToTheMillimetreAndDegreesToAbout1mm() throws {
        let fix = Fix(
            time: 48.900000000000006, device: "d", position: Point3D(x: 11.374000000000024, y: -2.0004999, z: 1.2),
            accuracy: 2.12345, confidence: 0.87654321, method: "knn",
            coordinate: GeoCoordinate(latitude: 52.520038123456, longitude: 13.405206987654))
        let text = String(decoding: try JSONFormat.encoder().encode(fix), as: UTF8.self)
        #expect(
            text
                == #"{"accuracy":2.123,"confidence":0.877,"device":"d","latitude":52.52003812,"longitude":13.40520699,"method":"knn","t":48.900000000000006,"x":11.374,"y":-2,"z":1.2}"#
        )
    }
}
