import Foundation
import Testing

@testable import IndoorModel

/// Openings cut into walls by distance (within 10 cm of a wall along their whole length, whatever small angle that
/// implies), every wall they lie on; MultiLineString openings; floors without any opening said.
@Suite("IMDF openings: every wall within 10 cm cut, skewed doors included")
struct IMDFOpeningsTests {
    typealias Archive = IMDFHandMadeArchive

    /// The note's reproduction: one level, 'Office' (0, 0)–(4, 4) and 'Corridor' (4, 0)–(10, 4), metres, and one
    /// opening from (4, 1.5) to (4 + `skew`, 2.5).
    static func officeAndCorridor(skew: Double, shift: Double = 0) -> Archive {
        var archive = Archive()
        archive.levels = [.init(id: "L0", ordinal: 0, shapes: [.init(outer: Archive.box(0, 0, 10, 4))], name: "Ground")]
        archive.units = [
            .init(id: "office", level: "L0", shapes: [.init(outer: Archive.box(0, 0, 4, 4))], name: "Office"),
            .init(id: "corridor", level: "L0", shapes: [.init(outer: Archive.box(4, 0, 10, 4))], name: "Corridor"),
        ]
        archive.openings = [
            .init(
                id: "door", level: "L0", from: Point2D(x: 4 + shift, y: 1.5), to: Point2D(x: 4 + shift + skew, y: 2.5))
        ]
        return archive
    }

    /// The distance from `point` to the nearest of `walls`, metres.
    static func clearance(_ point: Point2D, _ walls: [Segment]) -> Double {
        walls.map { $0.distance(to: point) }.min() ?? .infinity
    }

    static func point(_ t: Double, from a: Point2D, to b: Point2D) -> Point2D {
        Point2D(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    static func noGapNotes(_ report: IMDFReport) -> [String] {
        report.notes.filter { $0.contains("no gap was cut") }
    }

    @Test(
        "a 1 m door whose far end is 0, 3.0, 4.0, 4.5 or 9 cm off the shared wall (up to 5.1°) opens it",
        arguments: [0, 0.030, 0.040, 0.045, 0.09])
    func skewedDoorOpens(skew: Double) throws {
        let imported = try IMDFImporter.venue(from: try Self.officeAndCorridor(skew: skew).files())
        #expect(Self.noGapNotes(imported.report) == [])
        let walls = try #require(imported.venue.floor(level: 0)).walls
        for t in [0.3, 0.5, 0.7] {
            let door = Self.point(t, from: Point2D(x: 4, y: 1.5), to: Point2D(x: 4 + skew, y: 2.5))
            #expect(Self.clearance(door, walls) > 0.25, "at \(t): \(walls)")
        }
        // The wall either side of the door stays.
        #expect(Self.clearance(Point2D(x: 4, y: 0.75), walls) < 0.001)
        #expect(Self.clearance(Point2D(x: 4, y: 3.25), walls) < 0.001)
    }

    @Test(
        "a door off the wall by more than 10 cm anywhere (far end 12 cm, or all of it 11 cm) cuts nothing and is said",
        arguments: [(skew: 0.12, shift: 0.0), (skew: 0.0, shift: 0.11)])
    func farDoorCutsNothing(skew: Double, shift: Double) throws {
        let imported = try IMDFImporter.venue(from: try Self.officeAndCorridor(skew: skew, shift: shift).files())
        #expect(
            Self.noGapNotes(imported.report) == [
                "opening 'door' lies on no unit boundary of floor 0: no gap was cut for it"
            ])
        let walls = try #require(imported.venue.floor(level: 0)).walls
        #expect(Self.clearance(Point2D(x: 4, y: 2), walls) < 0.001)
    }

    @Test("the largest angle an opening may be turned from a wall it cuts: atan(10 cm / length) + 3°, at most 90°")
    func openingAngle() {
        func degrees(_ length: Double) -> Double { IMDFWalls.openingAngle(length: length) * 180 / .pi }
        #expect(abs(degrees(1) - 8.71) < 0.01)
        #expect(abs(degrees(1.46) - 6.92) < 0.01)
        #expect(abs(degrees(4) - 4.43) < 0.01)
        #expect(abs(degrees(0.01) - 87.29) < 0.01)
        #expect(degrees(0.001) == 90)
        #expect(degrees(0) == 90)
    }

    @Test("a short piece crossing a wall at a steep angle, its ends within 10 cm of it, does not cut it")
    func steepShortPiece() {
        var walls = IMDFWalls.merging()
        walls.addBoundary(of: Archive.box(0, 0, 4, 4))
        // 9.8 cm long, 60° off the wall x = 4: ends 0 and 8.5 cm from it, past the 48.6° a piece that short may be.
        let placed = walls.addOpening([Point2D(x: 4, y: 2), Point2D(x: 4 - 0.085, y: 2.049)])
        #expect(!placed)
        #expect(Self.clearance(Point2D(x: 4, y: 2.025), walls.walls) < 0.001)
    }

    @Test("Addenbrooke's two doors 2.1–2.4° off their walls are cut into every wall beside them; the rest stays")
    func addenbrookesDoors() throws {
        let imported = try IMDFImporter.venue(from: try IMDFAddenbrookesDoors.files())
        #expect(Self.noGapNotes(imported.report) == [])
        let anchor = try #require(imported.venue.anchor)
        func local(_ position: [Double]) -> Point2D {
            anchor.point(of: GeoCoordinate(latitude: position[1], longitude: position[0]))
        }
        let walls = try #require(imported.venue.floor(level: 0)).walls
        for door in IMDFAddenbrookesDoors.doors {
            let a = local(door.line[0])
            let b = local(door.line[1])
            for t in [0.3, 0.5, 0.7] {
                let clearance = Self.clearance(Self.point(t, from: a, to: b), walls)
                #expect(clearance > 0.05, "door \(door.id) at \(t): a wall \(clearance) m away")
            }
        }
        // Away from the doors the edges beside them are walls (within the 5 cm two units' copies of a wall are
        // merged): the corridor's past the stairs door (0.4 m from its far end), the lift's, and the long ones.
        let kept = IMDFAddenbrookesDoors.keptEdges.map { Segment(from: local($0[0]), to: local($0[1])) }
        for (edge, t) in zip(kept, [0.15, 0.5, 0.5, 0.5]) {
            #expect(Self.clearance(Self.point(t, from: edge.start, to: edge.end), walls) < 0.05, "\(edge)")
        }
    }

    @Test("an opening drawn as a MultiLineString of one line is that LineString, said in a note")
    func oneLineMultiLineString() throws {
        let files = try Self.officeAndCorridor(skew: 0.03).files()
        let plain = try IMDFImporter.venue(from: files)
        let multi = try IMDFImporter.venue(
            from: try IMDFTestArchive.editingFeature(files, "opening.geojson", 0) { opening in
                var geometry = opening["geometry"] as? [String: Any] ?? [:]
                geometry["type"] = "MultiLineString"
                geometry["coordinates"] = [geometry["coordinates"] ?? []]
                opening["geometry"] = geometry
            })
        #expect(multi.venue == plain.venue)
        #expect(
            multi.report.notes == plain.report.notes + [
                "opening 'door' is a MultiLineString of one line: read as that LineString"
            ])
    }

