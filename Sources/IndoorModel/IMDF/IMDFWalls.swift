import Foundation

/// A floor's walls from its units' boundaries: every boundary edge once (edges two rooms share merged into one wall),
/// with a gap wherever an opening (a door) lies on it.
///
/// Edges on one straight line (within ``lineTolerance``) are merged as intervals along the line; each opening's
/// pieces are cut out of the line they lie on (within ``openingTolerance``). Metres in the local frame.
struct IMDFWalls: Sendable {
    /// How far apart (metres) two edges may be and still be one wall; also the largest angle between them (radians,
    /// over a metre).
    static let lineTolerance = 0.01
    /// How far (metres) an opening may be from a boundary and still cut it.
    static let openingTolerance = 0.1
    /// Wall pieces shorter than this (metres) are left out.
    static let shortest = 0.01

    /// A straight line and the intervals of it that are boundary.
    private struct Line {
        var direction: Point2D
        var normal: Point2D
        var offset: Double
        var intervals: [ClosedRange<Double>] = []
        var gaps: [ClosedRange<Double>] = []
    }

    private var lines: [Line] = []
    /// Line indices by (angle bucket, offset bucket), to find a line's neighbours without a scan.
    private var buckets: [Bucket: [Int]] = [:]

    private struct Bucket: Hashable {
        var angle: Int
        var offset: Int
    }

    private static let angleBuckets = 3142

    /// Adds the boundary of `polygon`.
    mutating func addBoundary(of polygon: Polygon) {
        for edge in polygon.edges where edge.length > Self.shortest {
            let index = line(of: edge, tolerance: Self.lineTolerance, create: true)
            guard let index else { continue }
            lines[index].intervals.append(interval(of: edge, on: lines[index]))
        }
    }

    /// Cuts the pieces of an opening's line string out of the boundary they lie on (within `tolerance` metres).
    /// - Returns: Whether every piece lay on a boundary.
    mutating func addOpening(_ points: [Point2D], tolerance: Double = openingTolerance) -> Bool {
        var placed = true
        for (start, end) in zip(points, points.dropFirst()) {
            let piece = Segment(from: start, to: end)
            guard piece.length > Self.shortest,
                let index = line(of: piece, tolerance: tolerance, create: false)
            else {
                if piece.length > Self.shortest { placed = false }
                continue
            }
            lines[index].gaps.append(interval(of: piece, on: lines[index]))
        }
        return placed
    }

    /// The boundary that `walls` leave open: what an exporter writes as openings, so that an import (boundaries
    /// minus openings) gives back the walls that lie on the boundary.
    ///
    /// - Returns: The uncovered pieces of the boundary, and the walls that lie on no boundary line (within
    ///   ``lineTolerance``), which have no place in the boundary at all.
    func openings(leftBy walls: [Segment]) -> (openings: [Segment], offBoundary: [Segment]) {
        var open = self
        var offBoundary: [Segment] = []
        for wall in walls where wall.length > Self.shortest {
            if !open.addOpening([wall.start, wall.end], tolerance: Self.lineTolerance) { offBoundary.append(wall) }
        }
        return (open.walls, offBoundary)
    }

    /// The walls: each line's boundary intervals merged, minus the openings, in the order the lines were met.
    var walls: [Segment] {
        lines.flatMap { line -> [Segment] in
            var merged: [ClosedRange<Double>] = []
            for interval in line.intervals.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = merged.last, interval.lowerBound <= last.upperBound + Self.lineTolerance {
                    merged[merged.count - 1] = last.lowerBound...max(last.upperBound, interval.upperBound)
                } else {
                    merged.append(interval)
                }
            }
            var pieces = merged
            for gap in line.gaps {
                pieces = pieces.flatMap { piece -> [ClosedRange<Double>] in
                    guard gap.lowerBound < piece.upperBound, gap.upperBound > piece.lowerBound else { return [piece] }
                    var left: [ClosedRange<Double>] = []
                    if gap.lowerBound > piece.lowerBound { left.append(piece.lowerBound...gap.lowerBound) }
                    if gap.upperBound < piece.upperBound { left.append(gap.upperBound...piece.upperBound) }
                    return left
                }
            }
            return pieces.filter { $0.upperBound - $0.lowerBound >= Self.shortest }.map { piece in
                Segment(from: point(piece.lowerBound, on: line), to: point(piece.upperBound, on: line))
            }
        }
    }

    private func point(_ t: Double, on line: Line) -> Point2D {
        Point2D(
            x: line.direction.x * t + line.normal.x * line.offset,
            y: line.direction.y * t + line.normal.y * line.offset)
    }

    private func interval(of segment: Segment, on line: Line) -> ClosedRange<Double> {
        let a = segment.start.x * line.direction.x + segment.start.y * line.direction.y
        let b = segment.end.x * line.direction.x + segment.end.y * line.direction.y
        return min(a, b)...max(a, b)
    }

    /// The index of the line `segment` lies on (both ends within `tolerance` of it), made when `create` and none is.
    private mutating func line(of segment: Segment, tolerance: Double, create: Bool) -> Int? {
        let dx = segment.end.x - segment.start.x
        let dy = segment.end.y - segment.start.y
        var angle = atan2(dy, dx)
        if angle < 0 { angle += .pi }
        if angle >= .pi { angle -= .pi }
        let direction = Point2D(x: cos(angle), y: sin(angle))
        let normal = Point2D(x: -direction.y, y: direction.x)
        let offset = segment.start.x * normal.x + segment.start.y * normal.y
        let bucket = bucket(angle: angle, offset: offset)
        let reach = Int((tolerance / Self.lineTolerance).rounded(.up))
        for angleStep in -1...1 {
            for offsetStep in -reach...reach {
                var angleBucket = bucket.angle + angleStep
                var offsetBucket = bucket.offset + offsetStep
                // Past 0 or π the same line has the opposite normal.
                if angleBucket < 0 || angleBucket >= Self.angleBuckets {
                    angleBucket = (angleBucket + Self.angleBuckets) % Self.angleBuckets
                    offsetBucket = -bucket.offset + offsetStep
                }
                for index in buckets[Bucket(angle: angleBucket, offset: offsetBucket)] ?? []
                where lies(segment, on: lines[index], tolerance: tolerance) {
                    return index
                }
            }
        }
        guard create else { return nil }
        lines.append(Line(direction: direction, normal: normal, offset: offset))
        buckets[bucket, default: []].append(lines.count - 1)
        return lines.count - 1
    }

    private func lies(_ segment: Segment, on line: Line, tolerance: Double) -> Bool {
        [segment.start, segment.end].allSatisfy { point in
            abs(point.x * line.normal.x + point.y * line.normal.y - line.offset) <= tolerance
        }
    }

    private func bucket(angle: Double, offset: Double) -> Bucket {
        Bucket(
            angle: min(Int(angle / .pi * Double(Self.angleBuckets)), Self.angleBuckets - 1),
            offset: Int((offset / Self.lineTolerance).rounded(.down)))
    }
}
