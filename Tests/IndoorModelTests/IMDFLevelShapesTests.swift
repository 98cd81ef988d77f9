import Foundation
import Testing

@testable import IndoorModel

/// Levels drawn as several polygons, levels and units with holes, building and level names: what hand-drawn archives
/// hold, kept whole, and given back by an export.
@Suite("IMDF import: levels of several polygons, holes, building and level names")
struct IMDFLevelShapesTests {
    typealias Archive = IMDFHandMadeArchive

    /// A campus: level 0 two wings 20 m apart (two buildings), level 1 a building round a 10 m courtyard plus a stair
    /// tower over the east wing's stairs; the corridor of level 1 runs round the courtyard (a unit with a hole), with
    /// a door into the courtyard.
    static func campus() -> Archive {
        var archive = Archive()
        archive.buildings = [("b-west", "West wing"), ("b-east", "East wing")]
        archive.levels = [
            Archive.Level(
                id: "L0", ordinal: 0,
                shapes: [.init(outer: Archive.box(0, 0, 20, 10)), .init(outer: Archive.box(40, 0, 60, 10))],
                name: "Ground floor", shortName: "G", buildings: ["b-west", "b-east"]),
            Archive.Level(
                id: "L1", ordinal: 1,
                shapes: [
                    .init(outer: Archive.box(0, 0, 30, 30), holes: [Archive.box(10, 10, 20, 20)]),
                    .init(outer: Archive.box(50, 0, 60, 10)),
                ],
                name: "First floor", shortName: "1", category: "parking", buildings: ["b-west"]),
        ]
        archive.units = [
            Archive.Unit(id: "W1", level: "L0", shapes: [.init(outer: Archive.box(0, 0, 10, 10))], name: "West 1"),
            Archive.Unit(id: "W2", level: "L0", shapes: [.init(outer: Archive.box(10, 0, 20, 10))], name: "West 2"),
            Archive.Unit(id: "E1", level: "L0", shapes: [.init(outer: Archive.box(40, 0, 50, 10))], name: "East 1"),
            Archive.Unit(
                id: "E2", level: "L0", shapes: [.init(outer: Archive.box(50, 0, 60, 10))], category: "stairs"),
            Archive.Unit(
                id: "C1", level: "L1",
                shapes: [.init(outer: Archive.box(0, 0, 30, 30), holes: [Archive.box(10, 10, 20, 20)])],
                category: "walkway", name: "Corridor"),
            Archive.Unit(
                id: "S1", level: "L1", shapes: [.init(outer: Archive.box(50, 0, 60, 10))], category: "stairs",
                name: "Stair tower"),
        ]
        archive.openings = [
            Archive.Opening(id: "d-west", level: "L0", from: Point2D(x: 10, y: 4), to: Point2D(x: 10, y: 5)),
            Archive.Opening(id: "d-court", level: "L1", from: Point2D(x: 14, y: 10), to: Point2D(x: 16, y: 10)),
        ]
        return archive
    }

    static func nearestWall(to point: Point2D, on floor: Floor) -> Double {
        floor.walls.map { $0.distance(to: point) }.min() ?? .infinity
    }