    @Test("a MultiLineString of two lines cuts each; a line on no wall is said")
    func twoLineMultiLineString() throws {
        let archive = Self.officeAndCorridor(skew: 0)
        let files = try archive.files()
        let south = [archive.position(Point2D(x: 4, y: 0.5)), archive.position(Point2D(x: 4.02, y: 1.2))]
        let north = [archive.position(Point2D(x: 4, y: 2.8)), archive.position(Point2D(x: 4.04, y: 3.6))]
        let twoDoors = try IMDFImporter.venue(
            from: try IMDFTestArchive.editingFeature(files, "opening.geojson", 0) { opening in
                opening["geometry"] = ["type": "MultiLineString", "coordinates": [south, north]]
            })
        #expect(
            twoDoors.report.notes == [
                "opening 'door' is a MultiLineString of 2 lines: each is cut as a piece of the opening"
            ])
        let walls = try #require(twoDoors.venue.floor(level: 0)).walls
        #expect(Self.clearance(Point2D(x: 4.01, y: 0.85), walls) > 0.1)
        #expect(Self.clearance(Point2D(x: 4.02, y: 3.2), walls) > 0.1)
        #expect(Self.clearance(Point2D(x: 4, y: 2), walls) < 0.001)
        // One of the lines in the middle of the office: the opening is said to lie on no boundary.
        let inside = [archive.position(Point2D(x: 1, y: 1)), archive.position(Point2D(x: 2, y: 1))]
        let stray = try IMDFImporter.venue(
            from: try IMDFTestArchive.editingFeature(files, "opening.geojson", 0) { opening in
                opening["geometry"] = ["type": "MultiLineString", "coordinates": [south, inside]]
            })
        #expect(
            Self.noGapNotes(stray.report) == [
                "opening 'door' lies on no unit boundary of floor 0: no gap was cut for it"
            ])
    }

    @Test("a floor of units without any opening is said: every room is closed by walls; grouped over floors")
    func noOpenings() throws {
        var archive = Self.officeAndCorridor(skew: 0)
        archive.openings = []
        archive.levels.append(
            .init(id: "L1", ordinal: 1, shapes: [.init(outer: Archive.box(0, 0, 10, 8))], name: "First"))
        archive.units += [
            .init(id: "office 1", level: "L1", shapes: [.init(outer: Archive.box(0, 0, 4, 4))]),
            .init(id: "corridor 1", level: "L1", shapes: [.init(outer: Archive.box(4, 0, 10, 4))]),
            .init(id: "lab 1", level: "L1", shapes: [.init(outer: Archive.box(0, 4, 10, 8))]),
        ]
        let imported = try IMDFImporter.venue(from: try archive.files())
        let expected = [
            "floor 0 has no opening: every boundary of its 2 units is a wall, so none of its rooms leads into another",
            "floor 1 has no opening: every boundary of its 3 units is a wall, so none of its rooms leads into another",
        ]
        #expect(imported.report.notes.filter { $0.contains("has no opening") } == expected)
        #expect(
            imported.report.groupedNotes.contains(
                "2 × floor … has no opening: every boundary of its … units is a wall, so none of its rooms leads into "
                    + "another"))
        // A door on floor 0 only: floor 1 is still said; a floor of one unit has nothing to lead into.
        archive.openings = [.init(id: "door", level: "L0", from: Point2D(x: 4, y: 1), to: Point2D(x: 4, y: 2))]
        archive.units.removeAll { $0.level == "L1" && $0.id != "lab 1" }
        let one = try IMDFImporter.venue(from: try archive.files())
        #expect(one.report.notes.filter { $0.contains("has no opening") } == [])
        archive.units.append(.init(id: "store 1", level: "L1", shapes: [.init(outer: Archive.box(0, 0, 4, 4))]))
        let two = try IMDFImporter.venue(from: try archive.files())
        #expect(
            two.report.notes.filter { $0.contains("has no opening") } == [
                "floor 1 has no opening: every boundary of its 2 units is a wall, so none of its rooms leads into "
                    + "another"
            ])
    }
}
