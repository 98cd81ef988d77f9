import IndoorModel

/// The plan of one simulated office floor: rooms on both sides of a central corridor, in metres.
///
/// The corridor runs along x from 0 to ``length``; rooms of the south side span y 0…``roomDepth``, the
/// corridor the next ``corridorWidth`` metres and the north rooms the rest. Each room has a 1 m door
/// in the middle of its corridor wall. Every floor of the building has the same plan.
struct OfficeLayout: Sendable {
    struct Room: Sendable {
        /// Rooms are numbered along the corridor: south 0, 1, … then north.
        var index: Int
        var bounds: (minimum: Point2D, maximum: Point2D)
        /// The middle of the door gap, on the corridor wall.
        var door: Point2D
        /// Where the corridor centre line passes the door.
        var corridorPoint: Point2D
        var isNorth: Bool

        var centre: Point2D {
            Point2D(x: (bounds.minimum.x + bounds.maximum.x) / 2, y: (bounds.minimum.y + bounds.maximum.y) / 2)
        }
    }

    let options: SimulatorOptions
    let length: Double
    let width: Double
    let rooms: [Room]
    let walls: [Segment]
    /// Where the stairs are, on the corridor centre line near the west end.
    let stairs: Point2D

    static let doorWidth = 1.0

    init(options: SimulatorOptions) {
        self.options = options
        let count = options.roomsPerSide
        length = Double(count) * options.roomWidth
        width = 2 * options.roomDepth + options.corridorWidth
        let southWall = options.roomDepth
        let northWall = options.roomDepth + options.corridorWidth
        let centreY = (southWall + northWall) / 2
        stairs = Point2D(x: min(1.2, options.roomWidth / 4), y: centreY)

        var rooms: [Room] = []
        for side in 0..<2 {
            for i in 0..<count {
                let x0 = Double(i) * options.roomWidth
                let x1 = x0 + options.roomWidth
                let isNorth = side == 1
                let y0 = isNorth ? northWall : 0
                let y1 = isNorth ? width : southWall
                let doorX = (x0 + x1) / 2
                rooms.append(
                    Room(
                        index: rooms.count, bounds: (Point2D(x: x0, y: y0), Point2D(x: x1, y: y1)),
                        door: Point2D(x: doorX, y: isNorth ? northWall : southWall),
                        corridorPoint: Point2D(x: doorX, y: centreY), isNorth: isNorth))
            }
        }
        self.rooms = rooms

        var walls = Polygon.rectangle(from: Point2D(x: 0, y: 0), to: Point2D(x: length, y: width)).edges
        // Corridor walls, broken by the doors.
        for wallY in [southWall, northWall] {
            var x = 0.0
            for i in 0..<count {
                let doorX = (Double(i) + 0.5) * options.roomWidth
                walls.append(
                    Segment(from: Point2D(x: x, y: wallY), to: Point2D(x: doorX - Self.doorWidth / 2, y: wallY)))
                x = doorX + Self.doorWidth / 2
            }
            walls.append(Segment(from: Point2D(x: x, y: wallY), to: Point2D(x: length, y: wallY)))
        }
        // Walls between neighbouring rooms.
        for i in 1..<max(1, count) {
            let x = Double(i) * options.roomWidth
            walls.append(Segment(from: Point2D(x: x, y: 0), to: Point2D(x: x, y: southWall)))
            walls.append(Segment(from: Point2D(x: x, y: northWall), to: Point2D(x: x, y: width)))
        }
        self.walls = walls
    }

    var outline: Polygon {
        Polygon.rectangle(from: Point2D(x: 0, y: 0), to: Point2D(x: length, y: width))
    }

    /// The stairwell's footprint: the corridor's west end, from the end wall to twice ``stairs``'s distance from it,
    /// across the corridor's width (where walkers change floor).
    var stairwell: Polygon {
        Polygon.rectangle(
            from: Point2D(x: 0, y: options.roomDepth),
            to: Point2D(x: 2 * stairs.x, y: options.roomDepth + options.corridorWidth))
    }

