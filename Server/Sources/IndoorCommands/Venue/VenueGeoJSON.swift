import Foundation
import IndoorModel

/// A venue as a GeoJSON FeatureCollection (RFC 7946) for GIS tools: each floor's outline (a MultiPolygon for a floor of
/// several, its holes inner rings), each zone fence (a room, its holes inner rings), each wall and each doorway (a
/// LineString: the room boundaries no wall covers, ``IndoorModel/Venue/doorways(level:)``) and each node, placed on the
/// earth with the venue's anchor. Longitude before latitude, WGS84, 1e-8 degrees.
///
/// Every feature's properties say what it is: `kind` (`floor`, `room`, `wall`, `door`, `node`), `id` (a wall's and a
/// door's: `level/index`), `name` and `level` (the floor level, absent for a fence or node on no particular floor). A
/// circular fence becomes a polygon of 64 sides.
struct VenueGeoJSON: Encodable {
    let type = "FeatureCollection"
    let features: [Feature]

    struct Feature: Encodable {
        let type = "Feature"
        var geometry: Geometry
        var properties: Properties
    }

    struct Geometry: Encodable {
        var type: String
        var coordinates: Coordinates
    }

    /// A Point's position, a LineString's positions, a Polygon's rings or a MultiPolygon's polygons.
    enum Coordinates: Encodable {
        case point([Double])
        case line([[Double]])
        case polygon([[[Double]]])
        case multiPolygon([[[[Double]]]])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .point(let position): try container.encode(position)
            case .line(let positions): try container.encode(positions)
            case .polygon(let rings): try container.encode(rings)
            case .multiPolygon(let polygons): try container.encode(polygons)
            }
        }
    }

    struct Properties: Encodable {
        var kind: String
        var id: String
        var name: String?
        var level: Int?
    }

    /// The features of `venue`.
    /// - Throws: ``CommandFailure`` when the venue has no `anchor` (GeoJSON needs geographic coordinates).
    init(_ venue: Venue) throws {
        guard let anchor = venue.anchor else {
            throw CommandFailure(
                "venue '\(venue.id)' has no anchor: GeoJSON needs latitude and longitude; add \"anchor\": "
                    + "{\"latitude\": …, \"longitude\": …, \"bearingDegrees\": …} to the venue (docs/FORMATS.md)")
        }
        func position(_ point: Point2D) -> [Double] {
            let coordinate = anchor.coordinate(of: point)
            return [Self.rounded(coordinate.longitude), Self.rounded(coordinate.latitude)]
        }
        func ring(_ points: [Point2D], hole: Bool = false) -> [[Double]] {
            // Closed, counter-clockwise, a hole clockwise (RFC 7946 §3.1.6).
            let area = zip(points, points.dropFirst() + points.prefix(1)).reduce(0.0) {
                $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y
            }
            let ordered = (area < 0) != hole ? Array(points.reversed()) : points
            return (ordered + ordered.prefix(1)).map(position)
        }
        func rings(_ outer: [Point2D], holes: [Polygon]) -> [[[Double]]] {
            [ring(outer)] + holes.map { ring($0.vertices, hole: true) }
        }
        func line(_ segment: Segment, kind: String, id: String, level: Int) -> Feature {
            Feature(
                geometry: Geometry(
                    type: "LineString", coordinates: .line([position(segment.start), position(segment.end)])),
                properties: Properties(kind: kind, id: id, name: nil, level: level))
        }
        var features: [Feature] = []
        for floor in venue.floors where floor.hasOutline {
            // Each hole an inner ring of the first outline that holds it.
            let outlines = floor.outlines
            var holes: [[Polygon]] = outlines.map { _ in [] }
            for hole in floor.holes {
                let index = hole.vertices.first.flatMap { first in outlines.firstIndex { $0.contains(first) } } ?? 0
                if holes.indices.contains(index) { holes[index].append(hole) }
            }
            let polygons = outlines.indices.map { rings(outlines[$0].vertices, holes: holes[$0]) }
            let geometry =
                polygons.count == 1
                ? Geometry(type: "Polygon", coordinates: .polygon(polygons[0]))
                : Geometry(type: "MultiPolygon", coordinates: .multiPolygon(polygons))
            features.append(
                Feature(
                    geometry: geometry,
                    properties: Properties(kind: "floor", id: "\(floor.level)", name: floor.name, level: floor.level)))
        }
        for zone in venue.zones {
            for (index, fence) in zone.fences.enumerated() {
                let points: [Point2D]
                switch fence.shape {
                case .polygon(let polygon): points = polygon.vertices
                case .circle(let center, let radius):
                    points = (0..<64).map { step in
                        let angle = Double(step) / 64 * 2 * Double.pi
                        return Point2D(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
                    }
                }
                features.append(
                    Feature(
                        geometry: Geometry(type: "Polygon", coordinates: .polygon(rings(points, holes: fence.holes))),
                        properties: Properties(
                            kind: "room", id: zone.fences.count == 1 ? zone.id : "\(zone.id)#\(fence.id ?? "\(index)")",
                            name: zone.name, level: fence.floor)))
            }
        }
        for floor in venue.floors {
            for (index, wall) in floor.walls.enumerated() {
                features.append(line(wall, kind: "wall", id: "\(floor.level)/\(index)", level: floor.level))
            }
            for (index, door) in venue.doorways(level: floor.level).enumerated() {
                features.append(line(door, kind: "door", id: "\(floor.level)/\(index)", level: floor.level))
            }
        }
        for node in venue.nodes {
            features.append(
                Feature(
                    geometry: Geometry(
                        type: "Point", coordinates: .point(position(Point2D(x: node.position.x, y: node.position.y)))),
                    properties: Properties(kind: "node", id: node.id, name: nil, level: node.floor)))
        }
        self.features = features
    }

    private static func rounded(_ degrees: Double) -> Double {
        (degrees * 1e8).rounded() / 1e8
    }
}
