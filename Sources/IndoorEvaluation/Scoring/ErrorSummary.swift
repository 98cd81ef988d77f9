/// The summary statistics of one method's errors on one dataset: the numbers `indoor evaluate` reports.
///
/// Pure arithmetic, no I/O. ``count`` is every truth row scored, misses included; the error statistics
/// are over the rows that got a position (``count`` − ``misses``) and are `nil` when there are none.
public struct ErrorSummary: Hashable, Sendable {
    /// Truth rows scored, misses included.
    public var count: Int
    /// Rows for which the method gave no position.
    public var misses: Int
    /// Mean horizontal error, metres.
    var meanMeters: Double?
    /// Median (50th percentile) horizontal error, metres.
    public var medianMeters: Double?
    /// 90th percentile horizontal error, metres.
    public var p90Meters: Double?
    /// Largest horizontal error, metres.
    public var maxMeters: Double?
    /// Fraction (0…1) of located rows with a floor in the truth whose floor was right;
    /// `nil` when no truth row has a floor.
    public var floorAccuracy: Double?

    /// Summarises horizontal errors.
    ///
    /// - Parameters:
    ///   - errors: The horizontal error of each located row, metres (non-finite values are treated as misses).
    ///   - misses: Rows without a position.
    ///   - floorHits: Located rows whose floor was right.
    ///   - floorRows: Located rows whose truth has a floor (0 when the dataset has no floors).
    public init(errors: [Double], misses: Int, floorHits: Int = 0, floorRows: Int = 0) {
        let finite = errors.filter(\.isFinite).sorted()
        self.count = errors.count + misses
        self.misses = misses + (errors.count - finite.count)
        if finite.isEmpty {
            meanMeters = nil
            medianMeters = nil
            p90Meters = nil
            maxMeters = nil
        } else {
            meanMeters = finite.reduce(0, +) / Double(finite.count)
            medianMeters = Self.percentile(sorted: finite, fraction: 0.5)
            p90Meters = Self.percentile(sorted: finite, fraction: 0.9)
            maxMeters = finite.last
        }
        floorAccuracy = floorRows > 0 ? Double(floorHits) / Double(floorRows) : nil
    }

    /// The percentile of ascending `sorted` values at `fraction` (0…1), interpolating linearly between
    /// the closest ranks (the "linear" method of NumPy and R's type 7).
    ///
    /// - Returns: `nil` for an empty array.
    public static func percentile(sorted: [Double], fraction: Double) -> Double? {
        guard let first = sorted.first else { return nil }
        guard sorted.count > 1 else { return first }
        let clamped = min(1, max(0, fraction))
        let rank = clamped * Double(sorted.count - 1)
        let lower = Int(rank.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let weight = rank - Double(lower)
        return sorted[lower] + weight * (sorted[upper] - sorted[lower])
    }
}