    /// The corridor's floor area: the full length of the building, between the two corridor walls.
    var corridor: Polygon {
        Polygon.rectangle(
            from: Point2D(x: 0, y: options.roomDepth),
            to: Point2D(x: length, y: options.roomDepth + options.corridorWidth))
    }

    /// The zones of floor `level`: one per room (`room-<level>-<k>`, `k` the room's ``Room/index``) fenced by the
    /// room's rectangle, then the corridor (`corridor-<level>`), each a polygon fence on that floor.
    ///
    /// Neighbouring zones share their walls; a point on a wall is in each (the evaluator takes the first in this
    /// order, a room before the corridor).
    func zones(level: Int) -> [Zone] {
        var zones = rooms.map { room in
            Zone(
                id: "room-\(level)-\(room.index)", name: "Room \(room.index) (floor \(level))",
                fences: [.polygon(Polygon.rectangle(from: room.bounds.minimum, to: room.bounds.maximum), floor: level)])
        }
        zones.append(
            Zone(
                id: "corridor-\(level)", name: "Corridor (floor \(level))",
                fences: [.polygon(corridor, floor: level)]))
        return zones
    }

    /// Where the beacons of one floor go: a share in rooms (on the outer wall, spread along the building,
    /// alternating sides) and the rest on the corridor walls, clear of the doors. 5 cm off the wall.
    func beaconMounts(count: Int) -> [Point2D] {
        let roomBeacons = min(rooms.count, (Double(count) * 0.6).rounded(.up).clamped(to: 0...Double(count)).asInt)
        let corridorBeacons = count - roomBeacons
        var mounts: [Point2D] = []
        // Rooms in a zig-zag order along the building (S0, N0, N1, S1, S2, N2, …) so that an even
        // selection alternates sides.
        let perSide = options.roomsPerSide
        var order: [Room] = []
        for i in 0..<perSide {
            let south = rooms[i]
            let north = rooms[perSide + i]
            order += i % 2 == 0 ? [south, north] : [north, south]
        }
        for j in 0..<roomBeacons {
            let room = order[min(order.count - 1, Int((Double(j) + 0.5) * Double(order.count) / Double(roomBeacons)))]
            let y = room.isNorth ? width - 0.05 : 0.05
            mounts.append(Point2D(x: room.centre.x, y: y))
        }
        let southWall = options.roomDepth
        let northWall = options.roomDepth + options.corridorWidth
        for j in 0..<corridorBeacons {
            var x = (Double(j) + 0.5) * length / Double(corridorBeacons)
            // Keep clear of door gaps: move past the door's edge.
            for room in rooms.prefix(perSide) where abs(room.door.x - x) < Self.doorWidth / 2 + 0.3 {
                x = room.door.x + Self.doorWidth / 2 + 0.5
            }
            let y = j % 2 == 0 ? southWall + 0.05 : northWall - 0.05
            mounts.append(Point2D(x: min(x, length - 0.05), y: y))
        }
        return mounts
    }

    /// A random spot in `room`, at least 1 m from its walls (or its centre, in a tiny room).
    func spot(in room: Room, using random: inout SplitMix64) -> Point2D {
        let margin = 1.0
        let (minimum, maximum) = room.bounds
        guard maximum.x - minimum.x > 2 * margin, maximum.y - minimum.y > 2 * margin else { return room.centre }
        return Point2D(
            x: random.uniform((minimum.x + margin)...(maximum.x - margin)),
            y: random.uniform((minimum.y + margin)...(maximum.y - margin)))
    }

    /// The point just inside `room`'s door, 0.6 m from the corridor wall.
    func insideDoor(_ room: Room) -> Point2D {
        Point2D(x: room.door.x, y: room.door.y + (room.isNorth ? 0.6 : -0.6))
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(range.upperBound, Swift.max(range.lowerBound, self))
    }
    fileprivate var asInt: Int { Int(self) }
}
