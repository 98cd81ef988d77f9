import Foundation
import IndoorModel
import Testing

@testable import IndoorCommands

/// `indoor venue check` and `indoor venue export --geojson`.
@Suite("indoor venue")
struct VenueCommandTests {
    static let json = """
        {"id": "hq", "name": "HQ", "anchor": {"latitude": 52.5, "longitude": 13.4, "bearingDegrees": 90},
         "floors": [{"level": 0, "outline": [[0, 0], [20, 0], [20, 10], [0, 10]]}, {"level": 1}],
         "nodes": [{"id": "a", "x": 1, "y": 1, "floor": 0}, {"id": "b", "x": 1, "y": 1, "floor": 0},
                   {"id": "c", "x": 25, "y": 3, "floor": 0}],
         "zones": [{"id": "far", "name": "Far", "fences": [{"polygon": [[80, 0], [90, 0], [90, 5]], "floor": 0}]},
                   {"id": "near", "name": "Near", "fences": [{"center": [5, 5], "radius": 2}]}]}
        """

    @Test func eachMistakeThatReadsIsAWarningNamingItsPath() throws {
        let venue = try Venue.decodeJSON(Data(Self.json.utf8))
        #expect(
            VenueCheck(venue: venue).warnings == [
                "floors[1] (level 1): no node is on this floor",
                "nodes[1] ('b') is at the same place as nodes[0] ('a'), (1, 1): a copied coordinate?",
                "nodes[2] ('c') at (25, 3) is outside floor 0's outline (5 m from it)",
                "zones[0].fences[0] (zone 'far'): the nearest node is 55.1 m away; beyond 30 m no node can hear a "
                    + "device inside it",
            ])
    }

    @Test("a node on a floor's other outline is on the floor; one in the floor's courtyard is not")
    func nodesOnAFloorOfSeveralOutlines() throws {
        let venue = try Venue.decodeJSON(
            Data(
                #"""
                {"id": "v", "floors": [{"level": 0, "outline": [[0, 0], [30, 0], [30, 30], [0, 30]],
                  "holes": [[[10, 10], [20, 10], [20, 20], [10, 20]]],
                  "otherOutlines": [[[50, 0], [60, 0], [60, 10], [50, 10]]]}],
                 "nodes": [{"id": "wing", "x": 55, "y": 5, "floor": 0}, {"id": "court", "x": 15, "y": 13, "floor": 0},
                           {"id": "hall", "x": 5, "y": 5, "floor": 0}]}
                """#.utf8))
        #expect(
            VenueCheck(venue: venue).warnings == [
                "nodes[1] ('court') at (15, 13) is outside floor 0's outline (3 m from it)"
            ])
    }

    @Test func aTidyVenueHasNoWarnings() throws {
        let venue = try Venue.decodeJSON(
            Data(
                #"{"id":"v","floors":[{"level":0,"outline":[[0,0],[10,0],[10,10],[0,10]]}],"nodes":[{"id":"a","x":2,"y":2},{"id":"b","x":8,"y":8}],"zones":[{"id":"z","name":"Z","fences":[{"polygon":[[0,0],[5,0],[5,5]]}]}]}"#
                    .utf8))
        #expect(VenueCheck(venue: venue).warnings.isEmpty)
    }

    @Test func theGeoJSONHasFloorsRoomsAndNodesOnTheEarth() throws {
        let venue = try Venue.decodeJSON(Data(Self.json.utf8))
        let data = try JSONFormat.encoder().encode(try VenueGeoJSON(venue))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["type"] as? String == "FeatureCollection")
        let features = try #require(object["features"] as? [[String: Any]])
        let kinds = features.map { ($0["properties"] as? [String: Any])?["kind"] as? String ?? "" }
        #expect(kinds == ["floor", "room", "room", "node", "node", "node"])
        // Node a at (1, 1) as the anchor places it: longitude first.
        let a = try #require(features.first { ($0["properties"] as? [String: Any])?["id"] as? String == "a" })
        let position = try #require((a["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        let expected = try #require(venue.anchor).coordinate(of: Point2D(x: 1, y: 1))
        #expect(abs(position[0] - expected.longitude) < 1e-8 && abs(position[1] - expected.latitude) < 1e-8)
        // Rings are closed; the circle became 64 sides.
        let rings = features.compactMap { ($0["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]] }
        for ring in rings { #expect(ring[0].first == ring[0].last) }
        #expect(rings.map { $0[0].count } == [5, 4, 65])
    }

    @Test("the GeoJSON has each wall and each doorway (room boundary no wall covers) as a LineString")
    func theGeoJSONHasWallsAndDoors() throws {
        let venue = VenueExportCommandTests.venue
        let data = try JSONFormat.encoder().encode(try VenueGeoJSON(venue))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let features = try #require(object["features"] as? [[String: Any]])
        func properties(_ feature: [String: Any]) -> [String: Any] { feature["properties"] as? [String: Any] ?? [:] }
        let walls = features.filter { properties($0)["kind"] as? String == "wall" }
        let doors = features.filter { properties($0)["kind"] as? String == "door" }
        #expect(walls.count == 6)
        #expect(doors.count == 1)
        let door = try #require(doors.first)
        #expect((door["geometry"] as? [String: Any])?["type"] as? String == "LineString")
        #expect(properties(door)["level"] as? Int == 0 && properties(door)["id"] as? String == "0/0")
        // The door is the 1 m gap at x 5 between the west and east rooms.
        let ends = try #require((door["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        let anchor = try #require(venue.anchor)
        let points = ends.map { anchor.point(of: GeoCoordinate(latitude: $0[1], longitude: $0[0])) }
        #expect(points.allSatisfy { abs($0.x - 5) < 1e-3 })
        #expect(abs(abs(points[0].y - points[1].y) - 1) < 1e-3)
    }

    @Test("a floor of two outlines is a MultiPolygon; holes are inner rings, clockwise")
    func theGeoJSONKeepsOutlinesAndHoles() throws {
        var venue = try Venue.decodeJSON(Data(Self.json.utf8))
        venue.floors[0].otherOutlines = [.rectangle(from: .init(x: 30, y: 0), to: .init(x: 40, y: 10))]
        venue.floors[0].holes = [.rectangle(from: .init(x: 5, y: 2), to: .init(x: 8, y: 4))]
        let data = try JSONFormat.encoder().encode(try VenueGeoJSON(venue))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let floor = try #require((object["features"] as? [[String: Any]])?.first)
        let geometry = try #require(floor["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "MultiPolygon")
        let polygons = try #require(geometry["coordinates"] as? [[[[Double]]]])
        #expect(polygons.map(\.count) == [2, 1])
        // The hole's ring turns clockwise: a negative shoelace sum.
        let hole = polygons[0][1]
        let twice = zip(hole, hole.dropFirst()).reduce(0.0) { $0 + $1.0[0] * $1.1[1] - $1.1[0] * $1.0[1] }
        #expect(twice < 0)
    }

    @Test func aVenueWithoutAnAnchorCannotBeGeoJSON() throws {
        let venue = try Venue.decodeJSON(Data(#"{"id":"v","nodes":[{"id":"a","x":0,"y":0}]}"#.utf8))
        #expect(throws: CommandFailure.self) { try VenueGeoJSON(venue) }
    }
}

@Suite("indoor venue check: errors")
struct VenueCheckErrorTests {
    @Test func eachBadItemIsALineOfItsOwn() {
        let json = """
            {"id": "v", "nodes": [{"id": "a", "x": "east", "y": 0}, {"id": "b", "x": 1, "y": 2},
              {"id": "c", "y": 2}], "zones": [{"id": "z", "name": "Z", "fences": [{"center": [0, 0], "radius": -1}]}]}
            """
        #expect(
            VenueCheck.errors(in: Data(json.utf8), file: "v.json") == [
                "v.json: nodes[0].x: expected a number", "v.json: nodes[2]: missing field 'x'",
                "v.json: zones[0].fences[0].radius: radius must be a positive number of metres",
            ])
    }

    @Test func aProblemBetweenItemsIsSaidWhenEachReads() {
        let json = #"{"id": "v", "nodes": [{"id": "a", "x": 0, "y": 0}, {"id": "a", "x": 1, "y": 0}]}"#
        let errors = VenueCheck.errors(in: Data(json.utf8), file: "v.json")
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("v.json: nodes[1]") == true, "\(errors)")
    }

    @Test func aVenueThatReadsHasNoErrors() {
        #expect(VenueCheck.errors(in: Data(VenueCommandTests.json.utf8), file: "v.json").isEmpty)
    }
}
