import Foundation

/// A point in a venue's local horizontal frame, in metres.
///
/// The local frame is Cartesian and metric: +x points "east-ish", +y "north-ish"; a venue's
/// ``GeoAnchor`` says exactly how it sits on the Earth. In JSON a point is the array `[x, y]`.
public struct Point2D: Hashable, Sendable {
    /// Metres along the local x axis.
    public var x: Double
    /// Metres along the local y axis.
    public var y: Double

    /// A point `x`, `y` metres from the local origin.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The Euclidean distance to `other`, in metres.
    public func distance(to other: Point2D) -> Double {
        (x - other.x).hypot(y - other.y)
    }

    /// Whether both coordinates lie within `absoluteTolerance` metres of `other`'s.
    package func isApproximatelyEqual(to other: Point2D, absoluteTolerance: Double) -> Bool {
        abs(x - other.x) <= absoluteTolerance && abs(y - other.y) <= absoluteTolerance
    }

    /// The point a `fraction` of the way from this point to `other` (0 gives this point, 1 gives `other`;
    /// values outside 0...1 extrapolate along the same line).
    public func interpolated(to other: Point2D, fraction: Double) -> Point2D {
        Point2D(x: x + fraction * (other.x - x), y: y + fraction * (other.y - y))
    }
}

extension Double {
    /// `sqrt(self² + other²)` without undue overflow.
    @inlinable
    func hypot(_ other: Double) -> Double {
        Foundation.hypot(self, other)
    }
}
