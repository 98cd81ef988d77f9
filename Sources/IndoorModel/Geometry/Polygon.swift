import Foundation

/// A simple polygon in the local frame, in metres; the last vertex joins the first.
///
/// In JSON a polygon is the array of its vertices, `[[x, y], ...]`.
public struct Polygon: Hashable, Sendable {
    /// The corners in order (either winding), metres in the local frame; the last joins the first.
    public var vertices: [Point2D]

    /// A polygon through `vertices` (metres, local frame).
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
            let a = vertices[i]
            let b = vertices[(i + 1) % vertices.count]
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
            let a = vertices[i]
            let b = vertices[j]
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
