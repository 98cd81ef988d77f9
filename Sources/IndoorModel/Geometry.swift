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

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The Euclidean distance to `other`, in metres.
    public func distance(to other: Point2D) -> Double {
        (x - other.x).hypot(y - other.y)
    }

    /// Whether both coordinates lie within `absoluteTolerance` metres of `other`'s.
    public func isApproximatelyEqual(to other: Point2D, absoluteTolerance: Double) -> Bool {
        abs(x - other.x) <= absoluteTolerance && abs(y - other.y) <= absoluteTolerance
    }
}

/// A point in a venue's local frame with height, in metres.
///
/// `z` is the height above the floor's reference (0 for the ground floor's floor level).
public struct Point3D: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The horizontal part of this point.
    public var horizontal: Point2D { Point2D(x: x, y: y) }

    /// The Euclidean distance in 3-D to `other`, in metres.
    public func distance(to other: Point3D) -> Double {
        let dx = x - other.x, dy = y - other.y, dz = z - other.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// Whether all coordinates lie within `absoluteTolerance` metres of `other`'s.
    public func isApproximatelyEqual(to other: Point3D, absoluteTolerance: Double) -> Bool {
        abs(x - other.x) <= absoluteTolerance && abs(y - other.y) <= absoluteTolerance
            && abs(z - other.z) <= absoluteTolerance
    }
}

/// A straight wall or line piece between two points of the local frame, in metres.
///
/// In JSON a segment is `[[x1, y1], [x2, y2]]`.
public struct Segment: Hashable, Sendable {
    public var start: Point2D
    public var end: Point2D

    public init(from start: Point2D, to end: Point2D) {
        self.start = start
        self.end = end
    }

    /// The segment's length in metres.
    public var length: Double { start.distance(to: end) }

    /// Whether this segment and `other` cross or touch.
    public func intersects(_ other: Segment) -> Bool {
        let d1 = Self.orientation(other.start, other.end, start)
        let d2 = Self.orientation(other.start, other.end, end)
        let d3 = Self.orientation(start, end, other.start)
        let d4 = Self.orientation(start, end, other.end)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
            return true
        }
        if d1 == 0 && Self.onSegment(other.start, other.end, start) { return true }
        if d2 == 0 && Self.onSegment(other.start, other.end, end) { return true }
        if d3 == 0 && Self.onSegment(start, end, other.start) { return true }
        if d4 == 0 && Self.onSegment(start, end, other.end) { return true }
        return false
    }

    /// The shortest distance from `point` to any point of this segment, in metres.
    public func distance(to point: Point2D) -> Double {
        let dx = end.x - start.x, dy = end.y - start.y
        let lengthSquared = dx * dx + dy * dy
        guard lengthSquared > 0 else { return start.distance(to: point) }
        let t = max(0, min(1, ((point.x - start.x) * dx + (point.y - start.y) * dy) / lengthSquared))
        return Point2D(x: start.x + t * dx, y: start.y + t * dy).distance(to: point)
    }

    /// The cross product sign of (b − a) × (c − a): > 0 when c is left of a→b, < 0 right, 0 on the line.
    static func orientation(_ a: Point2D, _ b: Point2D, _ c: Point2D) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    private static func onSegment(_ a: Point2D, _ b: Point2D, _ p: Point2D) -> Bool {
        p.x >= min(a.x, b.x) && p.x <= max(a.x, b.x) && p.y >= min(a.y, b.y) && p.y <= max(a.y, b.y)
    }
}

/// A simple polygon in the local frame, in metres; the last vertex joins the first.
///
/// In JSON a polygon is the array of its vertices, `[[x, y], ...]`.
public struct Polygon: Hashable, Sendable {
    public var vertices: [Point2D]

    public init(_ vertices: [Point2D]) {
        self.vertices = vertices
    }

    /// An axis-aligned rectangle from `minimum` to `maximum`.
    public static func rectangle(from minimum: Point2D, to maximum: Point2D) -> Polygon {
        Polygon([
            minimum, Point2D(x: maximum.x, y: minimum.y), maximum, Point2D(x: minimum.x, y: maximum.y),
        ])
    }

    /// The polygon's edges, the closing one included.
    public var edges: [Segment] {
        guard vertices.count > 1 else { return [] }
        return vertices.indices.map { i in
            Segment(from: vertices[i], to: vertices[(i + 1) % vertices.count])
        }
    }

    /// The enclosed area in square metres (always ≥ 0).
    public var area: Double {
        guard vertices.count > 2 else { return 0 }
        var twice = 0.0
        for i in vertices.indices {
            let a = vertices[i], b = vertices[(i + 1) % vertices.count]
            twice += a.x * b.y - b.x * a.y
        }
        return abs(twice) / 2
    }

    /// Whether `point` lies inside the polygon (even–odd rule; points on an edge count as inside).
    public func contains(_ point: Point2D) -> Bool {
        guard vertices.count > 2 else { return false }
        var inside = false
        var j = vertices.count - 1
        for i in vertices.indices {
            let a = vertices[i], b = vertices[j]
            if Segment(from: a, to: b).distance(to: point) < 1e-9 { return true }
            if (a.y > point.y) != (b.y > point.y) {
                let crossX = a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x)
                if point.x < crossX { inside.toggle() }
            }
            j = i
        }
        return inside
    }

    /// The distance in metres from `point` to the polygon's boundary (0 on an edge).
    public func distanceToBoundary(from point: Point2D) -> Double {
        edges.map { $0.distance(to: point) }.min() ?? .infinity
    }
}

extension Double {
    /// `sqrt(self² + other²)` without undue overflow.
    @inlinable
    func hypot(_ other: Double) -> Double {
        Foundation.hypot(self, other)
    }
}
