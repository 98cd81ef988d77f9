import Foundation

/// GeoJSON geometries of IMDF features (WGS84 longitude, latitude) in a venue's local frame (metres), through the
/// venue's ``GeoAnchor``: the engine's own conversion.
struct IMDFGeometry: Sendable {
    /// Where the local frame sits: the venue's display point, bearing 0 (+y north).
    var anchor: GeoAnchor
    /// What the anchor's origin is, for messages: `the venue's display point`.
    var origin = "the venue's display point"

    /// A polygon of a feature: its outer ring and its holes (inner rings), in metres.
    struct Part: Hashable, Sendable {
        var polygon: Polygon
        var holes: [Polygon] = []
    }

    /// The polygons of a Polygon or MultiPolygon feature (IMDF's POLYGONAL), outer rings and holes in metres.
    ///
    /// - Throws: ``IMDFError`` naming the feature and path for another geometry type, a ring of fewer than 3
    ///   distinct positions, or a position out of range.
    func polygons(of feature: IMDFFeature) throws -> [Part] {
        let type = try geometryType(of: feature, expected: "Polygon or MultiPolygon")
        guard let coordinates = feature.geometry["coordinates"]?.array else {
            throw feature.error(at: "geometry.coordinates", "a \(type) needs a 'coordinates' array")
        }
        switch type {
        case "Polygon":
            return [try part(coordinates, feature: feature, path: "geometry.coordinates")]
        case "MultiPolygon":
            guard !coordinates.isEmpty else {
                throw feature.error(at: "geometry.coordinates", "a MultiPolygon needs at least one polygon")
            }
            return try coordinates.enumerated().map { index, polygon in
                guard let rings = polygon.array else {
                    throw feature.error(
                        at: "geometry.coordinates[\(index)]", "expected a polygon's rings, found \(polygon.kind)")
                }
                return try part(rings, feature: feature, path: "geometry.coordinates[\(index)]")
            }
        default:
            throw feature.error(
                at: "geometry.type",
                "\(IMDFGeometry.article(feature.type)) needs a Polygon or MultiPolygon geometry, found '\(type)'")
        }
    }

    /// The lines of a LineString or MultiLineString feature, each its points in metres: a LineString is one line, a
    /// MultiLineString one line per part. IMDF asks for a LineString; GIS exports often write a MultiLineString of one
    /// part, which is that LineString (a MultiLineString of several parts is several lines, each cut as a piece of
    /// the opening).
    ///
    /// - Throws: ``IMDFError`` for another geometry type, a MultiLineString of no line, a line of fewer than 2
    ///   positions, or a position out of range.
    func lineStrings(of feature: IMDFFeature) throws -> [[Point2D]] {
        let type = try geometryType(of: feature, expected: "LineString")
        guard type == "LineString" || type == "MultiLineString" else {
            throw feature.error(
                at: "geometry.type",
                "\(IMDFGeometry.article(feature.type)) needs a LineString geometry (or a MultiLineString), found "
                    + "'\(type)'")
        }
        let coordinates = feature.geometry["coordinates"]?.array ?? []
        guard type == "MultiLineString" else {
            return [try line(coordinates, of: "a LineString", feature: feature, path: "geometry.coordinates")]
        }
        guard !coordinates.isEmpty else {
            throw feature.error(at: "geometry.coordinates", "a MultiLineString needs at least one line")
        }
        return try coordinates.enumerated().map { index, part in
            try line(
                part.array ?? [], of: "a MultiLineString's line", feature: feature,
                path: "geometry.coordinates[\(index)]")
        }
    }

    /// One line's positions in metres; `what` names it in the message (`a LineString`).
    /// - Throws: ``IMDFError`` for fewer than 2 positions, or a position out of range.
    private func line(_ positions: [IMDFJSON], of what: String, feature: IMDFFeature, path: String) throws
        -> [Point2D]
    {
        guard positions.count >= 2 else {
            throw feature.error(at: path, "\(what) needs at least 2 positions")
        }
        return try positions.enumerated().map { index, position in
            try point(position, feature: feature, path: "\(path)[\(index)]")
        }
    }

