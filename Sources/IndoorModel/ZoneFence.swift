import Foundation

/// An area on a floor that a device is inside of or outside of: a circle or a polygon.
///
/// In a venue JSON a fence is `{"floor": 0, "center": [x, y], "radius": 3}` (a circle) or
/// `{"floor": 0, "polygon": [[x, y], ...]}`; `floor` may be left out to match every floor.
/// Coordinates are metres in the venue's local frame.
public struct ZoneFence: Hashable, Sendable {
    /// The outline of a fence.
    public enum Shape: Hashable, Sendable {
        /// A circle around `center` with `radius` metres.
        case circle(center: Point2D, radius: Double)
        /// A simple polygon.
        case polygon(Polygon)
    }

    public var shape: Shape
    /// The floor level the fence is on; `nil` matches fixes on any floor (and fixes without a floor).
    public var floor: Int?

    public init(_ shape: Shape, floor: Int? = nil) {
        self.shape = shape
        self.floor = floor
    }

    /// A circular fence of `radius` metres around `center`.
    public static func circle(center: Point2D, radius meters: Double, floor: Int? = nil) -> ZoneFence {
        ZoneFence(.circle(center: center, radius: meters), floor: floor)
    }

    /// A polygonal fence.
    public static func polygon(_ polygon: Polygon, floor: Int? = nil) -> ZoneFence {
        ZoneFence(.polygon(polygon), floor: floor)
    }

    /// Whether a fix on `level` can be on this fence's floor (a `nil` on either side matches).
    public func isOnFloor(_ level: Int?) -> Bool {
        guard let floor, let level else { return true }
        return floor == level
    }

    /// The signed distance in metres from `point` to the fence's boundary: negative inside, 0 on the
    /// boundary, positive outside (how far beyond the fence the point is).
    public func signedDistance(to point: Point2D) -> Double {
        switch shape {
        case .circle(let center, let radius):
            return center.distance(to: point) - radius
        case .polygon(let polygon):
            let distance = polygon.distanceToBoundary(from: point)
            return polygon.contains(point) ? -distance : distance
        }
    }

    /// Whether `point` is inside the fence or on its boundary.
    public func contains(_ point: Point2D) -> Bool {
        signedDistance(to: point) <= 0
    }
}

extension ZoneFence: Codable {
    enum CodingKeys: String, CodingKey {
        case floor, center, radius, polygon
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let floor = try container.decodeIfPresent(Int.self, forKey: .floor)
        let polygon = try container.decodeIfPresent(Polygon.self, forKey: .polygon)
        let center = try container.decodeIfPresent(Point2D.self, forKey: .center)
        switch (polygon, center) {
        case (let polygon?, nil):
            guard polygon.vertices.count >= 3 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .polygon, in: container, debugDescription: "a polygon fence needs at least 3 vertices")
            }
            self.init(.polygon(polygon), floor: floor)
        case (nil, let center?):
            let radius = try container.decode(Double.self, forKey: .radius)
            guard radius.isFinite, radius > 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .radius, in: container, debugDescription: "radius must be a positive number of metres")
            }
            self.init(.circle(center: center, radius: radius), floor: floor)
        case (.some, .some):
            throw DecodingError.dataCorruptedError(
                forKey: .polygon, in: container,
                debugDescription: "a fence is either a circle (center, radius) or a polygon, not both")
        case (nil, nil):
            throw DecodingError.keyNotFound(
                CodingKeys.polygon,
                DecodingError.Context(
                    codingPath: container.codingPath,
                    debugDescription: "a fence needs 'polygon' or 'center' and 'radius'"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(floor, forKey: .floor)
        switch shape {
        case .circle(let center, let radius):
            try container.encode(center, forKey: .center)
            try container.encode(radius, forKey: .radius)
        case .polygon(let polygon):
            try container.encode(polygon, forKey: .polygon)
        }
    }
}
