import Foundation
import IndoorModel

/// A venue as a GeoJSON FeatureCollection (RFC 7946) for GIS tools: each floor's outline, each zone fence (a room) and
/// each node, placed on the earth with the venue's anchor. Longitude before latitude, WGS84, 1e-8 degrees.
///
/// Every feature's properties say what it is: `kind` (`floor`, `room`, `node`), `id`, `name` and `level` (the floor
/// level, absent for a fence or node on no particular floor). A circular fence becomes a polygon of 64 sides.
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

    /// A Point's position, or a Polygon's one ring.
    enum Coordinates: Encodable {
        case point([Double])
        case polygon([[[Double]]])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .point(let position): try container.encode(position)
            case .polygon(let rings): try container.encode(rings)
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
        func ring(_ points: [Point2D]) -> [[Double]] {
            // Counter-clockwise, closed (RFC 7946 §3.1.6).
            let area = zip(points, points.dropFirst() + points.prefix(1)).reduce(0.0) {
                $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y
            }
            let ordered = area < 0 ? Array(points.reversed()) : points
            return (ordered + ordered.prefix(1)).map(position)
        }
        var features: [Feature] = []
        for floor in venue.floors where floor.outline.vertices.count >= 3 {
            features.append(
                Feature(
                    geometry: Geometry(type: "Polygon", coordinates: .polygon([ring(floor.outline.vertices)])),
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
                        geometry: Geometry(type: "Polygon", coordinates: .polygon([ring(points)])),
                        properties: Properties(
                            kind: "room", id: zone.fences.count == 1 ? zone.id : "\(zone.id)#\(fence.id ?? "\(index)")",
                            name: zone.name, level: fence.floor)))
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