    @Test("a level of two polygons keeps both: every room of either wing lies inside its floor")
    func severalPolygons() throws {
        let imported = try IMDFImporter.venue(from: try Self.campus().files())
        let ground = try #require(imported.venue.floor(level: 0))
        #expect(ground.outlines.count == 2)
        #expect(abs(ground.outlines.reduce(0) { $0 + $1.area } - 400) < 0.01)
        for centre in [Point2D(x: 5, y: 5), Point2D(x: 15, y: 5), Point2D(x: 45, y: 5), Point2D(x: 55, y: 5)] {
            #expect(ground.contains(centre), "\(centre) is outside the ground floor")
        }
        #expect(!ground.contains(Point2D(x: 30, y: 5)))
        #expect(abs(ground.distanceToBoundary(from: Point2D(x: 30, y: 5)) - 10) < 0.01)
        #expect(
            imported.report.notes.contains("level 'L0' is drawn as 2 polygons: floor 0 keeps them all as its outlines"))
        #expect(!imported.report.notes.contains { $0.contains("largest") || $0.contains("left out") })
    }

    @Test("a level's hole is not part of its floor; a unit's hole is not part of its zone and its edge is a wall")
    func holes() throws {
        let imported = try IMDFImporter.venue(from: try Self.campus().files())
        let first = try #require(imported.venue.floor(level: 1))
        #expect(first.holes.count == 1)
        #expect(!first.contains(Point2D(x: 15, y: 15)), "the courtyard is not on the floor")
        #expect(first.contains(Point2D(x: 5, y: 15)) && first.contains(Point2D(x: 55, y: 5)))
        #expect(first.contains(Point2D(x: 10, y: 15)), "the courtyard's edge is on the floor")

        let corridor = try #require(imported.venue.zones.first { $0.id == Archive.uuid("C1") })
        let fence = try #require(corridor.fences.first)
        #expect(fence.holes.count == 1)
        #expect(!fence.contains(Point2D(x: 15, y: 15)))
        #expect(fence.contains(Point2D(x: 5, y: 15)))
        #expect(abs(fence.signedDistance(to: Point2D(x: 15, y: 15)) - 5) < 0.01)
        #expect(abs(fence.signedDistance(to: Point2D(x: 5, y: 15)) + 5) < 0.01)

        // The courtyard's edge is a wall, but where the door is.
        for point in [Point2D(x: 10, y: 15), Point2D(x: 20, y: 15), Point2D(x: 15, y: 20), Point2D(x: 12, y: 10)] {
            #expect(Self.nearestWall(to: point, on: first) < 0.01, "no wall at \(point)")
        }
        #expect(Self.nearestWall(to: Point2D(x: 15, y: 10), on: first) > 0.9, "the courtyard door is shut")
    }

    @Test("short level names, level categories and building names are kept, and exported back")
    func names() throws {
        let imported = try IMDFImporter.venue(from: try Self.campus().files())
        let floors = imported.venue.floors
        #expect(floors.map(\.shortName) == ["G", "1"])
        #expect(floors.map(\.category) == [nil, "parking"])
        #expect(floors.map(\.building) == ["West wing; East wing", "West wing"])
        #expect(imported.report.unusedFeatures["building"] == nil)

        let exported = try IMDFExporter.files(of: imported.venue, created: Date(timeIntervalSince1970: 0))
        #expect(exported.files["building.geojson"] != nil)
        let levelData = try #require(exported.files["level.geojson"])
        let level = String(decoding: levelData, as: UTF8.self)
        #expect(level.contains(#""short_name":{"en":"G"}"#) && level.contains(#""category":"parking""#))
        let again = try IMDFImporter.venue(from: exported.files).venue
        #expect(again.floors.map(\.shortName) == ["G", "1"])
        #expect(again.floors.map(\.category) == [nil, "parking"])
        #expect(again.floors.map(\.building) == ["West wing; East wing", "West wing"])
    }

    @Test("floors of several outlines and with holes, and fences with holes, write as venue JSON and read back")
    func venueJSON() throws {
        let venue = try IMDFImporter.venue(from: try Self.campus().files()).venue
        let data = try venue.encodeJSON()
        #expect(try Venue.decodeJSON(data) == venue)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains("\"otherOutlines\"") && text.contains("\"holes\"") && text.contains("\"shortName\""))
    }

    @Test("a fence hole outside its polygon, or on a circle, is refused with its path")
    func badHoles() throws {
        func error(_ fence: String) -> String {
            let json = #"{"id": "v", "zones": [{"id": "z", "fences": [\#(fence)]}]}"#
            do {
                _ = try Venue.decodeJSON(Data(json.utf8))
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        let outside = error(#"{"polygon": [[0,0],[4,0],[4,4],[0,4]], "holes": [[[5,5],[6,5],[6,6]]]}"#)
        #expect(outside.contains("zones[0].fences[0].holes[0]") && outside.contains("inside"), "\(outside)")
        let circle = error(#"{"center": [0,0], "radius": 2, "holes": [[[0,0],[1,0],[1,1]]]}"#)
        #expect(circle.contains("a circle fence has no holes"), "\(circle)")
        #expect(error(#"{"polygon": [[0,0],[4,0],[4,4],[0,4]], "holes": [[[1,1],[2,1],[2,2]]]}"#) == "accepted")
    }

    @Test("a unit hole that crosses its outer ring is refused, naming the ring")
    func unitHoleOutside() throws {
        var archive = Self.campus()
        archive.units[4].shapes[0].holes = [Archive.box(25, 10, 35, 20)]
        #expect {
            _ = try IMDFImporter.venue(from: try archive.files())
        } throws: { error in
            "\(error)".contains("unit.geojson") && "\(error)".contains("geometry.coordinates[1]")
                && "\(error)".contains("inside")
        }
    }
}
