import Foundation
import IndoorModel
import IndoorServer
import Testing

/// A proximity UUID for the beacon identities of the examples.
private let uuidText = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

/// The OpenAPI document's schemas of a venue's `floors`, `nodes` and `zones` (with their fences, beacons and
/// geolines) against what `Floor`, `Node` and `Zone` write and read: the JSON the types write conforms and uses only
/// keys the schemas name, and the schemas and `Venue.decodeJSON` take and refuse the same values.
@Suite struct VenueContentSchemaTests {
    static let square = Polygon.rectangle(from: Point2D(x: 0, y: 0), to: Point2D(x: 10, y: 10))

    /// A venue that uses every key of a floor, a node and a zone: floors with walls and with a default elevation,
    /// beacon nodes and gateways with and without calibration, zones with circle and polygon fences, zone beacons
    /// named by node and by identity at each wildcard level, geolines with and without id and floor, every optional
    /// zone field set, and zones with the defaults.
    static func fullVenue() throws -> Venue {
        let uuid = try #require(UUID(uuidString: uuidText))
        let floors = [
            Floor(
                level: 0, name: "Ground", outline: square,
                walls: [Segment(from: Point2D(x: 0, y: 5), to: Point2D(x: 6, y: 5))]),
            Floor(
                level: -1, name: "Basement", outline: square, walls: [], elevation: -4,
                otherOutlines: [Polygon.rectangle(from: Point2D(x: 20, y: 0), to: Point2D(x: 25, y: 5))],
                holes: [Polygon.rectangle(from: Point2D(x: 7, y: 7), to: Point2D(x: 8, y: 8))], shortName: "B",
                category: "parking", building: "Main"),
            Floor(level: 1, name: "Roof", outline: Polygon([])),
        ]
        let nodes = [
            Node(
                id: "b1", beacon: BeaconID(uuid: uuid, major: 1, minor: 42), position: Point3D(x: 1, y: 1, z: 2.5),
                floor: 0, calibration: NodeCalibration(rssiAtOneMeter: -59, pathLossExponent: 2.2)),
            Node(
                id: "b2", beacon: BeaconID(uuid: uuid, major: 65535, minor: 0),
                position: Point3D(x: -100_000, y: 100_000, z: 0)),
            Node(id: "gateway", position: Point3D(x: 5, y: 5, z: 3), floor: -1),
            Node(
                id: "gateway-calibrated", position: Point3D(x: 6, y: 5, z: 3), floor: 1,
                calibration: NodeCalibration(rssiAtOneMeter: -130, pathLossExponent: 0.5)),
        ]
        let lobby = Zone(
            id: "lobby", name: "Lobby",
            fences: [
                .circle(center: Point2D(x: 2, y: 2), radius: 1.5, floor: 0, id: "desk"),
                .polygon(
                    square, floor: 0, holes: [Polygon.rectangle(from: Point2D(x: 7, y: 7), to: Point2D(x: 8, y: 8))]),
                .circle(center: Point2D(x: 3, y: 3), radius: 100_000),
            ],
            beacons: [
                ZoneBeacon(node: "b1", checkIn: .immediate),
                ZoneBeacon(beacon: BeaconCondition(uuid: uuid), checkIn: .far),
                ZoneBeacon(beacon: BeaconCondition(uuid: uuid, major: 1)),
                ZoneBeacon(node: "b2", beacon: BeaconCondition(BeaconID(uuid: uuid, major: 1, minor: 43))),
            ],
            geolines: [
                ZoneGeoline(id: "gate", floor: 0, points: [Point2D(x: 0, y: 0), Point2D(x: 0, y: 10)]),
                ZoneGeoline(points: [Point2D(x: 1, y: 1), Point2D(x: 2, y: 2), Point2D(x: 3, y: 1)]),
            ],
            checkOutEnabled: false, checkOutMargin: 2, checkOutTime: 0, exitDelay: 0.5, lostTimeout: nil,
            dwellThreshold: 30, retriggerTime: 60, data: ["colour": "blue", "": ""], isEnabled: false)
        return Venue(
            id: "hq", name: "HQ", floors: floors, nodes: nodes,
            zones: [
                lobby, Zone(id: "kitchen", name: "Kitchen"),
                Zone(id: "hall", name: "Hall", lostTimeout: 0, dwellThreshold: 0),
            ],
            anchor: GeoAnchor(origin: GeoCoordinate(latitude: 52.5, longitude: 13.4), bearingDegrees: 12),
            connections: [
                FloorConnection(
                    id: "lift", kind: .lift, levels: [-1, 0, 1], shape: .circle(center: Point2D(x: 8, y: 8), radius: 1))
            ],
            persons: [Person(id: "anna", name: "Anna", devices: ["anna-phone", "anna-watch"])])
    }

