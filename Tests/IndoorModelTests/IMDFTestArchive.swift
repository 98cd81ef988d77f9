import Foundation
import IndoorModel

/// IMDF archives for tests: a venue written as IMDF (levels from floors, units from zones' polygon fences), and
/// edits of an archive's GeoJSON files.
enum IMDFTestArchive {
    /// The IMDF files of `venue`: a level per floor (its outline), a unit per polygon fence of each zone (named as
    /// the zone, category from its data or `room`), the venue's display point at the anchor's origin.
    static func files(of venue: Venue) throws -> [String: Data] {
        guard let anchor = venue.anchor else { throw TestArchiveError("the venue needs an anchor") }
        func position(_ point: Point2D) -> [Double] {
            let coordinate = anchor.coordinate(of: point)
            return [coordinate.longitude, coordinate.latitude]
        }
        func polygon(_ polygon: Polygon) -> [String: Any] {
            let ring = polygon.vertices.map(position)
            return ["type": "Polygon", "coordinates": [ring + ring.prefix(1)]]
        }
        func collection(_ features: [[String: Any]]) throws -> Data {
            try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features])
        }
        let levels = venue.floors.map { floor -> [String: Any] in
            [
                "id": "level-\(floor.level)", "type": "Feature", "feature_type": "level",
                "geometry": polygon(floor.outline),
                "properties": ["ordinal": floor.level, "name": ["en": floor.name]],
            ]
        }
        var units: [[String: Any]] = []
        for zone in venue.zones {
            for (index, fence) in zone.fences.enumerated() {
                guard case .polygon(let shape) = fence.shape, let floor = fence.floor else { continue }
                units.append([
                    "id": zone.fences.count == 1 ? zone.id : "\(zone.id)-\(index)", "type": "Feature",
                    "feature_type": "unit", "geometry": polygon(shape),
                    "properties": [
                        "category": zone.data["category"] ?? "room", "name": ["en": zone.name],
                        "level_id": "level-\(floor)",
                    ],
                ])
            }
        }
        let origin = anchor.origin
        let venueFeature: [String: Any] = [
            "id": "venue", "type": "Feature", "feature_type": "venue",
            "geometry": polygon(venue.floors.first?.outline ?? Polygon([])),
            "properties": [
                "category": "businesscampus", "name": ["en": venue.name],
                "display_point": ["type": "Point", "coordinates": [origin.longitude, origin.latitude]],
            ],
        ]
        return [
            "manifest.json": Data(#"{"version": "1.0.0", "created": "2026-11-26T00:00:00Z", "language": "en"}"#.utf8),
            "venue.geojson": try collection([venueFeature]),
            "level.geojson": try collection(levels),
            "unit.geojson": try collection(units),
        ]
    }

    /// `files` with the GeoJSON file `name` edited: `edit` gets its parsed object and changes it.
    static func editing(
        _ files: [String: Data], _ name: String, _ edit: (inout [String: Any]) throws -> Void
    ) throws -> [String: Data] {
        guard let data = files[name], var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TestArchiveError("no JSON object \(name)")
        }
        try edit(&object)
        var edited = files
        edited[name] = try JSONSerialization.data(withJSONObject: object)
        return edited
    }

    /// `files` with feature `index` of `name` edited.
    static func editingFeature(
        _ files: [String: Data], _ name: String, _ index: Int, _ edit: @escaping (inout [String: Any]) -> Void
    ) throws -> [String: Data] {
        try editing(files, name) { object in
            guard var features = object["features"] as? [[String: Any]], features.indices.contains(index) else {
                throw TestArchiveError("\(name) has no feature \(index)")
            }
            edit(&features[index])
            object["features"] = features
        }
    }
}

/// A test archive that could not be made.
struct TestArchiveError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
