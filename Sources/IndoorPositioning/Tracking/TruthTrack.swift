import IndoorModel

/// The ground truth of one device as a function of time: linear interpolation between truth rows.
///
/// A device with a single truth row (a static fingerprint sample) is at that point at every time.
public struct TruthTrack: Hashable, Sendable {
    /// Truth rows in time order.
    public let points: [TruthPoint]
    /// Largest gap in seconds between rows (or beyond the first and last) that may be bridged; a row's own time is
    /// known whatever the gaps about it.
    public var maximumGap: Double

    init(points: [TruthPoint], maximumGap seconds: Double = 5) {
        self.points = points.sorted { $0.time < $1.time }
        self.maximumGap = seconds
    }

    /// Whether the device never moves (one row, or all rows at one point).
    public var isStatic: Bool {
        guard let first = points.first else { return false }
        return points.allSatisfy { $0.point == first.point }
    }

    /// The horizontal position (metres) and height (when known) at `time` seconds, or `nil` when unknown: a row's
    /// own, or interpolated between two rows at most ``maximumGap`` apart (or that far beyond the first or last).
    public func position(at time: Double) -> (point: Point2D, z: Double?)? {
        guard let first = points.first, let last = points.last else { return nil }
        if isStatic { return (first.point, first.z) }
        if time <= first.time { return time >= first.time - maximumGap ? (first.point, first.z) : nil }
        if time >= last.time { return time <= last.time + maximumGap ? (last.point, last.z) : nil }
        let (lower, upper) = points.bracket(time: time, by: \.time)
        let a = points[lower]
        let b = points[upper]
        // A row's own time is known however far its neighbours are (`lower` is the last row at or before `time`).
        if a.time == time { return (a.point, a.z) }
        let span = b.time - a.time
        guard span <= maximumGap else { return nil }
        let f = span > 0 ? (time - a.time) / span : 0
        var z: Double?
        if let za = a.z, let zb = b.z { z = za + f * (zb - za) }
        return (a.point.interpolated(to: b.point, fraction: f), z)
    }

    /// The floor of the truth row nearest in time to `time`, `nil` when the truth has no floors.
    public func floor(at time: Double) -> Int? {
        guard !points.isEmpty else { return nil }
        let (lower, upper) = points.bracket(time: time, by: \.time)
        return abs(points[lower].time - time) <= abs(points[upper].time - time)
            ? points[lower].floor : points[upper].floor
    }

    /// One track per device of `truth`.
    public static func tracks(_ truth: [TruthPoint], maximumGap seconds: Double = 5) -> [String: TruthTrack] {
        Dictionary(grouping: truth, by: \.device).mapValues { TruthTrack(points: $0, maximumGap: seconds) }
    }
}
