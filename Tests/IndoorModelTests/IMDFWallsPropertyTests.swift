import Foundation
import Testing

@testable import IndoorModel

/// Walls of hand-drawn archives: neighbouring units draw their shared wall a few centimetres and a fraction of a degree
/// apart, and doors lie near (not on) those edges. Every door must stay open, and every wall away from a door must
/// stay a wall.
@Suite("IMDF walls: near-duplicate edges merged, every door cut")
struct IMDFWallsPropertyTests {
    /// A floor of `columns` × `rows` rooms of 5 m; each room draws its own copy of every edge, moved by up to `jitter`
    /// metres and turned by up to `turn` radians; each inner edge gets a 1 m door at a random place, moved up to
    /// `doorJitter` metres off the true edge and turned by up to `doorTurn` radians about its middle.
    struct Floor {
        var rooms: [Polygon] = []
        /// Each door: its ends, and the true shared edge it is on.
        var doors: [Segment] = []
        /// The true shared edges without their doors: where a wall must remain.
        var solid: [Segment] = []
    }

    static func floor(
        columns: Int, rows: Int, jitter: Double, turn: Double, doorJitter: Double, doorTurn: Double = 0,
        random: inout SplitMix64
    ) -> Floor {
        func uniform(_ range: Double) -> Double {
            (Double(random.next() % 1_000_001) / 1_000_000 * 2 - 1) * range
        }
        var floor = Floor()
        let size = 5.0
        // Corner points of each room drawn apart: each room moves and turns its own copy of its corners a little.
        for column in 0..<columns {
            for row in 0..<rows {
                let x0 = Double(column) * size
                let y0 = Double(row) * size
                let centre = Point2D(x: x0 + size / 2, y: y0 + size / 2)
                let angle = uniform(turn)
                let shift = Point2D(x: uniform(jitter), y: uniform(jitter))
                let corners = [
                    Point2D(x: x0, y: y0), Point2D(x: x0 + size, y: y0), Point2D(x: x0 + size, y: y0 + size),
                    Point2D(x: x0, y: y0 + size),
                ].map { point -> Point2D in
                    let dx = point.x - centre.x
                    let dy = point.y - centre.y
                    return Point2D(
                        x: centre.x + dx * cos(angle) - dy * sin(angle) + shift.x,
                        y: centre.y + dx * sin(angle) + dy * cos(angle) + shift.y)
                }
                floor.rooms.append(Polygon(corners))
            }
        }
        /// A 1 m door from `start` along `direction` (a unit vector), turned by up to `doorTurn` about its middle.
        func door(from start: Point2D, along direction: Point2D) -> Segment {
            let angle = doorTurn > 0 ? uniform(doorTurn) : 0
            let middle = Point2D(x: start.x + direction.x / 2, y: start.y + direction.y / 2)
            let half = Point2D(
                x: (direction.x * cos(angle) - direction.y * sin(angle)) / 2,
                y: (direction.x * sin(angle) + direction.y * cos(angle)) / 2)
            return Segment(
                from: Point2D(x: middle.x - half.x, y: middle.y - half.y),
                to: Point2D(x: middle.x + half.x, y: middle.y + half.y))
        }
        // Doors on inner edges: vertical edges between columns, horizontal ones between rows.
        for column in 1..<max(columns, 1) {
            for row in 0..<rows {
                let x = Double(column) * size
                let start = Double(row) * size + 0.5 + Double(random.next() % 300) / 100
                let offset = uniform(doorJitter)
                floor.doors.append(door(from: Point2D(x: x + offset, y: start), along: Point2D(x: 0, y: 1)))
                floor.solid.append(
                    Segment(from: Point2D(x: x, y: Double(row) * size + 0.2), to: Point2D(x: x, y: start - 0.2)))
                floor.solid.append(
                    Segment(from: Point2D(x: x, y: start + 1.2), to: Point2D(x: x, y: Double(row + 1) * size - 0.2)))
            }
        }
        for row in 1..<max(rows, 1) {
            for column in 0..<columns {
                let y = Double(row) * size
                let start = Double(column) * size + 0.5 + Double(random.next() % 300) / 100
                let offset = uniform(doorJitter)
                floor.doors.append(door(from: Point2D(x: start, y: y + offset), along: Point2D(x: 1, y: 0)))
                floor.solid.append(
                    Segment(from: Point2D(x: Double(column) * size + 0.2, y: y), to: Point2D(x: start - 0.2, y: y)))
                floor.solid.append(
                    Segment(from: Point2D(x: start + 1.2, y: y), to: Point2D(x: Double(column + 1) * size - 0.2, y: y)))
            }
        }
        return floor
    }

    /// The distance from `point` to the nearest wall, metres.
    static func nearestWall(to point: Point2D, in walls: [Segment]) -> Double {
        walls.map { $0.distance(to: point) }.min() ?? .infinity
    }

    static func point(_ t: Double, on segment: Segment) -> Point2D {
        Point2D(
            x: segment.start.x + (segment.end.x - segment.start.x) * t,
            y: segment.start.y + (segment.end.y - segment.start.y) * t)
    }