    /// The union of the keys of `objects`.
    static func writtenKeys(_ objects: [JSONValue]) -> Set<String> {
        var keys = Set<String>()
        for object in objects {
            guard case .object(let members) = object else { continue }
            keys.formUnion(members.keys)
        }
        return keys
    }

    /// The names of the properties of the component schema `name`.
    static func declaredKeys(_ name: String) throws -> Set<String> {
        guard case .object(let properties) = try VenueSchemaTests.schema(name)["properties"] else {
            Issue.record("the schema \(name) has no properties")
            return []
        }
        return Set(properties.keys)
    }

    @Test func aVenueWithFloorsNodesAndZonesConformsAsWritten() throws {
        let venue = try Self.fullVenue()
        let written = try venue.encodeJSON()
        let json = try JSONValue.parse(written)
        let validator = try VenueSchemaTests.validator()
        #expect(validator.problems(json, schema: "Venue") == [])
        #expect(validator.undeclaredKeys(json, schema: "Venue") == [])
        #expect(try Venue.decodeJSON(written) == venue)

        // Every key of the schemas is one the types write (the full venue writes them all), and no other.
        let floors = json["floors"]?.array ?? []
        let nodes = json["nodes"]?.array ?? []
        let zones = json["zones"]?.array ?? []
        #expect([floors.count, nodes.count, zones.count] == [Int]([3, 4, 3]))
        let fences = zones.flatMap { $0["fences"]?.array ?? [] }
        let beacons = zones.flatMap { $0["beacons"]?.array ?? [] }
        let geolines = zones.flatMap { $0["geolines"]?.array ?? [] }
        #expect([fences.count, beacons.count, geolines.count] == [Int]([3, 4, 2]))
        let groups: [(String, [JSONValue])] = [
            ("Floor", floors), ("Node", nodes), ("Zone", zones), ("ZoneFence", fences), ("ZoneBeacon", beacons),
            ("ZoneGeoline", geolines), ("Person", json["persons"]?.array ?? []),
        ]
        for (name, objects) in groups {
            #expect(Self.writtenKeys(objects) == (try Self.declaredKeys(name)), "the keys of \(name)")
        }
        // A zone without a lost timeout is written with `null`, which the schema takes.
        #expect(zones.first?["lostTimeout"] == .null)
    }