    /// The WGS84 coordinate of a GeoJSON Point object (a `display_point`) at `path` of `feature`.
    static func coordinate(ofPoint value: IMDFJSON, feature: IMDFFeature, path: String) throws -> GeoCoordinate {
        guard value["type"]?.string == "Point", let position = value["coordinates"] else {
            throw feature.error(at: path, "expected a GeoJSON Point {\"type\": \"Point\", \"coordinates\": [lon, lat]}")
        }
        return try coordinate(position, feature: feature, path: "\(path).coordinates")
    }

    /// A GeoJSON position `[longitude, latitude]` (an altitude after them is ignored).
    ///
    /// - Throws: ``IMDFError`` for anything but two finite numbers with the longitude in −180…180 and the latitude in
    ///   −90…90.
    static func coordinate(_ value: IMDFJSON, feature: IMDFFeature, path: String) throws -> GeoCoordinate {
        guard let numbers = value.array, numbers.count >= 2, let longitude = numbers[0].number,
            let latitude = numbers[1].number
        else {
            throw feature.error(at: path, "a position is [longitude, latitude]: two numbers in WGS84 degrees")
        }
        guard (-180...180).contains(longitude) else {
            throw feature.error(at: path, "longitude \(longitude) is not in -180...180")
        }
        guard (-90...90).contains(latitude) else {
            throw feature.error(at: path, "latitude \(latitude) is not in -90...90")
        }
        return GeoCoordinate(latitude: latitude, longitude: longitude)
    }

    /// A GeoJSON position in metres of the local frame.
    ///
    /// - Throws: ``IMDFError`` for a bad position, or one more than ``LocalFrame/limitMeters`` from the anchor.
    func point(_ value: IMDFJSON, feature: IMDFFeature, path: String) throws -> Point2D {
        let point = anchor.point(of: try Self.coordinate(value, feature: feature, path: path))
        for (axis, meters) in [("x", point.x), ("y", point.y)] where LocalFrame.problem(meters: meters) != nil {
            throw feature.error(
                at: path,
                "\(axis) \(Int(meters.rounded())) m is more than 100 km from \(origin); a venue lies within 100 km of it"
            )
        }
        return point
    }

    /// `a unit`, `an opening` (the feature types that start with a vowel sound start with a, e, i or o).
    static func article(_ noun: String) -> String {
        (noun.first.map { "aeio".contains($0) } ?? false ? "an " : "a ") + noun
    }

    private func geometryType(of feature: IMDFFeature, expected: String) throws -> String {
        guard case .object = feature.geometry else {
            throw feature.error(
                at: "geometry",
                "\(IMDFGeometry.article(feature.type)) needs a \(expected) geometry, found \(feature.geometry.kind)")
        }
        guard let type = feature.geometry["type"]?.string else {
            throw feature.error(at: "geometry.type", "a geometry needs a 'type'")
        }
        return type
    }

    /// The outer ring and the holes of a polygon's `rings` (each without its closing position).
    private func part(_ rings: [IMDFJSON], feature: IMDFFeature, path: String) throws -> Part {
        guard !rings.isEmpty else {
            throw feature.error(at: path, "a polygon needs an outer ring of positions")
        }
        let polygons = try rings.indices.map { try ring(rings[$0], feature: feature, path: "\(path)[\($0)]") }
        return Part(polygon: polygons[0], holes: Array(polygons.dropFirst()))
    }

    /// One linear ring in metres, without its closing position.
    /// - Throws: ``IMDFError`` for a ring that is not an array of positions, or has fewer than 3 distinct ones.
    private func ring(_ ring: IMDFJSON, feature: IMDFFeature, path: String) throws -> Polygon {
        guard let positions = ring.array else {
            throw feature.error(at: path, "a polygon's ring is an array of positions, found \(ring.kind)")
        }
        var points = try positions.enumerated().map { index, position in
            try point(position, feature: feature, path: "\(path)[\(index)]")
        }
        if points.count > 1, let first = points.first, let last = points.last,
            first.isApproximatelyEqual(to: last, absoluteTolerance: 1e-9)
        {
            points.removeLast()
        }
        guard Set(points).count >= 3 else {
            throw feature.error(at: path, "a polygon's ring needs at least 3 distinct positions")
        }
        return Polygon(points)
    }
}
