import IndoorModel

/// The ground truth of one device as a function of time: linear interpolation between truth rows.
///
/// A device with a single truth row (a static fingerprint sample) is at that point at every time.
public struct TruthTrack: Hashable, Sendable {
    /// Truth rows in time order.
    public let points: [TruthPoint]
    /// Largest gap in seconds between rows (or beyond the first and last) that may be bridged.
    public var maximumGap: Double

    public init(points: [TruthPoint], maximumGap seconds: Double = 5) {
        self.points = points.sorted { $0.time < $1.time }
        self.maximumGap = seconds
    }

    /// Whether the device never moves (one row, or all rows at one point).
    public var isStatic: Bool {
        guard let first = points.first else { return false }
        return points.allSatisfy { $0.point == first.point }
    }

    /// The horizontal position (metres) and height (when known) at `time` seconds, or `nil` when unknown.
    public func position(at time: Double) -> (point: Point2D, z: Double?)? {
        guard let first = points.first, let last = points.last else { return nil }
        if isStatic { return (first.point, first.z) }
        if time <= first.time { return time >= first.time - maximumGap ? (first.point, first.z) : nil }
        if time >= last.time { return time <= last.time + maximumGap ? (last.point, last.z) : nil }
        var low = 0, high = points.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if points[middle].time <= time { low = middle } else { high = middle }
        }
        let a = points[low], b = points[high]
        let span = b.time - a.time
        guard span <= maximumGap else { return nil }
        let f = span > 0 ? (time - a.time) / span : 0
        let point = Point2D(x: a.point.x + f * (b.point.x - a.point.x), y: a.point.y + f * (b.point.y - a.point.y))
        var z: Double?
        if let za = a.z, let zb = b.z { z = za + f * (zb - za) }
        return (point, z)
    }

    /// The floor of the truth row nearest in time to `time`, `nil` when the truth has no floors.
    public func floor(at time: Double) -> Int? {
        guard !points.isEmpty else { return nil }
        var low = 0, high = points.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if points[middle].time <= time { low = middle } else { high = middle }
        }
        return abs(points[low].time - time) <= abs(points[high].time - time) ? points[low].floor : points[high].floor
    }

    /// One track per device of `truth`.
    public static func tracks(_ truth: [TruthPoint], maximumGap seconds: Double = 5) -> [String: TruthTrack] {
        Dictionary(grouping: truth, by: \.device).mapValues { TruthTrack(points: $0, maximumGap: seconds) }
    }
}
