import Foundation

/// A polyline on a floor that checks a device in when its track crosses it (a gate, a doorway).
///
/// Crossing direction is relative to the line's own direction, from its first point to its last:
/// a device coming from the left-hand side crosses ``Direction/leftToRight``.
/// In a venue JSON: `{"id": "gate", "floor": 0, "points": [[x, y], [x, y], ...]}`; `id` and `floor` are optional.
public struct ZoneGeoline: Hashable, Sendable {
    /// Which way a track crossed the line, looking along the line from its first point to its last.
    public enum Direction: String, Hashable, Sendable, Codable {
        case leftToRight, rightToLeft
    }

    /// A name for events; `nil` means the line is named by its index in the zone.
    public var id: String?
    /// The floor level; `nil` matches every floor.
    public var floor: Int?
    /// At least two points, not all the same, metres in the venue's local frame.
    public var points: [Point2D]

    public init(id: String? = nil, floor: Int? = nil, points: [Point2D]) {
        self.id = id
        self.floor = floor
        self.points = points
    }

    /// The line's straight pieces, in order.
    public var segments: [Segment] {
        guard points.count > 1 else { return [] }
        return (1..<points.count).map { Segment(from: points[$0 - 1], to: points[$0]) }
    }

    /// The direction in which the straight move from `start` to `end` crosses the line, or `nil` when it does not.
    ///
    /// A point exactly on the line counts as being on its left-hand side, so a track that stops on the line
    /// and then goes on crosses it once, not twice. When the move crosses several pieces, the first piece
    /// (in line order) that it crosses decides.
    public func crossing(from start: Point2D, to end: Point2D) -> Direction? {
        let move = Segment(from: start, to: end)
        for piece in segments where piece.intersects(move) {
            let startLeft = Self.isLeft(start, of: piece)
            let endLeft = Self.isLeft(end, of: piece)
            guard startLeft != endLeft else { continue }
            return startLeft ? .leftToRight : .rightToLeft
        }
        return nil
    }

    /// Whether `point` lies on the left of (or on) the infinite line through `piece`.
    private static func isLeft(_ point: Point2D, of piece: Segment) -> Bool {
        let cross =
            (piece.end.x - piece.start.x) * (point.y - piece.start.y)
            - (piece.end.y - piece.start.y) * (point.x - piece.start.x)
        return cross >= 0
    }
}

extension ZoneGeoline: Codable {
    enum CodingKeys: String, CodingKey {
        case id, floor, points
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let points = try container.decode([Point2D].self, forKey: .points)
        guard points.count >= 2 else {
            throw DecodingError.dataCorruptedError(
                forKey: .points, in: container, debugDescription: "a geoline needs at least 2 points")
        }
        guard points.contains(where: { $0 != points[0] }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .points, in: container,
                debugDescription: "a geoline needs 2 distinct points (all of its points are the same)")
        }
        self.init(
            id: try container.decodeIfPresent(String.self, forKey: .id),
            floor: try container.decodeIntegerIfPresent(forKey: .floor), points: points)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(floor, forKey: .floor)
        try container.encode(points, forKey: .points)
    }
}
