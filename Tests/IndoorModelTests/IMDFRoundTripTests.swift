import Foundation
import IndoorTestSupport
import Testing

@testable import IndoorModel

/// Import → export → import gives the same venue: floors (outlines, holes, names), rooms (fences, holes, names, data),
/// walls and connections, to the 0.1 mm the export rounds coordinates to.
@Suite("IMDF round trip: import, export, import gives the same venue")
struct IMDFRoundTripTests {
    static let tolerance = 0.001

    static func same(_ a: Polygon, _ b: Polygon) -> Bool {
        a.vertices.count == b.vertices.count
            && zip(a.vertices, b.vertices).allSatisfy { $0.distance(to: $1) < tolerance }
    }

    static func same(_ a: [Polygon], _ b: [Polygon]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
    }

    /// Every wall of `a` is covered by walls of `b` (its ends and middle within 1 mm of one), and their total lengths
    /// agree to 1 mm per wall.
    static func sameWalls(_ a: [Segment], _ b: [Segment]) -> Bool {
        func covered(_ wall: Segment, by walls: [Segment]) -> Bool {
            let middle = Point2D(x: (wall.start.x + wall.end.x) / 2, y: (wall.start.y + wall.end.y) / 2)
            return [wall.start, middle, wall.end].allSatisfy { point in
                walls.contains { $0.distance(to: point) < tolerance }
            }
        }
        let lengths = abs(a.reduce(0) { $0 + $1.length } - b.reduce(0) { $0 + $1.length })
        return a.allSatisfy { covered($0, by: b) } && b.allSatisfy { covered($0, by: a) }
            && lengths < tolerance * Double(max(a.count, 1))
    }

    /// What differs between two venues, one line each; empty when they are the same.
    static func differences(_ a: Venue, _ b: Venue) -> [String] {
        var found: [String] = []
        if a.id != b.id || a.name != b.name { found.append("id or name: \(a.id) \(a.name) / \(b.id) \(b.name)") }
        if a.anchor != b.anchor {
            found.append("anchor \(String(describing: a.anchor)) / \(String(describing: b.anchor))")
        }
        if a.floors.count != b.floors.count { found.append("\(a.floors.count) / \(b.floors.count) floors") }
        for (x, y) in zip(a.floors, b.floors) {
            if x.level != y.level || x.name != y.name || x.shortName != y.shortName || x.category != y.category
                || x.building != y.building
            {
                found.append("floor \(x.level) names: \(x) / \(y)")
            }
            if !same(x.outlines, y.outlines) || !same(x.holes, y.holes) {
                found.append("floor \(x.level) outlines: \(x.outlines) \(x.holes) / \(y.outlines) \(y.holes)")
            }
            if !sameWalls(x.walls, y.walls) {
                found.append("floor \(x.level) walls: \(x.walls.count) / \(y.walls.count)")
            }
        }
        if a.zones.count != b.zones.count { found.append("\(a.zones.count) / \(b.zones.count) zones") }
        for (x, y) in zip(a.zones, b.zones) {
            if x.id != y.id || x.name != y.name || x.data != y.data {
                found.append("zone \(x.id) '\(x.name)' \(x.data) / \(y.id) '\(y.name)' \(y.data)")
            }
            let fences =
                x.fences.count == y.fences.count
                && zip(x.fences, y.fences).allSatisfy { f, g in
                    guard case .polygon(let p) = f.shape, case .polygon(let q) = g.shape else { return false }
                    return f.floor == g.floor && same(p, q) && same(f.holes, g.holes)
                }
            if !fences { found.append("zone \(x.id) fences") }
        }
        if a.connections.map(\.id) != b.connections.map(\.id)
            || a.connections.map(\.levels) != b.connections.map(\.levels)
            || a.connections.map(\.kind) != b.connections.map(\.kind)
        {
            found.append("connections \(a.connections.map(\.id)) / \(b.connections.map(\.id))")
        }
        return found
    }

