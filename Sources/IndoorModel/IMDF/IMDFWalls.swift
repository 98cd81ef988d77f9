import Foundation

/// A floor's walls from its units' boundaries: every boundary edge once (edges two rooms share merged into one wall),
/// with a gap wherever an opening (a door) lies on it.
///
/// Edges on one straight line are merged as intervals along the line; edges merely near a line (a neighbour's copy of
/// the same wall) join it where they overlap it. Each opening's pieces are cut out of every line they lie within
/// ``openingTolerance`` of where it runs, whatever small angle that implies (``openingAngle(length:)``). How close two edges must be to be one wall is the walls' own setting:
/// exactly (``lineTolerance``, for an export that must give back what it was given) or, for archives drawn by hand,
/// ``merging()``: two neighbouring units often draw their shared wall a few centimetres and a fraction of a degree
/// apart, and those must be one wall, or a door cut into one of them stays closed by the other. Metres in the local
/// frame.
struct IMDFWalls: Sendable {
    /// How far apart (metres) two edges may be and still be one wall when exact; also the largest angle between them
    /// (radians, over a metre).
    static let lineTolerance = 0.01
    /// How far apart (metres) the ends of two edges drawn by neighbouring units may be and still be one wall.
    static let mergeDistance = 0.05
    /// The largest angle (radians, 2°) between two edges drawn by neighbouring units that are still one wall.
    static let mergeAngle = 2 * Double.pi / 180
    /// How far (metres) every point of an opening may be from a boundary and still cut it.
    static let openingTolerance = 0.1
    /// How much (radians, 3°) an opening may be turned from a boundary beyond the angle ``openingTolerance`` makes over
    /// its length (see ``openingAngle(length:)``).
    static let openingSkew = 3 * Double.pi / 180

    /// The largest angle (radians) between an opening piece `length` metres long and a boundary it cuts: the angle of
    /// one end on the boundary and the other ``openingTolerance`` off it, atan(0.1 m / length), plus ``openingSkew``
    /// for ends off on either side: 8.7° for a 1 m door, 6.9° for 1.46 m, 4.4° for 4 m; at most 90°. Hand-drawn doors
    /// lie a few degrees off their walls (2.1–2.4° with their ends within 5.4 cm in a hospital archive made with
    /// Apple's IMDF Sandbox); the distance decides, and the angle only keeps a short piece from cutting a wall it
    /// crosses.
    static func openingAngle(length: Double) -> Double {
        guard length > 0 else { return .pi / 2 }
        return min(atan(openingTolerance / length) + openingSkew, .pi / 2)
    }
    /// Wall pieces shorter than this (metres) are left out.
    static let shortest = 0.01

    /// How far (metres) an edge's ends may be from a line and still lie on it.
    let distanceTolerance: Double
    /// The largest angle (radians) between an edge and a line it lies on.
    let angleTolerance: Double

    /// A straight line and the intervals of it that are boundary.
    private struct Line {
        var angle: Double
        var direction: Point2D
        var normal: Point2D
        var offset: Double
        var intervals: [ClosedRange<Double>] = []
        var gaps: [ClosedRange<Double>] = []
    }

    private var lines: [Line] = []
    /// Line indices by angle bucket, to find the lines near an edge's angle without a scan.
    private var buckets: [Int: [Int]] = [:]

    private static let angleBuckets = 3142
    private static let bucketWidth = Double.pi / Double(angleBuckets)

    /// Walls whose edges are one wall when they lie within `distance` metres and `angle` radians of each other
    /// (default: exactly, ``lineTolerance`` and one angle bucket).
    init(distance: Double = lineTolerance, angle: Double = IMDFWalls.bucketWidth) {
        distanceTolerance = distance
        angleTolerance = angle
    }

    /// Walls of an archive drawn by hand: neighbouring units' edges within ``mergeDistance`` and ``mergeAngle`` are one
    /// wall.
    static func merging() -> IMDFWalls {
        IMDFWalls(distance: mergeDistance, angle: mergeAngle)
    }

    /// Adds the boundary of `polygon`.
    mutating func addBoundary(of polygon: Polygon) {
        for edge in polygon.edges where edge.length > Self.shortest {
            let index =
                lines(of: edge, tolerance: distanceTolerance, angle: angleTolerance).first ?? newLine(through: edge)
            lines[index].intervals.append(interval(of: edge, on: lines[index]))
        }
    }

