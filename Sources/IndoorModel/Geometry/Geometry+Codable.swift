import Foundation

extension Point2D: Codable {
    /// Reads `[x, y]`, metres; both must be finite and within ``LocalFrame/limitMeters`` (100 km) of the
    /// local origin, or decoding fails naming the point's path: `x 1000000 is more than 100 km from the origin`.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        guard container.count == 2 else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "a point is [x, y]: exactly two numbers in metres"
                ))
        }
        let x = try container.decodeNumber(name: "x")
        let y = try container.decodeNumber(name: "y")
        for (name, value) in [("x", x), ("y", y)] {
            if let problem = LocalFrame.problem(meters: value) {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: decoder.codingPath,
                        debugDescription: "\(name) '\(DatasetCSV.number(value))' \(problem)"))
            }
        }
        self.init(x: x, y: y)
    }

    /// Writes `[x, y]`, metres.
    public func encode(to encoder: any Encoder) throws {
        try encodePair(x, y, to: encoder)
    }
}

extension Segment: Codable {
    /// Reads `[[x1, y1], [x2, y2]]`, metres.
    public init(from decoder: any Decoder) throws {
        let (start, end) = try decodePair(
            Point2D.self, from: decoder, shape: "a segment is [[x1, y1], [x2, y2]]: exactly two points")
        self.init(from: start, to: end)
    }

    /// Writes `[[x1, y1], [x2, y2]]`, metres.
    public func encode(to encoder: any Encoder) throws {
        try encodePair(start, end, to: encoder)
    }
}

extension Polygon: Codable {
    /// Reads the vertices as an array of `[x, y]` points, metres.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(try container.decode([Point2D].self))
    }

    /// Writes the vertices as an array of `[x, y]` points, metres.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(vertices)
    }
}

/// Reads a JSON array of exactly two `Value`s; `shape` says what was expected when the count is wrong.
private func decodePair<Value: Decodable>(_ type: Value.Type, from decoder: any Decoder, shape: String) throws
    -> (Value, Value)
{
    var container = try decoder.unkeyedContainer()
    guard container.count == 2 else {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: decoder.codingPath, debugDescription: shape))
    }
    return (try container.decode(type), try container.decode(type))
}

/// Writes a JSON array of two values.
private func encodePair<Value: Encodable>(_ first: Value, _ second: Value, to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(first)
    try container.encode(second)
}
