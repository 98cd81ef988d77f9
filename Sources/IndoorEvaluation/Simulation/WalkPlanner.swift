import IndoorModel

/// Plans realistic walks through the simulated office: room to door to corridor to door to room, with
/// pauses in rooms and stairs between floors, at a steady walking speed.
struct WalkPlanner: Sendable {
    let layout: OfficeLayout
    let options: SimulatorOptions

    /// Seconds to climb or descend one floor by the stairs.
    static let secondsPerFlight = 12.0

    private func elevation(_ level: Int) -> Double { Double(level) * options.floorHeight }

    /// A walker who goes from room to random room until `duration` is reached.
    func walker(duration: Double, using random: inout SplitMix64) -> Trajectory {
        let speed = max(0.5, min(2, options.walkingSpeed * (1 + random.gaussian(deviation: 0.08))))
        var walk = Walk(speed: speed, deviceHeight: options.deviceHeight, floorHeight: options.floorHeight)
        var level = random.index(below: options.floors)
        var room = layout.rooms[random.index(below: layout.rooms.count)]
        walk.start(at: layout.spot(in: room, using: &random), level: level)
        walk.pause(random.uniform(0...options.pause.upperBound))
        while walk.time < duration {
            // Another room; on another floor one time in four when there are several.
            var nextLevel = level
            if options.floors > 1, random.unit() < 0.25 {
                nextLevel = (level + 1 + random.index(below: options.floors - 1)) % options.floors
            }
            var next = layout.rooms[random.index(below: layout.rooms.count)]
            if next.index == room.index, nextLevel == level {
                next =
                    layout.rooms[
                        (room.index + 1 + random.index(below: max(1, layout.rooms.count - 1))) % layout.rooms.count]
            }
            walk.move(to: layout.insideDoor(room))
            walk.move(to: room.door)
            walk.move(to: room.corridorPoint)
            if nextLevel != level {
                walk.move(to: layout.stairs)
                walk.climb(to: nextLevel, seconds: Self.secondsPerFlight * Double(abs(nextLevel - level)))
            }
            walk.move(to: next.corridorPoint)
            walk.move(to: next.door)
            walk.move(to: layout.insideDoor(next))
            walk.move(to: layout.spot(in: next, using: &random))
            walk.pause(random.uniform(options.pause))
            room = next
            level = nextLevel
        }
        return walk.trajectory
    }

    /// The survey walk of `train/`: on every floor, along the corridor into each room in turn, standing
    /// ``SimulatorOptions/surveyDwell`` seconds at the room's centre and at the corridor point by its door.
    func survey() -> Trajectory {
        var walk = Walk(
            speed: options.walkingSpeed, deviceHeight: options.deviceHeight, floorHeight: options.floorHeight)
        let perSide = options.roomsPerSide
        walk.start(at: layout.stairs, level: 0)
        for level in 0..<options.floors {
            if level > 0 {
                walk.move(to: layout.stairs)
                walk.climb(to: level, seconds: Self.secondsPerFlight)
            }
            walk.pause(options.surveyDwell)
            for i in 0..<perSide {
                // Both rooms at this point of the corridor: south, then north.
                for room in [layout.rooms[i], layout.rooms[perSide + i]] {
                    walk.move(to: room.corridorPoint)
                    walk.pause(options.surveyDwell)
                    walk.move(to: room.door)
                    walk.move(to: room.centre)
                    walk.pause(options.surveyDwell)
                    walk.move(to: room.door)
                }
            }
        }
        walk.move(to: layout.stairs)
        return walk.trajectory
    }
}

/// A walk being planned: the walker's current place and time, and the knots so far.
private struct Walk {
    let speed: Double
    let deviceHeight: Double
    let floorHeight: Double
    var trajectory = Trajectory()
    var time = 0.0
    var point = Point2D(x: 0, y: 0)
    var level = 0

    init(speed: Double, deviceHeight: Double, floorHeight: Double) {
        self.speed = speed
        self.deviceHeight = deviceHeight
        self.floorHeight = floorHeight
    }

    private var height: Double { Double(level) * floorHeight + deviceHeight }

    mutating func start(at start: Point2D, level startLevel: Int) {
        point = start
        level = startLevel
        trajectory.append(time: time, point: point, height: height, level: level)
    }

    mutating func move(to target: Point2D) {
        let distance = point.distance(to: target)
        guard distance > 1e-9 else { return }
        time += distance / speed
        point = target
        trajectory.append(time: time, point: point, height: height, level: level)
    }

    mutating func pause(_ seconds: Double) {
        guard seconds > 0 else { return }
        time += seconds
        trajectory.append(time: time, point: point, height: height, level: level)
    }

    /// Climbs or descends to `target` in `seconds`, one flight at a time: a walker passes every floor between, so the
    /// truth's level steps through each of them (halfway up each flight) rather than jumping.
    mutating func climb(to target: Int, seconds: Double) {
        let flights = abs(target - level)
        guard flights > 0 else { return }
        let step = target > level ? 1 : -1
        for _ in 0..<flights {
            time += seconds / Double(flights)
            level += step
            trajectory.append(time: time, point: point, height: height, level: level)
        }
    }
}
