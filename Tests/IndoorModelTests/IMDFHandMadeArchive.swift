import Foundation
import IndoorModel

/// An IMDF archive written from metres for a test: levels, units (each polygon with its holes), openings and buildings
/// placed on the Earth through ``anchor``, as a tool that draws IMDF would write them (closed rings, the outer one
/// counter-clockwise, holes clockwise).
struct IMDFHandMadeArchive {
    /// A polygon and its holes, metres.
    struct Shape {
        var outer: Polygon
        var holes: [Polygon] = []
    }

    struct Level {
        var id: String
        var ordinal: Int
        var shapes: [Shape]
        var name: String?
        var shortName: String?
        var category = "unspecified"
        var buildings: [String] = []
    }

    struct Unit {
        var id: String
        var level: String
        var shapes: [Shape]
        var category = "room"
        var name: String?
    }

    struct Opening {
        var id: String
        var level: String
        var from: Point2D
        var to: Point2D
    }

    var anchor = GeoAnchor(origin: GeoCoordinate(latitude: 48.137154, longitude: 11.576124))
    var name = "Hand-made"
    var levels: [Level] = []
    var units: [Unit] = []
    var openings: [Opening] = []
    /// Building ids and names.
    var buildings: [(id: String, name: String)] = []

    /// The UUID a unit named `name` in a test gets as its feature id (IMDF ids are UUIDs; an export keeps a zone id
    /// that is one): `00000000-0000-4000-8000-` and 12 hex digits of an FNV-1a hash of `name`.
    static func uuid(_ name: String) -> String {
        let hash = name.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
        return "00000000-0000-4000-8000-" + String(format: "%012llx", hash & 0xFFFF_FFFF_FFFF)
    }

    /// An axis-aligned rectangle, metres.
    static func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Polygon {
        .rectangle(from: Point2D(x: x0, y: y0), to: Point2D(x: x1, y: y1))
    }

    func position(_ point: Point2D) -> [Double] {
        let coordinate = anchor.coordinate(of: point)
        return [coordinate.longitude, coordinate.latitude]
    }

    func ring(_ polygon: Polygon, clockwise: Bool) -> [[Double]] {
        let points = polygon.vertices
        var twiceArea = 0.0
        for (a, b) in zip(points, points.dropFirst() + points.prefix(1)) { twiceArea += a.x * b.y - b.x * a.y }
        let ordered = (twiceArea < 0) != clockwise ? Array(points.reversed()) : points
        return (ordered + ordered.prefix(1)).map(position)
    }

    func geometry(_ shapes: [Shape]) -> [String: Any] {
        let polygons = shapes.map { shape in
            [ring(shape.outer, clockwise: false)] + shape.holes.map { ring($0, clockwise: true) }
        }
        if polygons.count == 1, let only = polygons.first { return ["type": "Polygon", "coordinates": only] }
        return ["type": "MultiPolygon", "coordinates": polygons]
    }

    static func labels(_ text: String?) -> Any { text.map { ["en": $0] } ?? NSNull() }

    static func feature(_ type: String, id: String, geometry: Any, properties: [String: Any]) -> [String: Any] {
        ["type": "Feature", "id": id, "feature_type": type, "geometry": geometry, "properties": properties]
    }

    static func collection(_ features: [[String: Any]]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features])
    }

    /// The archive's files by name.
    func files() throws -> [String: Data] {
        let display = ["type": "Point", "coordinates": position(Point2D(x: 0, y: 0))] as [String: Any]
        var files: [String: Data] = [
            "manifest.json": try JSONSerialization.data(withJSONObject: ["version": "1.0.0", "language": "en"]),
            "venue.geojson": try Self.collection([
                Self.feature(
                    "venue", id: "venue-1", geometry: geometry(levels.first?.shapes ?? []),
                    properties: ["name": Self.labels(name), "category": "businesscampus", "display_point": display])
            ]),
            "level.geojson": try Self.collection(
                levels.map { level in
                    Self.feature(
                        "level", id: level.id, geometry: geometry(level.shapes),
                        properties: [
                            "ordinal": level.ordinal, "name": Self.labels(level.name),
                            "short_name": Self.labels(level.shortName), "category": level.category,
                            "outdoor": false,
                            "building_ids": level.buildings.isEmpty ? NSNull() : level.buildings as Any,
                        ])
                }),
            "unit.geojson": try Self.collection(
                units.map { unit in
                    Self.feature(
                        "unit", id: Self.uuid(unit.id), geometry: geometry(unit.shapes),
                        properties: [
                            "category": unit.category, "name": Self.labels(unit.name), "level_id": unit.level,
                        ])
                }),
            "opening.geojson": try Self.collection(
                openings.map { opening in
                    Self.feature(
                        "opening", id: opening.id,
                        geometry: [
                            "type": "LineString", "coordinates": [position(opening.from), position(opening.to)],
                        ],
                        properties: ["category": "pedestrian", "level_id": opening.level])
                }),
        ]
        if !buildings.isEmpty {
            files["building.geojson"] = try Self.collection(
                buildings.map { building in
                    Self.feature(
                        "building", id: building.id, geometry: NSNull(),
                        properties: ["name": Self.labels(building.name), "category": "unspecified"])
                })
        }
        return files
    }
}