    @Test(
        "random floors whose rooms draw shared walls up to 4 cm and 0.4° apart, doors up to 9 cm off: every door open",
        arguments: 0..<25)
    func everyDoorStaysOpen(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &+ 0xD00B)
        let columns = 2 + Int(random.next() % 4)
        let rows = 1 + Int(random.next() % 4)
        let floor = Self.floor(
            columns: columns, rows: rows, jitter: 0.01, turn: 0.2 * .pi / 180, doorJitter: 0.07, random: &random)
        var walls = IMDFWalls.merging()
        for room in floor.rooms { walls.addBoundary(of: room) }
        for door in floor.doors {
            let placed = walls.addOpening([door.start, door.end])
            #expect(placed, "door \(door) found no wall")
        }
        let built = walls.walls
        for door in floor.doors {
            for t in [0.3, 0.5, 0.7] {
                let clearance = Self.nearestWall(to: Self.point(t, on: door), in: built)
                #expect(clearance > 0.05, "door \(door) at \(t) is \(clearance) m from a wall (seed \(seed))")
            }
        }
        // Away from the doors the shared walls are still walls.
        for edge in floor.solid where edge.length > 0.2 {
            #expect(Self.nearestWall(to: Self.point(0.5, on: edge), in: built) < 0.1, "wall \(edge) lost")
        }
    }

    /// The doors' ends are up to 6.6 cm off the true shared wall, and the rooms draw it 1 cm and 0.3° apart: within the
    /// 10 cm of every copy. No door may be said to lie on no wall.
    @Test(
        "imported random floors, doors turned up to 3° and moved up to 4 cm off their walls: every door open",
        arguments: 0..<20)
    func skewedDoorsStayOpenAfterImport(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &+ 0x5CE3)
        let columns = 2 + Int(random.next() % 4)
        let rows = 1 + Int(random.next() % 4)
        let floor = Self.floor(
            columns: columns, rows: rows, jitter: 0.01, turn: 0.3 * .pi / 180, doorJitter: 0.04,
            doorTurn: 3 * .pi / 180, random: &random)
        var archive = IMDFHandMadeArchive()
        let outline = IMDFHandMadeArchive.box(-1, -1, Double(columns) * 5 + 1, Double(rows) * 5 + 1)
        archive.levels = [.init(id: "L0", ordinal: 0, shapes: [.init(outer: outline)], name: "Ground")]
        archive.units = floor.rooms.enumerated().map { index, room in
            .init(id: "R\(index)", level: "L0", shapes: [.init(outer: room)], name: "Room \(index)")
        }
        archive.openings = floor.doors.enumerated().map { index, door in
            .init(id: "D\(index)", level: "L0", from: door.start, to: door.end)
        }
        let imported = try IMDFImporter.venue(from: try archive.files())
        #expect(imported.report.notes.filter { $0.contains("no gap") } == [], "seed \(seed)")
        let built = try #require(imported.venue.floor(level: 0)).walls
        for door in floor.doors {
            for t in [0.3, 0.5, 0.7] {
                let clearance = Self.nearestWall(to: Self.point(t, on: door), in: built)
                #expect(clearance > 0.05, "door \(door) at \(t) is \(clearance) m from a wall (seed \(seed))")
            }
        }
        for edge in floor.solid where edge.length > 0.2 {
            #expect(
                Self.nearestWall(to: Self.point(0.5, on: edge), in: built) < 0.1, "wall \(edge) lost (seed \(seed))")
        }
    }

    @Test("two copies of a shared wall 3 cm and 0.5° apart are one wall")
    func nearDuplicatesAreOneWall() {
        var walls = IMDFWalls.merging()
        walls.addBoundary(
            of: Polygon([Point2D(x: 0, y: 0), Point2D(x: 5, y: 0), Point2D(x: 5, y: 5), Point2D(x: 0, y: 5)]))
        let turn = 0.5 * Double.pi / 180
        walls.addBoundary(
            of: Polygon([
                Point2D(x: 5.03, y: 0), Point2D(x: 10, y: 0), Point2D(x: 10, y: 5),
                Point2D(x: 5.03 - 5 * sin(turn), y: 5),
            ]))
        let vertical = walls.walls.filter { abs($0.start.x - 5) < 0.1 && abs($0.end.x - 5) < 0.1 }
        #expect(vertical.count == 1, "\(walls.walls)")
    }

    @Test(
        "walls farther apart than the tolerance (a 16 cm thick wall's two faces) stay two walls, and a door cuts both")
    func thickWallsStayTwoAndADoorOpensBoth() {
        var walls = IMDFWalls.merging()
        walls.addBoundary(
            of: Polygon([Point2D(x: 0, y: 0), Point2D(x: 5, y: 0), Point2D(x: 5, y: 5), Point2D(x: 0, y: 5)]))
        walls.addBoundary(
            of: Polygon([Point2D(x: 5.16, y: 0), Point2D(x: 10, y: 0), Point2D(x: 10, y: 5), Point2D(x: 5.16, y: 5)]))
        #expect(walls.walls.filter { abs($0.start.x - $0.end.x) < 0.01 && $0.start.x > 4 && $0.start.x < 6 }.count == 2)
        // A door drawn between the faces, 8 cm from each: within the opening tolerance of both.
        let placed = walls.addOpening([Point2D(x: 5.08, y: 2), Point2D(x: 5.08, y: 3)])
        #expect(placed)
        let built = walls.walls
        #expect(Self.nearestWall(to: Point2D(x: 5, y: 2.5), in: built) > 0.05)
        #expect(Self.nearestWall(to: Point2D(x: 5.16, y: 2.5), in: built) > 0.05)
    }

    @Test("an opening that lies on no wall is reported")
    func anOpeningOnNoWall() {
        var walls = IMDFWalls.merging()
        walls.addBoundary(
            of: Polygon([Point2D(x: 0, y: 0), Point2D(x: 5, y: 0), Point2D(x: 5, y: 5), Point2D(x: 0, y: 5)]))
        let placed = walls.addOpening([Point2D(x: 2, y: 2), Point2D(x: 3, y: 2)])
        #expect(!placed)
    }
}
