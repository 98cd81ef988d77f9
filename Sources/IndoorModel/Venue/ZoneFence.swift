import Foundation

/// An area on a floor that a device is inside of or outside of: a circle or a polygon.
///
/// In a venue JSON a fence is `{"floor": 0, "center": [x, y], "radius": 3}` (a circle) or
/// `{"floor": 0, "polygon": [[x, y], ...]}` (a simple polygon: at least 3 distinct vertices, non-zero area, no
/// crossing edges), which may have `"holes": [[[x, y], ...], ...]` (simple polygons inside it that are not part of
/// the fence: a courtyard a corridor runs round); `floor` may be left out to match every floor, and an optional
/// `"id": "desk-3"` names the fence in zone events (without it, events name the fence by its index in the zone, as
/// text).
/// Coordinates are metres in the venue's local frame.
public struct ZoneFence: Hashable, Sendable {
    /// The outline of a fence.
    public enum Shape: Hashable, Sendable {
        /// A circle around `center` with `radius` metres.
        case circle(center: Point2D, radius: Double)
        /// A simple polygon.
        case polygon(Polygon)
    }

    /// The outline, metres in the venue's local frame.
    public var shape: Shape
    /// The floor level the fence is on; `nil` matches fixes on any floor (and fixes without a floor).
    public var floor: Int?
    /// The fence's name in zone events (`"desk-3"`); `nil` when the venue gives none, and then events name
    /// the fence by its index in the zone's `fences`, as text (`"0"`). Non-empty when present.
    public var id: String?
    /// Areas inside a polygon fence that are not part of it (a courtyard), metres in the local frame; empty (the
    /// default) for a fence without holes, and always for a circle.
    public var holes: [Polygon]

    /// A fence of `shape` (metres in the venue's local frame) on `floor`, named `id` in events.
    init(_ shape: Shape, floor: Int? = nil, id: String? = nil, holes: [Polygon] = []) {
        self.shape = shape
        self.floor = floor
        self.id = id
        self.holes = holes
    }

    /// A circular fence of `radius` metres around `center`.
    public static func circle(center: Point2D, radius meters: Double, floor: Int? = nil, id: String? = nil)
        -> ZoneFence
    {
        ZoneFence(.circle(center: center, radius: meters), floor: floor, id: id)
    }

    /// A polygonal fence.
    /// A polygonal fence, with `holes` (areas inside `polygon` that are not part of the fence).
    public static func polygon(_ polygon: Polygon, floor: Int? = nil, id: String? = nil, holes: [Polygon] = [])
        -> ZoneFence
    {
        ZoneFence(.polygon(polygon), floor: floor, id: id, holes: holes)
    }

    /// Whether a fix on `level` can be on this fence's floor (a `nil` on either side matches).
    package func isOnFloor(_ level: Int?) -> Bool {
        guard let floor, let level else { return true }
        return floor == level
    }

    /// The signed distance in metres from `point` to the fence's boundary: negative inside, 0 on the
    /// boundary, positive outside (how far beyond the fence the point is). A point in a hole is outside, by its
    /// distance to the hole's edge.
    package func signedDistance(to point: Point2D) -> Double {
        switch shape {
        case .circle(let center, let radius):
            return center.distance(to: point) - radius
        case .polygon(let polygon):
            let distance = polygon.distanceToBoundary(from: point)
            guard polygon.contains(point) else { return distance }
            var inside = -distance
            for hole in holes {
                let toHole = hole.distanceToBoundary(from: point)
                if hole.contains(point) { return toHole }
                inside = max(inside, -toHole)
            }
            return inside
        }
    }

    /// Whether `point` is inside the fence or on its boundary.
    public func contains(_ point: Point2D) -> Bool {
        signedDistance(to: point) <= 0
    }
}