    /// Cuts the pieces of an opening's line string out of every boundary line they lie on: a door between two units
    /// whose walls were drawn apart opens both. A piece lies on a line when both its ends (and so every point between
    /// them) are within ``openingTolerance`` of it, at an angle of at most ``openingAngle(length:)``, where the line's
    /// boundary runs beside the piece; the gap cut is the piece's projection onto the line.
    /// - Returns: Whether every piece lay on a boundary.
    mutating func addOpening(_ points: [Point2D]) -> Bool {
        cut(points, tolerance: Self.openingTolerance) { Self.openingAngle(length: $0) }
    }

    /// Cuts the pieces of `points` out of every line they lie on: both ends within `tolerance` metres, the angle
    /// within `angle(length)` radians.
    /// - Returns: Whether every piece lay on a line.
    private mutating func cut(_ points: [Point2D], tolerance: Double, angle: (Double) -> Double) -> Bool {
        var placed = true
        for (start, end) in zip(points, points.dropFirst()) {
            let piece = Segment(from: start, to: end)
            guard piece.length > Self.shortest else { continue }
            let found = lines(of: piece, tolerance: tolerance, angle: angle(piece.length))
            if found.isEmpty { placed = false }
            for index in found {
                lines[index].gaps.append(interval(of: piece, on: lines[index]))
            }
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
        let angle = max(angleTolerance, Self.bucketWidth)
        for wall in walls where wall.length > Self.shortest {
            if !open.cut([wall.start, wall.end], tolerance: Self.lineTolerance, angle: { _ in angle }) {
                offBoundary.append(wall)
            }
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

    /// The lines `segment` lies on (both ends within `tolerance` metres, its angle within `angle` radians), the
    /// nearest first.
    private func lines(of segment: Segment, tolerance: Double, angle limit: Double) -> [Int] {
        let angle = Self.angle(of: segment)
        let bucket = Self.bucket(angle)
        let reach = Int((limit / Self.bucketWidth).rounded(.up))
        var found: [(index: Int, distance: Double)] = []
        var seen = Set<Int>()
        for step in -reach...reach {
            // Past 0 or π the angle wraps round: the same line.
            let wrapped = ((bucket + step) % Self.angleBuckets + Self.angleBuckets) % Self.angleBuckets
            guard seen.insert(wrapped).inserted else { continue }
            for index in buckets[wrapped] ?? [] {
                let line = lines[index]
                let difference = abs(line.angle - angle)
                guard min(difference, .pi - difference) <= limit else { continue }
                let distance = distance(of: segment, from: line)
                guard distance <= tolerance else { continue }
                // On the line exactly, anywhere along it (walls of one straight run join end to end); merely near it,
                // only where the line already runs beside the segment (a neighbour's copy of the same wall), so that
                // a line's own small turn never carries it to a wall metres away.
                let exact = distance <= Self.lineTolerance && min(difference, .pi - difference) <= Self.bucketWidth
                guard exact || overlaps(interval(of: segment, on: line), line) else { continue }
                found.append((index, distance))
            }
        }
        return found.sorted { ($0.distance, $0.index) < ($1.distance, $1.index) }.map(\.index)
    }

    /// Whether `interval` overlaps one of `line`'s boundary intervals by more than ``shortest``.
    private func overlaps(_ interval: ClosedRange<Double>, _ line: Line) -> Bool {
        line.intervals.contains {
            min(interval.upperBound, $0.upperBound) - max(interval.lowerBound, $0.lowerBound) > Self.shortest
        }
    }

    /// A new line through `segment`.
    private mutating func newLine(through segment: Segment) -> Int {
        let angle = Self.angle(of: segment)
        let direction = Point2D(x: cos(angle), y: sin(angle))
        let normal = Point2D(x: -direction.y, y: direction.x)
        let offset = segment.start.x * normal.x + segment.start.y * normal.y
        lines.append(Line(angle: angle, direction: direction, normal: normal, offset: offset))
        buckets[Self.bucket(angle), default: []].append(lines.count - 1)
        return lines.count - 1
    }

    /// The direction of `segment`, radians in 0 ..< π.
    private static func angle(of segment: Segment) -> Double {
        var angle = atan2(segment.end.y - segment.start.y, segment.end.x - segment.start.x)
        if angle < 0 { angle += .pi }
        if angle >= .pi { angle -= .pi }
        return angle
    }

    /// The farther of `segment`'s ends from `line`, metres.
    private func distance(of segment: Segment, from line: Line) -> Double {
        max(
            abs(segment.start.x * line.normal.x + segment.start.y * line.normal.y - line.offset),
            abs(segment.end.x * line.normal.x + segment.end.y * line.normal.y - line.offset))
    }

    private static func bucket(_ angle: Double) -> Int {
        min(max(Int(angle / bucketWidth), 0), angleBuckets - 1)
    }
}
