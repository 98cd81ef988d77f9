import Foundation
import IndoorModel

/// Whether two polygons have the same vertices in the same cyclic order (from any start, in either direction),
/// within `tolerance` metres.
func same(_ a: Polygon, _ b: Polygon, tolerance: Double = 0.01) -> Bool {
    guard a.vertices.count == b.vertices.count else { return false }
    return [b.vertices, b.vertices.reversed()].contains { expected in
        a.vertices.indices.contains { shift in
            a.vertices.indices.allSatisfy { i in
                a.vertices[(i + shift) % a.vertices.count].isApproximatelyEqual(
                    to: expected[i], absoluteTolerance: tolerance)
            }
        }
    }
}

/// Whether two lists of walls are the same segments (either direction, any order) within 1 cm.
func sameWalls(_ walls: [Segment], _ expected: [Segment]) -> Bool {
    guard walls.count == expected.count else { return false }
    var left = walls
    for wall in expected {
        guard
            let index = left.firstIndex(where: {
                ($0.start.isApproximatelyEqual(to: wall.start, absoluteTolerance: 0.01)
                    && $0.end.isApproximatelyEqual(to: wall.end, absoluteTolerance: 0.01))
                    || ($0.start.isApproximatelyEqual(to: wall.end, absoluteTolerance: 0.01)
                        && $0.end.isApproximatelyEqual(to: wall.start, absoluteTolerance: 0.01))
            })
        else { return false }
        left.remove(at: index)
    }
    return true
}

func wall(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Segment {
    Segment(from: Point2D(x: x1, y: y1), to: Point2D(x: x2, y: y2))
}

func rectangle(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Polygon {
    Polygon.rectangle(from: Point2D(x: x1, y: y1), to: Point2D(x: x2, y: y2))
}