    /// The defaults the schemas state are the values the decoder gives a key left out (read back as written).
    @Test func theSchemaDefaultsAreTheDecoderDefaults() throws {
        let venue = try Venue.decodeJSON(
            Data(
                #"""
                {"id": "v", "floors": [{"level": 2}], "nodes": [{"id": "n", "x": 0, "y": 0}],
                 "zones": [{"id": "z", "beacons": [{"node": "n"}]}]}
                """#.utf8))
        let json = try JSONValue.parse(try venue.encodeJSON())
        let examples: [(String, JSONValue?)] = [
            ("Node", json["nodes"]?.array?.first), ("Zone", json["zones"]?.array?.first),
            ("ZoneBeacon", json["zones"]?.array?.first?["beacons"]?.array?.first),
        ]
        var defaults = 0
        for (name, example) in examples {
            let object = try #require(example)
            guard case .object(let properties) = try VenueSchemaTests.schema(name)["properties"] else { continue }
            for (key, schema) in properties {
                guard let value = schema["default"] else { continue }
                #expect(object[key] == value, "\(name).\(key): the schema's default \(value), the decoder's \(object)")
                defaults += 1
            }
        }
        #expect(defaults == 9)
        let floor = try #require(json["floors"]?.array?.first)
        #expect(floor["name"] == .string("Level 2"))
        #expect(floor["elevation"] == .number(7))
        #expect(json["zones"]?.array?.first?["name"] == .string("z"))
    }

    @Test func theSchemaOfAZoneBeaconListsEveryCheckInProximity() throws {
        let proximities = try #require(
            try VenueSchemaTests.schema("ZoneBeacon")["properties"]?["checkIn"]?["enum"]?.array)
        #expect(proximities.compactMap(\.string) == Proximity.allCases.filter { $0 != .unknown }.map(\.rawValue))
        #expect(try VenueSchemaTests.schema("Node")["required"] == .array([.string("id"), .string("x"), .string("y")]))
        #expect(try VenueSchemaTests.schema("Floor")["required"] == .array([.string("level")]))
        #expect(try VenueSchemaTests.schema("Zone")["required"] == .array([.string("id")]))
    }

    /// Floors the decoder takes (`true`) or refuses; the schema must say the same of each.
    @Test(arguments: [
        (#"{"level": 0}"#, true),
        (#"{"level": -2, "name": "Basement", "outline": [], "walls": [], "elevation": -7}"#, true),
        (
            #"{"level": 1, "outline": [[0, 0], [10, 0], [10, 10]], "walls": [[[0, 0], [10, 0]], [[1, 1], [1, 1]]]}"#,
            true
        ),
        (#"{"level": 1.0}"#, true),
        (#"{"level": 28571}"#, true),
        (#"{"level": -28571, "outline": [[100000, -100000]]}"#, true),
        (#"{"level": 40000, "elevation": 0}"#, true),
        (#"{"level": -9223372036854775808, "elevation": 100000}"#, true),
        (#"{}"#, false),
        (#"{"name": "Ground"}"#, false),
        (#"{"level": 1.5}"#, false),
        (#"{"level": "1"}"#, false),
        (#"{"level": 0, "name": 3}"#, false),
        (#"{"level": 0, "elevation": 100001}"#, false),
        (#"{"level": 0, "elevation": "3"}"#, false),
        (#"{"level": 0, "outline": [[0, 0, 0]]}"#, false),
        (#"{"level": 0, "outline": [[0, 200000]]}"#, false),
        (#"{"level": 0, "outline": [0, 0]}"#, false),
        (#"{"level": 0, "walls": [[[0, 0]]]}"#, false),
        (#"{"level": 0, "walls": [[0, 0], [1, 1]]}"#, false),
        (#"{"level": 0, "walls": [[[0, 0], [1, 1], [2, 2]]]}"#, false),
        (#"{"level": 0, "walls": [[[0, 0], [1, -100001]]]}"#, false),
    ])
    func theSchemaAndTheDecoderAgreeOnAFloor(floor: String, valid: Bool) throws {
        try VenueSchemaTests.expectAgreement(#"{"id": "v", "floors": [\#(floor)]}"#, valid: valid)
    }

    /// Nodes the decoder takes (`true`) or refuses; the schema must say the same of each.
    @Test(arguments: [
        (#"{"id": "n", "x": 0, "y": 0}"#, true),
        (
            #"{"id": "n", "beacon": "\#(uuidText)/1/42", "x": 1.5, "y": -2, "z": 2.5, "floor": 1, "rssiAt1m": -59, "pathLossExponent": 2}"#,
            true
        ),
        (#"{"id": "n", "x": 100000, "y": -100000, "z": -100000, "rssiAt1m": 20}"#, true),
        (#"{"id": "n", "x": 0, "y": 0, "rssiAt1m": -130}"#, true),
        (#"{"id": "n", "x": 0, "y": 0, "pathLossExponent": 0.1}"#, true),
        (#"{"id": "n", "x": 0, "y": 0, "floor": -3}"#, true),
        (#"{"x": 0, "y": 0}"#, false),
        (#"{"id": "", "x": 0, "y": 0}"#, false),
        (#"{"id": 5, "x": 0, "y": 0}"#, false),
        (#"{"id": "n", "y": 0}"#, false),
        (#"{"id": "n", "x": 0}"#, false),
        (#"{"id": "n", "x": "1", "y": 0}"#, false),
        (#"{"id": "n", "x": 100001, "y": 0}"#, false),
        (#"{"id": "n", "x": 0, "y": -100001}"#, false),
        (#"{"id": "n", "x": 0, "y": 0, "z": 100001}"#, false),
        (#"{"id": "n", "x": 0, "y": 0, "floor": 1.5}"#, false),
        (#"{"id": "n", "x": 0, "y": 0, "floor": "1"}"#, false),
        (#"{"id": "n", "x": 0, "y": 0, "rssiAt1m": -131}"#, false),
        (#"{"id": "n", "x": 0, "y": 0, "rssiAt1m": 21}"#, false),
        (#"{"id": "n", "x": 0, "y": 0, "pathLossExponent": 0}"#, false),
        (#"{"id": "n", "x": 0, "y": 0, "pathLossExponent": -2}"#, false),
        (#"{"id": "n", "x": 0, "y": 0, "beacon": 5}"#, false),
    ])
    func theSchemaAndTheDecoderAgreeOnANode(node: String, valid: Bool) throws {
        try VenueSchemaTests.expectAgreement(#"{"id": "v", "nodes": [\#(node)]}"#, valid: valid)
    }

    /// A node's beacon identities (`UUID` stands for a proximity UUID) the decoder takes or refuses; the schema
    /// must say the same of each.
    @Test(arguments: [
        ("UUID/1/42", true), ("UUID/0/65535", true), ("UUID/+1/007", true), ("UUID/-0/00000", true),
        ("uuid/1/2", true), ("UUID/65536/1", false), ("UUID/1/99999", false), ("UUID/-1/2", false),
        ("UUID/1", false), ("UUID", false), ("UUID/1/2/3", false), ("UUID/ 1/2", false), ("UUID/1/", false),
        ("UUID/1/2x", false), ("E2C56DB5DFFB48D2B060D0F5A71096E0/1/2", false), ("{UUID}/1/2", false),
        ("E2C56DB5-DFFB-48D2-B060-D0F5A71096EG/1/2", false), ("", false),
    ])
    func theSchemaAndTheDecoderAgreeOnABeaconIdentity(beacon: String, valid: Bool) throws {
        let text = beacon.replacingOccurrences(of: "UUID", with: uuidText)
            .replacingOccurrences(of: "uuid", with: uuidText.lowercased())
        let venue = #"{"id": "v", "nodes": [{"id": "n", "x": 0, "y": 0, "beacon": "\#(text)"}]}"#
        try VenueSchemaTests.expectAgreement(venue, valid: valid)
    }

    /// Zones (their own fields) the decoder takes (`true`) or refuses; the schema must say the same of each.
    @Test(arguments: [
        (#"{"id": "z"}"#, true),
        (
            #"{"id": "z", "name": "Zed", "fences": [], "beacons": [], "geolines": [], "checkOut": false, "checkOutMargin": 0, "checkOutTime": 0, "exitDelay": 0.5, "lostTimeout": null, "dwellThreshold": 0, "retriggerTime": 30, "data": {"k": "v", "": ""}, "enabled": false}"#,
            true
        ),
        (#"{"id": "z", "lostTimeout": 0, "dwellThreshold": 3600, "checkOutMargin": 1e6}"#, true),
        (#"{"id": "z", "lostTimeout": 120, "data": {}}"#, true),
        (#"{}"#, false),
        (#"{"name": "Zed"}"#, false),
        (#"{"id": ""}"#, false),
        (#"{"id": 1}"#, false),
        (#"{"id": "z", "name": 1}"#, false),
        (#"{"id": "z", "lostTimeout": -1}"#, false),
        (#"{"id": "z", "lostTimeout": "60"}"#, false),
        (#"{"id": "z", "exitDelay": 0}"#, false),
        (#"{"id": "z", "exitDelay": -1}"#, false),
        (#"{"id": "z", "checkOutMargin": -0.5}"#, false),
        (#"{"id": "z", "checkOutTime": -1}"#, false),
        (#"{"id": "z", "retriggerTime": -1}"#, false),
        (#"{"id": "z", "dwellThreshold": -1}"#, false),
        (#"{"id": "z", "data": {"k": 1}}"#, false),
        (#"{"id": "z", "data": ["k"]}"#, false),
        (#"{"id": "z", "checkOut": "yes"}"#, false),
        (#"{"id": "z", "enabled": 1}"#, false),
        (#"{"id": "z", "fences": {}}"#, false),
    ])
    func theSchemaAndTheDecoderAgreeOnAZone(zone: String, valid: Bool) throws {
        try VenueSchemaTests.expectAgreement(#"{"id": "v", "zones": [\#(zone)]}"#, valid: valid)
    }

    /// Fences the decoder takes (`true`) or refuses; the schema must say the same of each.
    @Test(arguments: [
        (#"{"center": [1, 1], "radius": 2}"#, true),
        (#"{"id": "desk", "floor": -1, "center": [-100000, 100000], "radius": 100000}"#, true),
        (#"{"polygon": [[0, 0], [4, 0], [4, 4], [0, 4]]}"#, true),
        (#"{"polygon": [[0, 0], [4, 0], [4, 4], [0, 0]], "floor": 2, "radius": 3}"#, true),
        (#"{"polygon": [[0, 0], [4, 0], [4, 4]], "center": [1, 1], "radius": 1}"#, false),
        (#"{"polygon": [[0, 0], [4, 0], [4, 4]], "center": [1, 1]}"#, false),
        (#"{}"#, false),
        (#"{"floor": 0}"#, false),
        (#"{"center": [1, 1]}"#, false),
        (#"{"radius": 1}"#, false),
        (#"{"center": [1, 1], "radius": 0}"#, false),
        (#"{"center": [1, 1], "radius": -1}"#, false),
        (#"{"center": [1, 1], "radius": 100001}"#, false),
        (#"{"center": [1], "radius": 1}"#, false),
        (#"{"center": [100001, 1], "radius": 1}"#, false),
        (#"{"polygon": [[0, 0], [4, 0]]}"#, false),
        (#"{"polygon": [[0, 0], [4, 0], [4, 100001]]}"#, false),
        (#"{"id": "", "center": [1, 1], "radius": 1}"#, false),
        (#"{"id": 3, "center": [1, 1], "radius": 1}"#, false),
        (#"{"floor": 1.5, "center": [1, 1], "radius": 1}"#, false),
        (#"{"floor": "0", "center": [1, 1], "radius": 1}"#, false),
    ])
    func theSchemaAndTheDecoderAgreeOnAFence(fence: String, valid: Bool) throws {
        try VenueSchemaTests.expectAgreement(
            #"{"id": "v", "zones": [{"id": "z", "fences": [\#(fence)]}]}"#, valid: valid)
    }

    /// Zone beacons the decoder takes (`true`) or refuses; the schema must say the same of each. (`UUID` stands for
    /// a proximity UUID.)
    @Test(arguments: [
        (#"{"node": "b1"}"#, true),
        (#"{"node": ""}"#, true),
        (#"{"beacon": "UUID"}"#, true),
        (#"{"beacon": "UUID/1", "checkIn": "immediate"}"#, true),
        (#"{"beacon": "UUID/1/2", "checkIn": "far"}"#, true),
        (#"{"node": "b1", "beacon": "UUID/65535", "checkIn": "near"}"#, true),
        (#"{}"#, false),
        (#"{"checkIn": "near"}"#, false),
        (#"{"node": "b1", "checkIn": "unknown"}"#, false),
        (#"{"node": "b1", "checkIn": "close"}"#, false),
        (#"{"node": 1}"#, false),
        (#"{"beacon": "UUID/1/2/3"}"#, false),
        (#"{"beacon": "UUID/65536"}"#, false),
        (#"{"beacon": "UUID/"}"#, false),
        (#"{"beacon": "lobby"}"#, false),
        (#"{"node": "b1", "beacon": ""}"#, false),
    ])
    func theSchemaAndTheDecoderAgreeOnAZoneBeacon(beacon: String, valid: Bool) throws {
        let text = beacon.replacingOccurrences(of: "UUID", with: uuidText)
        try VenueSchemaTests.expectAgreement(
            #"{"id": "v", "zones": [{"id": "z", "beacons": [\#(text)]}]}"#, valid: valid)
    }

    /// Geolines the decoder takes (`true`) or refuses; the schema must say the same of each.
    @Test(arguments: [
        (#"{"points": [[0, 0], [1, 1]]}"#, true),
        (#"{"id": "gate", "floor": 0, "points": [[0, 0], [0, 0], [1, 0]]}"#, true),
        (#"{"id": "", "points": [[-100000, 0], [100000, 0]]}"#, true),
        (#"{}"#, false),
        (#"{"id": "gate"}"#, false),
        (#"{"points": []}"#, false),
        (#"{"points": [[0, 0]]}"#, false),
        (#"{"points": [[0, 0], [1]]}"#, false),
        (#"{"points": [[0, 0], [100001, 0]]}"#, false),
        (#"{"floor": 1.5, "points": [[0, 0], [1, 1]]}"#, false),
        (#"{"id": 3, "points": [[0, 0], [1, 1]]}"#, false),
    ])
    func theSchemaAndTheDecoderAgreeOnAGeoline(geoline: String, valid: Bool) throws {
        try VenueSchemaTests.expectAgreement(
            #"{"id": "v", "zones": [{"id": "z", "geolines": [\#(geoline)]}]}"#, valid: valid)
    }

    /// Rules JSON Schema cannot state: the decoder refuses each venue, the schema takes it, and the description of the
    /// schema named says the rule (in the words given).
    @Test(arguments: [
        (#"{"id": "v", "floors": [{"level": 0}, {"level": 0}]}"#, "Venue", "floor levels"),
        (#"{"id": "v", "nodes": [{"id": "n", "x": 0, "y": 0}, {"id": "n", "x": 1, "y": 1}]}"#, "Venue", "node ids"),
        (#"{"id": "v", "zones": [{"id": "z"}, {"id": "z"}]}"#, "Venue", "zone ids"),
        (
            #"{"id": "v", "zones": [{"id": "z", "fences": [{"polygon": [[0, 0], [2, 2], [2, 0], [0, 2]]}]}]}"#,
            "ZoneFence", "not crossing itself"
        ),
        (
            #"{"id": "v", "zones": [{"id": "z", "fences": [{"polygon": [[0, 0], [1, 1], [2, 2]]}]}]}"#, "ZoneFence",
            "enclosing an area"
        ),
        (
            #"{"id": "v", "zones": [{"id": "z", "fences": [{"polygon": [[0, 0], [1, 1], [0, 0]]}]}]}"#, "ZoneFence",
            "3 distinct vertices"
        ),
        (
            #"{"id": "v", "zones": [{"id": "z", "geolines": [{"points": [[1, 1], [1, 1]]}]}]}"#, "ZoneGeoline",
            "not all the same"
        ),
    ])
    func whatTheSchemaCannotStateItsDescriptionSays(venue: String, schema: String, rule: String) throws {
        #expect(throws: FormatError.self) { try Venue.decodeJSON(Data(venue.utf8)) }
        #expect(try VenueSchemaTests.validator().problems(try JSONValue.parse(venue), schema: "Venue") == [])
        let description = try #require(try VenueSchemaTests.schema(schema)["description"]?.string)
        #expect(description.contains(rule), "\(schema)'s description does not say '\(rule)'")
    }

    /// A floor whose default elevation (level × 3.5 m) would be more than 100 km from the origin: the venue as
    /// written could not be read back (a server restart could not load it), so both the decoder and the schema
    /// refuse it unless it gives an elevation.
    @Test(arguments: [
        (#"{"level": 28572}"#, false), (#"{"level": -28572}"#, false), (#"{"level": 30000, "name": "Sky"}"#, false),
        (#"{"level": 30000, "elevation": 0}"#, true), (#"{"level": -28572, "elevation": 1}"#, true),
        (#"{"level": 28571}"#, true),
    ])
    func aLevelWhoseDefaultElevationLeavesTheFrameNeedsAnElevation(floor: String, valid: Bool) throws {
        let venue = #"{"id": "v", "floors": [\#(floor)]}"#
        try VenueSchemaTests.expectAgreement(venue, valid: valid)
        guard valid else { return }
        let written = try Venue.decodeJSON(Data(venue.utf8)).encodeJSON()
        #expect(try VenueSchemaTests.validator().problems(try JSONValue.parse(written), schema: "Venue") == [])
        #expect(try Venue.decodeJSON(written) == Venue.decodeJSON(Data(venue.utf8)))
    }
}
