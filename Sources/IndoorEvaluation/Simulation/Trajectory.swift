import IndoorModel

/// Where a simulated walker is over time: straight moves between timed knots.
///
/// Positions are metres in the venue frame; `height` is above the ground floor's level (absolute), so a
/// walk up the stairs changes it continuously while ``Knot/level`` says which floor the walker is on.
public struct Trajectory: Hashable, Sendable {
    /// Where the walker is at one time.
    package struct Knot: Hashable, Sendable {
        /// Seconds from the start of the recording.
        package var time: Double
        /// Horizontal position, metres in the venue frame.
        package var point: Point2D
        /// Metres above the ground floor's level.
        package var height: Double
        /// The floor level the walker is on.
        package var level: Int
    }

    /// Knots in time order; the walker stands still before the first and after the last.
    package private(set) var knots: [Knot] = []

    /// A trajectory without knots.
    init() {}

    /// Adds a knot at `time` (not before the last knot's time).
    mutating func append(time: Double, point: Point2D, height: Double, level: Int) {
        knots.append(Knot(time: max(time, knots.last?.time ?? time), point: point, height: height, level: level))
    }

    /// The time of the last knot.
    var endTime: Double { knots.last?.time ?? 0 }

    /// The walker's state at `time`: horizontal position, absolute height, floor level.
    ///
    /// During a move between knots on different levels, the level switches halfway.
    public func state(at time: Double) -> (point: Point2D, height: Double, level: Int) {
        guard let first = knots.first, let last = knots.last else { return (Point2D(x: 0, y: 0), 0, 0) }
        if time <= first.time { return (first.point, first.height, first.level) }
        if time >= last.time { return (last.point, last.height, last.level) }
        let (lower, upper) = knots.bracket(time: time, by: \.time)
        let a = knots[lower]
        let b = knots[upper]
        let span = b.time - a.time
        let f = span > 0 ? (time - a.time) / span : 1
        return (
            a.point.interpolated(to: b.point, fraction: f), a.height + f * (b.height - a.height),
            f < 0.5 ? a.level : b.level
        )
    }
}
