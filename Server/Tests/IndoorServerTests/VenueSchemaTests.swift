import Foundation
import IndoorModel
import IndoorServer
import Testing

/// The OpenAPI document's `Venue` schema against what `Venue` (with its `connections` and `geofences`) writes and
/// reads: the JSON the types write conforms, and the schema and the decoder take and refuse the same values.
@Suite struct VenueSchemaTests {
    static func validator() throws -> SchemaValidator {
        SchemaValidator(document: try JSONValue.parse(OpenAPIDocument.json))
    }

    static func schema(_ name: String) throws -> JSONValue {
        try #require(try JSONValue.parse(OpenAPIDocument.json)["components"]?["schemas"]?[name])
    }

    /// Three floors a connection may join.
    static let floors = """
        [{"level": 0, "outline": [[0, 0], [10, 0], [10, 10], [0, 10]]},
         {"level": 1, "outline": [[0, 0], [10, 0], [10, 10], [0, 10]]},
         {"level": 2, "outline": [[0, 0], [10, 0], [10, 10], [0, 10]]}]
        """

    static let square = Polygon.rectangle(from: Point2D(x: 0, y: 0), to: Point2D(x: 10, y: 10))

    @Test func aVenueWithConnectionsAndGeofencesConformsAsWritten() throws {
        let venue = Venue(
            id: "hq", name: "HQ", floors: (0...2).map { Floor(level: $0, name: "Level \($0)", outline: Self.square) },
            zones: [Zone(id: "lobby", name: "Lobby", fences: [.polygon(Self.square, floor: 0)])],
            anchor: GeoAnchor(origin: GeoCoordinate(latitude: 52.5, longitude: 13.4)),
            geofences: ["hq-building", "hq-annex"],
            connections: [
                FloorConnection(
                    id: "stairs-west", levels: [0, 1, 2],
                    shape: .polygon(Polygon.rectangle(from: Point2D(x: 0, y: 4), to: Point2D(x: 2, y: 6)))),
                FloorConnection(
                    id: "lift", kind: .lift, levels: [0, 2], shape: .circle(center: Point2D(x: 8, y: 8), radius: 1.5)),
            ], timeZone: "Europe/Berlin")
        let written = try venue.encodeJSON()
        let json = try JSONValue.parse(written)
        #expect(try Self.validator().problems(json, schema: "Venue") == [])
        #expect(json["timeZone"] == .string("Europe/Berlin"))
        #expect(try Venue.decodeJSON(written) == venue)
        // A time zone the server does not know is refused, naming the field; without one the venue is written
        // without it.
        let refused = String(decoding: written, as: UTF8.self).replacingOccurrences(
            of: "Europe/Berlin", with: "Europe/Atlantis")
        #expect(throws: (any Error).self) { try Venue.decodeJSON(Data(refused.utf8)) }
        var utc = venue
        utc.timeZone = nil
        #expect(try JSONValue.parse(try utc.encodeJSON())["timeZone"] == nil)
        #expect(json["geofences"] == .array([.string("hq-building"), .string("hq-annex")]))
        let connections = try #require(json["connections"]?.array)
        #expect(connections.count == 2)
        #expect(connections.map { $0["kind"] } == [.string("stairs"), .string("lift")])

        // Every key the types write is one the schema names.
        guard case .object(let members) = json else {
            Issue.record("the venue is not a JSON object")
            return
        }
        let venueProperties = try #require(try Self.schema("Venue")["properties"])
        for key in members.keys { #expect(venueProperties[key] != nil, "Venue writes '\(key)', the schema lacks it") }
        let connectionProperties = try #require(try Self.schema("FloorConnection")["properties"])
        for connection in connections {
            guard case .object(let keys) = connection else { continue }
            for key in keys.keys {
                #expect(connectionProperties[key] != nil, "FloorConnection writes '\(key)', the schema lacks it")
            }
        }
        #expect(try Venue.decodeJSON(written) == venue)
    }

    @Test func theSchemaOfAConnectionListsEveryKind() throws {
        let kinds = try #require(try Self.schema("FloorConnection")["properties"]?["kind"]?["enum"]?.array)
        #expect(kinds.compactMap(\.string) == FloorConnection.Kind.allCases.map(\.rawValue))
        let required = try #require(try Self.schema("FloorConnection")["required"]?.array)
        #expect(Set(required.compactMap(\.string)) == ["id", "levels"])
    }

    /// Connections the decoder takes (`true`) or refuses; the schema must say the same of each. (A `null` optional
    /// field, which the decoder reads as absent, is left out: the schema does not offer it.)
    @Test(arguments: [
        (#"{"id": "s", "levels": [0, 1], "polygon": [[0, 0], [2, 0], [2, 2]]}"#, true),
        (#"{"id": "s", "kind": "lift", "levels": [2, 0, 1], "center": [1, 1], "radius": 1.5}"#, true),
        (#"{"id": "s", "kind": "escalator", "levels": [0, 1], "center": [1, 1], "radius": 1}"#, true),
        (#"{"id": "s", "kind": "ramp", "levels": [0, 1], "center": [1, 1], "radius": 100000}"#, true),
        (#"{"id": "s", "levels": [0, 1], "polygon": [[0, 0], [2, 0], [2, 2]], "radius": 3}"#, true),
        (#"{"id": "s", "levels": [0, 1], "polygon": [[0, 0], [2, 0], [2, 2]], "center": [1, 1], "radius": 1}"#, false),
        (#"{"id": "s", "levels": [0, 1]}"#, false),
        (#"{"id": "s", "levels": [0, 1], "center": [1, 1]}"#, false),
        (#"{"id": "s", "levels": [0, 1], "radius": 1}"#, false),
        (#"{"id": "s", "levels": [0, 1], "center": [1, 1], "radius": 0}"#, false),
        (#"{"id": "s", "levels": [0, 1], "center": [1, 1], "radius": 100001}"#, false),
        (#"{"id": "s", "levels": [0, 1], "center": [1, 1, 1], "radius": 1}"#, false),
        (#"{"id": "s", "levels": [0, 1], "center": [100001, 1], "radius": 1}"#, false),
        (#"{"id": "s", "levels": [0, 1], "polygon": [[0, 0], [2, 0]]}"#, false),
        (#"{"id": "", "levels": [0, 1], "center": [1, 1], "radius": 1}"#, false),
        (#"{"levels": [0, 1], "center": [1, 1], "radius": 1}"#, false),
        (#"{"id": "s", "center": [1, 1], "radius": 1}"#, false),
        (#"{"id": "s", "levels": [0], "center": [1, 1], "radius": 1}"#, false),
        (#"{"id": "s", "levels": [1, 1], "center": [1, 1], "radius": 1}"#, false),
        (#"{"id": "s", "levels": [0, 1.5], "center": [1, 1], "radius": 1}"#, false),
        (#"{"id": "s", "kind": "ladder", "levels": [0, 1], "center": [1, 1], "radius": 1}"#, false),
    ])
    func theSchemaAndTheDecoderAgreeOnAConnection(connection: String, valid: Bool) throws {
        let venue = #"{"id": "v", "floors": \#(Self.floors), "connections": [\#(connection)]}"#
        try Self.expectAgreement(venue, valid: valid)
    }

    /// Geofence lists the decoder takes (`true`) or refuses; the schema must say the same of each.
    @Test(arguments: [
        (#"[]"#, true), (#"["hq"]"#, true), (#"["hq", "annex"]"#, true), (#"[""]"#, false),
        (#"["hq", "hq"]"#, false), (#"[1]"#, false), (#""hq""#, false),
    ])
    func theSchemaAndTheDecoderAgreeOnGeofences(geofences: String, valid: Bool) throws {
        try Self.expectAgreement(#"{"id": "v", "geofences": \#(geofences)}"#, valid: valid)
    }

    /// Expects `Venue.decodeJSON` to take `venue` exactly when `valid`, and the schema `Venue` to say the same.
    static func expectAgreement(_ venue: String, valid: Bool) throws {
        let decoded: Bool
        do {
            _ = try Venue.decodeJSON(Data(venue.utf8))
            decoded = true
        } catch {
            decoded = false
        }
        let problems = try Self.validator().problems(try JSONValue.parse(venue), schema: "Venue")
        #expect(decoded == valid, "Venue.decodeJSON \(decoded ? "takes" : "refuses") \(venue)")
        #expect(problems.isEmpty == valid, "the schema \(problems.isEmpty ? "takes" : "refuses") \(venue): \(problems)")
    }
}
