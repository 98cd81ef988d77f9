import Foundation

/// A point in a venue's local frame with height, in metres.
///
/// `z` is the height above the floor's reference (0 for the ground floor's floor level).
public struct Point3D: Hashable, Sendable {
    /// Metres along the local x axis.
    public var x: Double
    /// Metres along the local y axis.
    public var y: Double
    /// Metres up (above the floor, or the ground floor, as the owner says).
    public var z: Double

    /// A point `x`, `y`, `z` metres from the local origin.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The horizontal part of this point.
    public var horizontal: Point2D { Point2D(x: x, y: y) }

    /// The Euclidean distance in 3-D to `other`, in metres.
    public func distance(to other: Point3D) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        let dz = z - other.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// Whether all coordinates lie within `absoluteTolerance` metres of `other`'s.
    package func isApproximatelyEqual(to other: Point3D, absoluteTolerance: Double) -> Bool {
        abs(x - other.x) <= absoluteTolerance && abs(y - other.y) <= absoluteTolerance
            && abs(z - other.z) <= absoluteTolerance
    }
}
