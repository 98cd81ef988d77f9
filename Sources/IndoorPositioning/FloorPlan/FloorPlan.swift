import IndoorModel

/// What a motion model needs of a venue's plan: the walls of each floor, which a walker cannot pass, and the floor
/// connections (stairs, lifts), the only places a walker changes floor.
///
/// Positions are metres in the venue's local frame; floors are levels (``Floor/level``). The walls of each floor sit
/// in a ``WallIndex`` (a uniform grid), so a step is tested only against the walls in the cells it passes through.
/// A step crosses a wall when it starts strictly on one side of the wall's line and ends on the wall or beyond it,
/// meeting the wall at one of its points (its ends included); a step along a wall or starting on one crosses
/// nothing, and a door is a gap between walls.
public struct FloorPlan: Hashable, Sendable {
    /// The walls of each level, indexed.
    private let wallsByLevel: [Int: WallIndex]
    /// The walls of the plan's only floor, for positions without a floor (`nil` with several floors).
    private let soleFloorWalls: WallIndex?
    /// Where people change floor.
    public let connections: [FloorConnection]

    /// A plan of `floors` (their ``Floor/walls``) and `connections`, metres in the local frame.
    public init(floors: [Floor], connections: [FloorConnection] = []) {
        var walls: [Int: WallIndex] = [:]
        for floor in floors where !floor.walls.isEmpty { walls[floor.level] = WallIndex(walls: floor.walls) }
        wallsByLevel = walls
        soleFloorWalls = floors.count == 1 ? floors.first.flatMap { walls[$0.level] } : nil
        self.connections = connections
    }

    /// The plan of `venue`'s floors and connections; `nil` when it has neither walls nor connections (nothing
    /// would constrain a walker).
    public init?(venue: Venue) {
        guard !venue.connections.isEmpty || venue.floors.contains(where: { !$0.walls.isEmpty }) else { return nil }
        self.init(floors: venue.floors, connections: venue.connections)
    }

    /// Whether any floor has walls.
    public var hasWalls: Bool { !wallsByLevel.isEmpty }

    /// Whether the plan says where floors connect: then a walker changes floor only inside a connection.
    public var hasConnections: Bool { !connections.isEmpty }

    /// The walls of floor `level` (metres, local frame); for `nil`, those of the plan's only floor.
    public func walls(onLevel level: Int?) -> [Segment] { index(level)?.walls ?? [] }

    /// Whether walking straight from `start` to `end` (metres, local frame) on floor `level` crosses a wall of that
    /// floor. A `nil` level means the plan's only floor (no walls when the plan has several).
    func crossesWall(from start: Point2D, to end: Point2D, level: Int?) -> Bool {
        wall(crossedFrom: start, to: end, level: level) != nil
    }

    /// The first wall that walking straight from `start` to `end` on floor `level` crosses, or `nil`.
    public func wall(crossedFrom start: Point2D, to end: Point2D, level: Int?) -> Segment? {
        guard let index = index(level), let hit = index.firstCrossing(from: start, to: end) else { return nil }
        return index.walls[hit.wall]
    }

    /// Whether a walker at `point` (metres, local frame) on floor `level` may go to floor `other` there: inside a
    /// connection that joins both levels.
    func mayChangeFloor(at point: Point2D, from level: Int, to other: Int) -> Bool {
        connections.contains { $0.connects(level) && $0.connects(other) && $0.contains(point) }
    }

    /// The wall index of `level`.
    func index(_ level: Int?) -> WallIndex? {
        guard let level else { return soleFloorWalls }
        return wallsByLevel[level]
    }
}