    static func roundTrip(_ files: [String: Data]) throws -> (first: Venue, second: Venue, notes: [String]) {
        let first = try IMDFImporter.venue(from: files).venue
        let exported = try IMDFExporter.files(of: first, created: Date(timeIntervalSince1970: 0))
        let second = try IMDFImporter.venue(from: exported.files).venue
        return (first, second, exported.notes)
    }

    @Test("the test archive: the same venue again, its stairs units not doubled")
    func testArchive() throws {
        let (first, second, _) = try Self.roundTrip(try IMDFFixtures.files("two-level"))
        #expect(Self.differences(first, second) == [])
        #expect(second.zones.count == first.zones.count)
    }

    @Test("a campus of two wings, a courtyard and a stair tower: the same venue again")
    func campus() throws {
        let (first, second, _) = try Self.roundTrip(try IMDFLevelShapesTests.campus().files())
        #expect(Self.differences(first, second) == [])
        #expect(first.connections.count == 1)
    }

    /// A random archive: 1–3 levels of a grid of rooms (one with a courtyard hole), a door in every inner wall, stairs
    /// over each other in one corner, some rooms unnamed.
    static func randomArchive(seed: Int) -> IMDFHandMadeArchive {
        var random = SplitMix64(seed: UInt64(seed) &+ 0x7247)
        func below(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
        var archive = IMDFHandMadeArchive()
        let columns = 2 + below(3)
        let rows = 1 + below(3)
        let size = 6.0
        let levels = 1 + below(3)
        for level in 0..<levels {
            let levelID = "L\(level)"
            archive.levels.append(
                .init(
                    id: levelID, ordinal: level,
                    shapes: [.init(outer: IMDFHandMadeArchive.box(0, 0, Double(columns) * size, Double(rows) * size))],
                    name: "Level \(level)", shortName: level == 0 ? "G" : "\(level)"))
            for column in 0..<columns {
                for row in 0..<rows {
                    let x = Double(column) * size
                    let y = Double(row) * size
                    let box = IMDFHandMadeArchive.box(x, y, x + size, y + size)
                    let stairs = column == columns - 1 && row == rows - 1 && levels > 1
                    let courtyard = column == 0 && row == 0 && below(2) == 0
                    archive.units.append(
                        .init(
                            id: "U\(level)-\(column)-\(row)", level: levelID,
                            shapes: [
                                .init(
                                    outer: box,
                                    holes: courtyard ? [IMDFHandMadeArchive.box(x + 2, y + 2, x + 4, y + 4)] : [])
                            ],
                            category: stairs ? "stairs" : "room",
                            name: below(3) == 0 ? nil : "Room \(level)-\(column)-\(row)"))
                }
            }
            for column in 1..<columns {
                for row in 0..<rows {
                    let x = Double(column) * size
                    let start = Double(row) * size + 1 + Double(below(30)) / 10
                    archive.openings.append(
                        .init(
                            id: "D\(level)-v\(column)-\(row)", level: levelID, from: Point2D(x: x, y: start),
                            to: Point2D(x: x, y: start + 1)))
                }
            }
            for row in 1..<max(rows, 1) {
                for column in 0..<columns {
                    let y = Double(row) * size
                    let start = Double(column) * size + 1 + Double(below(30)) / 10
                    archive.openings.append(
                        .init(
                            id: "D\(level)-h\(column)-\(row)", level: levelID, from: Point2D(x: start, y: y),
                            to: Point2D(x: start + 1, y: y)))
                }
            }
        }
        return archive
    }

    @Test(
        "random archives of rooms, doors, courtyards and stairs: import, export, import gives the same venue",
        arguments: 0..<20)
    func randomVenues(seed: Int) throws {
        let (first, second, _) = try Self.roundTrip(try Self.randomArchive(seed: seed).files())
        #expect(Self.differences(first, second) == [], "seed \(seed)")
        // And again: the export of the second import is the first export.
        let third = try IMDFImporter.venue(
            from: try IMDFExporter.files(of: second, created: Date(timeIntervalSince1970: 0)).files
        ).venue
        #expect(Self.differences(second, third) == [], "seed \(seed)")
    }
}
