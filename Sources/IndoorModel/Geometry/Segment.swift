import Foundation

/// A straight wall or line piece between two points of the local frame, in metres.
///
/// In JSON a segment is `[[x1, y1], [x2, y2]]`.
public struct Segment: Hashable, Sendable {
    /// One end, metres in the local frame.
    public var start: Point2D
    /// The other end, metres in the local frame.
    public var end: Point2D

    /// A segment between two points (metres, local frame).
    public init(from start: Point2D, to end: Point2D) {
        self.start = start
        self.end = end
    }

    /// The segment's length in metres.
    public var length: Double { start.distance(to: end) }

    /// Whether this segment and `other` cross or touch.
    package func intersects(_ other: Segment) -> Bool {
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
        let dx = end.x - start.x
        let dy = end.y - start.y
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
