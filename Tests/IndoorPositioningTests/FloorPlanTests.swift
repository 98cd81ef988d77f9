import Foundation
import IndoorModel
import Testing

@testable import IndoorPositioning

/// Walls and floor connections as the motion model sees them: exact geometry.
@Suite("Floor plan")
struct FloorPlanTests {
    static func point(_ x: Double, _ y: Double) -> Point2D { Point2D(x: x, y: y) }
    static func wall(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Segment {
        Segment(from: point(x1, y1), to: point(x2, y2))
    }

    /// Floor 0: a wall along x = 5 with a door gap between y = 4 and y = 5; floor 1: a wall along y = 3 only.
    static let plan = FloorPlan(
        floors: [
            Floor(
                level: 0, name: "G", outline: Polygon([]), walls: [wall(5, 0, 5, 4), wall(5, 5, 5, 10)]),
            Floor(level: 1, name: "1", outline: Polygon([]), walls: [wall(0, 3, 10, 3)]),
        ],
        connections: [
            FloorConnection(id: "stairs", levels: [0, 1], shape: .circle(center: point(1, 1), radius: 1))
        ])

    @Test func aStepAcrossAWallIsBlocked() {
        let plan = Self.plan
        #expect(plan.crossesWall(from: Self.point(4, 2), to: Self.point(6, 2), level: 0))
        #expect(plan.crossesWall(from: Self.point(6, 8), to: Self.point(4.99, 7), level: 0))
        #expect(plan.wall(crossedFrom: Self.point(4, 2), to: Self.point(6, 2), level: 0) == Self.wall(5, 0, 5, 4))
        // Short of the wall, or away from it: free.
        #expect(!plan.crossesWall(from: Self.point(4, 2), to: Self.point(4.999, 2), level: 0))
        #expect(!plan.crossesWall(from: Self.point(6, 2), to: Self.point(8, 9), level: 0))
    }

    @Test func alongAWallOrThroughTheDoorIsFree() {
        let plan = Self.plan
        // Along the wall's line, on it.
        #expect(!plan.crossesWall(from: Self.point(5, 0.5), to: Self.point(5, 3.5), level: 0))
        // Through the door gap, square and slanted.
        #expect(!plan.crossesWall(from: Self.point(4, 4.5), to: Self.point(6, 4.5), level: 0))
        #expect(!plan.crossesWall(from: Self.point(4, 4.1), to: Self.point(6, 4.9), level: 0))
        // Past the end of a wall.
        #expect(!plan.crossesWall(from: Self.point(4, 10.5), to: Self.point(6, 10.5), level: 0))
    }

    @Test func endpointsAreSolid() {
        let plan = Self.plan
        // Ending on the wall counts as crossing (a particle never stands on a wall it came to) …
        #expect(plan.crossesWall(from: Self.point(4, 2), to: Self.point(5, 2), level: 0))
        // … starting on one does not (it may leave to either side).
        #expect(!plan.crossesWall(from: Self.point(5, 2), to: Self.point(6, 2), level: 0))
        #expect(!plan.crossesWall(from: Self.point(5, 2), to: Self.point(4, 2), level: 0))
        // Through a wall's end, the door jamb: blocked.
        #expect(plan.crossesWall(from: Self.point(4, 3), to: Self.point(6, 5), level: 0))
        #expect(plan.crossesWall(from: Self.point(4, 6), to: Self.point(6, 4), level: 0))
        // Touching the jamb from the gap's side without crossing the line: free.
        #expect(!plan.crossesWall(from: Self.point(4, 4), to: Self.point(4.5, 4), level: 0))
    }

    @Test func floorsAreIndependent() {
        let plan = Self.plan
        #expect(!plan.crossesWall(from: Self.point(4, 2), to: Self.point(6, 2), level: 1))
        #expect(plan.crossesWall(from: Self.point(2, 2), to: Self.point(2, 4), level: 1))
        #expect(!plan.crossesWall(from: Self.point(2, 2), to: Self.point(2, 4), level: 0))
        #expect(!plan.crossesWall(from: Self.point(4, 2), to: Self.point(6, 2), level: 7))
        // Without a level, only a plan of one floor has walls to cross.
        #expect(!plan.crossesWall(from: Self.point(4, 2), to: Self.point(6, 2), level: nil))
        let single = FloorPlan(floors: [
            Floor(level: 0, name: "G", outline: Polygon([]), walls: [Self.wall(5, 0, 5, 4)])
        ])
        #expect(single.crossesWall(from: Self.point(4, 2), to: Self.point(6, 2), level: nil))
        #expect(!single.hasConnections && single.hasWalls)
    }

    @Test func theFirstWallOfALongStepIsNamed() {
        var walls: [Segment] = []
        for x in stride(from: 10.0, through: 90, by: 10) { walls.append(Self.wall(x, 0, x, 10)) }
        let plan = FloorPlan(floors: [Floor(level: 0, name: "G", outline: Polygon([]), walls: walls)])
        #expect(plan.wall(crossedFrom: Self.point(55, 5), to: Self.point(95, 5), level: 0) == Self.wall(60, 0, 60, 10))
        #expect(plan.wall(crossedFrom: Self.point(95, 5), to: Self.point(1, 5), level: 0) == Self.wall(90, 0, 90, 10))
        #expect(!plan.crossesWall(from: Self.point(-5, 5), to: Self.point(-5, 500), level: 0))
        #expect(!plan.crossesWall(from: Self.point(-50, -5), to: Self.point(500, -5), level: 0))
    }

    @Test func theIndexFindsWhatTestingEveryWallFinds() {
        var random = SplitMix64(seed: 17)
        var walls: [Segment] = []
        for _ in 0..<200 {
            let start = Self.point(random.uniform(0...60), random.uniform(0...40))
            walls.append(
                Segment(
                    from: start,
                    to: Self.point(start.x + random.uniform(-6...6), start.y + random.uniform(-6...6))))
        }
        // Axis-aligned walls on a 0.5 m lattice, so that steps meet ends and lines exactly.
        for _ in 0..<100 {
            let x = (random.uniform(0...60) * 2).rounded() / 2
            let y = (random.uniform(0...40) * 2).rounded() / 2
            walls.append(random.unit() < 0.5 ? Self.wall(x, y, x + 3, y) : Self.wall(x, y, x, y + 3))
        }
        let index = WallIndex(walls: walls, cellSize: 2)
        for trial in 0..<3000 {
            let start: Point2D
            let end: Point2D
            if trial % 2 == 0 {
                start = Self.point(random.uniform(-5...65), random.uniform(-5...45))
                let length = trial % 10 == 0 ? 30.0 : 3.0
                end = Self.point(
                    start.x + random.uniform(-length...length), start.y + random.uniform(-length...length))
            } else {
                start = Self.point(
                    (random.uniform(0...60) * 2).rounded() / 2, (random.uniform(0...40) * 2).rounded() / 2)
                end = Self.point(
                    start.x + (random.uniform(-3...3) * 2).rounded() / 2,
                    start.y + (random.uniform(-3...3) * 2).rounded() / 2)
            }
            var best: (wall: Int, fraction: Double)?
            for (k, wall) in walls.enumerated() {
                guard let fraction = WallIndex.crossing(from: start, to: end, wall: wall) else { continue }
                if best.map({ fraction < $0.fraction }) ?? true { best = (k, fraction) }
            }
            let found = index.firstCrossing(from: start, to: end)
            #expect(found?.fraction == best?.fraction, "step \(start) → \(end)")
        }
    }

    @Test func floorsChangeOnlyInsideAConnection() {
        let plan = Self.plan
        #expect(plan.mayChangeFloor(at: Self.point(1, 1), from: 0, to: 1))
        #expect(plan.mayChangeFloor(at: Self.point(2, 1), from: 1, to: 0))
        #expect(!plan.mayChangeFloor(at: Self.point(2.1, 1), from: 0, to: 1))
        #expect(!plan.mayChangeFloor(at: Self.point(1, 1), from: 0, to: 2))
        #expect(plan.hasConnections)
    }

    @Test func aVenueWithoutWallsOrConnectionsHasNoPlan() {
        #expect(
            FloorPlan(venue: Venue(id: "v", name: "V", floors: [Floor(level: 0, name: "G", outline: Polygon([]))]))
                == nil)
        let walled = Venue(
            id: "v", name: "V",
            floors: [Floor(level: 0, name: "G", outline: Polygon([]), walls: [Self.wall(0, 0, 1, 0)])])
        #expect(FloorPlan(venue: walled)?.hasWalls == true)
    }
}
