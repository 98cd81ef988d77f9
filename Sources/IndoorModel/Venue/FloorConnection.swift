import Foundation

/// A place where people move between floors: stairs, a lift, an escalator or a ramp.
///
/// Its area is the same on every floor it connects: a circle or a simple polygon in the venue's local frame
/// (metres), the footprint of the stairwell or lift shaft. A device changes floor inside it, between any two of
/// its ``levels``.
///
/// In a venue JSON a connection is `{"id": "stairs-west", "kind": "stairs", "levels": [0, 1, 2],
/// "polygon": [[x, y], ...]}` or, with a circle, `"center": [x, y], "radius": 1.5` instead of `polygon`
/// (`kind` defaults to `stairs`).
public struct FloorConnection: Hashable, Sendable, Identifiable {
    /// What kind of connection it is (for maps and people; positioning treats every kind alike).
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A staircase.
        case stairs
        /// A lift (elevator).
        case lift
        /// An escalator.
        case escalator
        /// A ramp.
        case ramp
    }

    /// Unique among the venue's connections, non-empty.
    public var id: String
    /// The kind of connection.
    public var kind: Kind
    /// The floor levels it connects, at least two, each once.
    public var levels: [Int]
    /// Its footprint on every floor it connects, metres in the venue's local frame.
    public var shape: ZoneFence.Shape

    /// A connection `id` of `kind` between `levels`, with footprint `shape` (metres, local frame).
    public init(id: String, kind: Kind = .stairs, levels: [Int], shape: ZoneFence.Shape) {
        self.id = id
        self.kind = kind
        self.levels = levels
        self.shape = shape
    }

    /// Whether the connection reaches floor `level`.
    package func connects(_ level: Int) -> Bool { levels.contains(level) }

    /// Whether `point` (metres, local frame) is inside the footprint or on its boundary.
    public func contains(_ point: Point2D) -> Bool {
        switch shape {
        case .circle(let center, let radius): center.distance(to: point) <= radius
        case .polygon(let polygon): polygon.contains(point)
        }
    }
}

extension FloorConnection: Codable {
    enum CodingKeys: String, ShapeCodingKey {
        case id, kind, levels, center, radius, polygon
    }

    /// Reads a connection of a venue JSON: `id` non-empty; `kind` one of ``Kind``'s names (default `stairs`);
    /// `levels` at least two integers, each once; `polygon` (a simple polygon, as a polygon fence) or `center`
    /// and `radius` (> 0 metres), not both. Errors name the field's path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        guard !id.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .id, in: container, debugDescription: "a connection id must not be empty")
        }
        let kindName = try container.decodeIfPresent(String.self, forKey: .kind)
        var kind = Kind.stairs
        if let kindName {
            guard let named = Kind(rawValue: kindName) else {
                let names = Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw DecodingError.dataCorruptedError(
                    forKey: .kind, in: container,
                    debugDescription: "unknown connection kind '\(kindName)' (expected one of \(names))")
            }
            kind = named
        }
        let levels = try Self.decodeLevels(container)
        let shape = try ZoneFence.Shape.decode(from: container, noun: "connection")
        self.init(id: id, kind: kind, levels: levels, shape: shape)
    }

    /// The `levels` array: integers, each once, at least two.
    private static func decodeLevels(_ container: KeyedDecodingContainer<CodingKeys>) throws -> [Int] {
        var list = try container.nestedUnkeyedContainer(forKey: .levels)
        var levels: [Int] = []
        while !list.isAtEnd {
            let path = container.codingPath + [CodingKeys.levels, IndexKey(levels.count)]
            let level: Int
            do {
                level = try list.decode(Int.self)
            } catch let error as DecodingError {
                guard case .dataCorrupted = error else { throw error }
                throw DecodingError.typeMismatch(
                    Int.self, DecodingError.Context(codingPath: path, debugDescription: "expected an integer"))
            } catch {
                throw DecodingError.typeMismatch(
                    Int.self, DecodingError.Context(codingPath: path, debugDescription: "expected an integer"))
            }
            guard !levels.contains(level) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: path, debugDescription: "level \(level) is listed twice"))
            }
            levels.append(level)
        }
        guard levels.count >= 2 else {
            throw DecodingError.dataCorruptedError(
                forKey: .levels, in: container, debugDescription: "a connection joins at least two floor levels")
        }
        return levels
    }

    /// Writes the connection: `id`, `kind`, `levels` and the shape's keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(levels, forKey: .levels)
        try shape.encode(into: &container)
    }
}
