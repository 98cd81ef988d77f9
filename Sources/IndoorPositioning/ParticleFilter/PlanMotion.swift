import IndoorModel

/// A ``FloorPlan`` as a ``ParticleFilter``'s motion model uses it: walls and connections looked up by the index of a
/// floor in the radio map's grid (``RadioMap/Grid/floors``), not by its level.
struct PlanMotion: Sendable {
    /// The walls of each grid floor (`nil`: none).
    private let walls: [WallIndex?]
    /// The level of each grid floor.
    private let levels: [Int?]
    private let plan: FloorPlan

    /// The plan resolved for a grid whose floors are `levels`.
    init(plan: FloorPlan, levels: [Int?]) {
        self.plan = plan
        self.levels = levels
        walls = levels.map { plan.index($0) }
    }

    /// Whether floor changes are limited to the plan's connections (it lists some).
    var gatesFloorChanges: Bool { plan.hasConnections }

    /// Keeps a particle from walking through a wall of grid floor `floor`: when the step from (`fromX`, `fromY`) to
    /// (`x`, `y`) (metres) crosses one, the particle stays where it was and its velocity (m/s) is mirrored off the wall,
    /// so it walks on along it or back.
    func keepInside(
        fromX: Double, fromY: Double, x: inout Double, y: inout Double, vx: inout Double, vy: inout Double, floor: Int
    ) {
        guard walls.indices.contains(floor), let index = walls[floor],
            let hit = index.firstCrossing(from: Point2D(x: fromX, y: fromY), to: Point2D(x: x, y: y))
        else { return }
        x = fromX
        y = fromY
        let wall = index.walls[hit.wall]
        let dx = wall.end.x - wall.start.x
        let dy = wall.end.y - wall.start.y
        let square = dx * dx + dy * dy
        guard square > 0 else {
            vx = -vx
            vy = -vy
            return
        }
        // v' = 2 (v·u) u − v with u along the wall: the part across the wall turns round.
        let along = 2 * (vx * dx + vy * dy) / square
        vx = along * dx - vx
        vy = along * dy - vy
    }

    /// Whether a particle at (`x`, `y`) (metres) that drew a floor change from grid floor `floor` to `other` makes it:
    /// always when the plan lists no connections or the particle is inside one joining both levels; elsewhere with
    /// the chance `strayShare` (0…1, drawn from `random`), so changes away from connections are that much rarer.
    func allowsFloorChange(
        x: Double, y: Double, from floor: Int, to other: Int, strayShare: Double, random: inout SplitMix64
    ) -> Bool {
        guard gatesFloorChanges, !connects(x: x, y: y, from: floor, to: other) else { return true }
        return random.unit() < strayShare
    }

    /// Whether a particle at (`x`, `y`) (metres) may move from grid floor `floor` to grid floor `other` at a
    /// connection: inside one that joins both levels.
    func connects(x: Double, y: Double, from floor: Int, to other: Int) -> Bool {
        guard levels.indices.contains(floor), levels.indices.contains(other), let level = levels[floor],
            let target = levels[other]
        else { return false }
        return plan.mayChangeFloor(at: Point2D(x: x, y: y), from: level, to: target)
    }
}
