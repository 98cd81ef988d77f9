import Foundation

extension Point2D: Codable {
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        guard container.count == 2 else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "a point is [x, y]: exactly two numbers in metres"))
        }
        let x = try container.decode(Double.self)
        let y = try container.decode(Double.self)
        guard x.isFinite, y.isFinite else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a point's coordinates must be finite numbers")
        }
        self.init(x: x, y: y)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
    }
}

extension Segment: Codable {
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        guard container.count == 2 else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "a segment is [[x1, y1], [x2, y2]]: exactly two points"))
        }
        let start = try container.decode(Point2D.self)
        let end = try container.decode(Point2D.self)
        self.init(from: start, to: end)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(start)
        try container.encode(end)
    }
}

extension Polygon: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(try container.decode([Point2D].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(vertices)
    }
}
