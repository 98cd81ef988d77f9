import Foundation

/// The limits of a venue's (or a dataset's) local frame: Cartesian metres from a local origin.
///
/// A venue is a building or a site, so every coordinate read from a file (a node, a floor's outline or
/// walls, a fence, a geoline, a floor's elevation) must be a finite number within ``limitMeters`` of the
/// local origin along each axis. A coordinate beyond it is a typo (`1000000` for `100`) or a unit mix-up
/// (millimetres, or degrees of latitude) and is refused where it is read, before it reaches an engine.
public enum LocalFrame {
    /// How far from the local origin a coordinate may be, in metres along each axis: 100 km (1e5 m).
    public static let limitMeters: Double = 100_000

    /// Why `value` cannot be a local coordinate, or `nil` when it can.
    ///
    /// - Parameter value: A coordinate in metres (x, y, z, or an elevation or a radius).
    /// - Returns: A phrase to follow the value in a message, such as `is more than 100 km from the origin`
    ///   or `is not a finite number`; `nil` for a finite value within ±``limitMeters``.
    public static func problem(meters value: Double) -> String? {
        guard value.isFinite else { return "is not a finite number" }
        guard abs(value) <= limitMeters else { return "is more than 100 km from the origin" }
        return nil
    }
}