extension ZoneFence: Codable {
    enum CodingKeys: String, ShapeCodingKey {
        case id, floor, center, radius, polygon, holes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let floor = try container.decodeIntegerIfPresent(forKey: .floor)
        let id = try container.decodeIfPresent(String.self, forKey: .id)
        if let id, id.isEmpty {
            throw DecodingError.dataCorruptedError(
                forKey: .id, in: container, debugDescription: "fence id is empty: leave it out or name the fence")
        }
        let shape = try Shape.decode(from: container, noun: "fence")
        let holes = try container.decodeIfPresent([Polygon].self, forKey: .holes) ?? []
        if !holes.isEmpty, case .circle = shape {
            throw DecodingError.dataCorruptedError(
                forKey: .holes, in: container, debugDescription: "a circle fence has no holes; only a polygon has")
        }
        for (index, hole) in holes.enumerated() {
            var problem = ZoneFence.problem(with: hole)
            if problem == nil, case .polygon(let outer) = shape, !hole.vertices.allSatisfy(outer.contains) {
                problem = "a hole must lie inside its fence's polygon"
            }
            if let problem {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: container.codingPath + [CodingKeys.holes, IndexKey(index)],
                        debugDescription: problem.replacingOccurrences(of: "polygon fence", with: "hole")))
            }
        }
        self.init(shape, floor: floor, id: id, holes: holes)
    }

    /// The most vertices a polygon fence may have (10 000): the check that its edges do not cross is a
    /// sweep over the edges sorted by x, which stays near O(n log n) for ordinary outlines but can reach
    /// O(n²) for outlines whose edges all overlap in x (about 0.4 s at this bound).
    static let maximumVertices = 10_000

    /// Why `polygon` cannot be a fence, or `nil` when it can: it needs at least 3 distinct vertices (at most
    /// ``maximumVertices``), a non-zero area and edges that do not cross or touch except where neighbours meet
    /// (a simple polygon). Repeated consecutive vertices, such as a closing vertex equal to the first, are
    /// allowed. When edges cross, the first crossing pair in edge order is named.
    static func problem(with polygon: Polygon) -> String? {
        guard polygon.vertices.count <= maximumVertices else {
            return
                "a polygon fence may have at most \(maximumVertices) vertices, not \(polygon.vertices.count): simplify the outline"
        }
        var corners: [Point2D] = []
        for vertex in polygon.vertices where corners.last != vertex { corners.append(vertex) }
        if corners.count > 1, corners.first == corners.last { corners.removeLast() }
        guard corners.count >= 3 else { return "a polygon fence needs at least 3 distinct vertices" }
        if let (i, j) = firstCrossing(Polygon(corners).edges) {
            return "a polygon fence must not cross itself (edges \(i + 1) and \(j + 1) meet)"
        }
        guard Polygon(corners).area > 0 else {
            return "a polygon fence must enclose an area (its vertices lie on one line)"
        }
        return nil
    }

    /// The first pair (i, j), i < j, in lexicographic order, of edges that are not neighbours and cross or
    /// touch; `nil` when there is none.
    ///
    /// A sweep in x: edges sorted by their least x, each tested only against the edges whose x range (and y
    /// range) overlaps its own; every such pair is tested, so the answer is that of testing all pairs.
    static func firstCrossing(_ edges: [Segment]) -> (Int, Int)? {
        let count = edges.count
        let order = edges.indices.sorted {
            let a = min(edges[$0].start.x, edges[$0].end.x)
            let b = min(edges[$1].start.x, edges[$1].end.x)
            return a != b ? a < b : $0 < $1
        }
        var active: [Int] = []
        var best: (Int, Int)?
        for index in order {
            let edge = edges[index]
            let minX = min(edge.start.x, edge.end.x)
            let minY = min(edge.start.y, edge.end.y)
            let maxY = max(edge.start.y, edge.end.y)
            active.removeAll { max(edges[$0].start.x, edges[$0].end.x) < minX }
            for other in active {
                let (i, j) = other < index ? (other, index) : (index, other)
                // Neighbouring edges share a vertex; every other pair must stay apart.
                guard j - i != 1, !(i == 0 && j == count - 1) else { continue }
                if let current = best, !((i, j) < current) { continue }
                let candidate = edges[other]
                guard max(candidate.start.y, candidate.end.y) >= minY, min(candidate.start.y, candidate.end.y) <= maxY
                else { continue }
                if edge.intersects(candidate) { best = (i, j) }
            }
            active.append(index)
        }
        return best
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(floor, forKey: .floor)
        try shape.encode(into: &container)
        // A circle has no holes: a fence made in code with some writes without them, as it reads back.
        if !holes.isEmpty, case .polygon = shape { try container.encode(holes, forKey: .holes) }
    }
}
