import Foundation
import IndoorTestSupport
import Testing

@testable import IndoorModel

/// A broken IMDF archive and the error it must give.
struct BadIMDFArchive: Sendable, CustomTestStringConvertible {
    var name: String
    /// Breaks the good archive.
    var breaking: @Sendable ([String: Data]) throws -> [String: Data]
    /// The whole error, as printed.
    var expected: String

    var testDescription: String { name }
}

private let unit12 = "00000000-0000-4000-8000-000000000012"

let badIMDFArchives: [BadIMDFArchive] = [
    BadIMDFArchive(
        name: "missing manifest",
        breaking: { files in files.filter { $0.key != "manifest.json" } },
        expected:
            "manifest.json: missing: an IMDF archive has manifest.json at its top level or in its one folder (found "
            + "amenity.geojson, building.geojson, fixture.geojson, footprint.geojson, geofence.geojson, …)"),
    BadIMDFArchive(
        name: "a unit with a Point geometry",
        breaking: { files in
            try IMDFTestArchive.editingFeature(files, "unit.geojson", 1) { unit in
                unit["geometry"] = ["type": "Point", "coordinates": [11.5761, 48.1371]]
            }
        },
        expected:
            "unit.geojson: feature '\(unit12)' (features[1].geometry.type): a unit needs a Polygon or MultiPolygon "
            + "geometry, found 'Point'"),
    BadIMDFArchive(
        name: "an opening with a Polygon geometry",
        breaking: { files in
            try IMDFTestArchive.editingFeature(files, "opening.geojson", 0) { opening in
                opening["geometry"] = ["type": "Polygon", "coordinates": [[[11.5761, 48.1371]]]]
            }
        },
        expected:
            "opening.geojson: feature '00000000-0000-4000-8000-000000000031' (features[0].geometry.type): an opening "
            + "needs a LineString geometry (or a MultiLineString), found 'Polygon'"),
    BadIMDFArchive(
        name: "an opening with a MultiLineString of no line",
        breaking: { files in
            try IMDFTestArchive.editingFeature(files, "opening.geojson", 0) { opening in
                opening["geometry"] = ["type": "MultiLineString", "coordinates": [] as [Any]]
            }
        },
        expected:
            "opening.geojson: feature '00000000-0000-4000-8000-000000000031' (features[0].geometry.coordinates): a "
            + "MultiLineString needs at least one line"),
    BadIMDFArchive(
        name: "an opening with a MultiLineString line of one position",
        breaking: { files in
            try IMDFTestArchive.editingFeature(files, "opening.geojson", 0) { opening in
                opening["geometry"] = [
                    "type": "MultiLineString",
                    "coordinates": [[[11.5761, 48.1371], [11.5762, 48.1371]], [[11.5761, 48.1371]]],
                ]
            }
        },
        expected:
            "opening.geojson: feature '00000000-0000-4000-8000-000000000031' (features[0].geometry.coordinates[1]): a "
            + "MultiLineString's line needs at least 2 positions"),
    BadIMDFArchive(
        name: "a unit on an unknown level",
        breaking: { files in
            try IMDFTestArchive.editingFeature(files, "unit.geojson", 1) { unit in
                var properties = unit["properties"] as? [String: Any] ?? [:]
                properties["level_id"] = "no-such-level"
                unit["properties"] = properties
            }
        },
        expected:
            "unit.geojson: feature '\(unit12)' (features[1].properties.level_id): level 'no-such-level' is not a level "
            + "of level.geojson"),
    BadIMDFArchive(
        name: "a latitude out of range",
        breaking: { files in
            try IMDFTestArchive.editingFeature(files, "unit.geojson", 1) { unit in
                unit["geometry"] = [
                    "type": "Polygon",
                    "coordinates": [[[11.5761, 48.1371], [11.5762, 95.5], [11.5762, 48.1372], [11.5761, 48.1371]]],
                ]
            }
        },
        expected:
            "unit.geojson: feature '\(unit12)' (features[1].geometry.coordinates[0][1]): latitude 95.5 is not in "
            + "-90...90"),
    BadIMDFArchive(
        name: "a unit 200 km from the display point",
        breaking: { files in
            try IMDFTestArchive.editingFeature(files, "unit.geojson", 1) { unit in
                unit["geometry"] = [
                    "type": "Polygon",
                    "coordinates": [
                        [[11.5761, 48.1371], [14.5762, 48.1371], [11.5762, 48.1372], [11.5761, 48.1371]]
                    ],
                ]
            }
        },
        expected:
            "unit.geojson: feature '\(unit12)' (features[1].geometry.coordinates[0][1]): x 223186 m is more than 100 km "
            + "from the venue's display point; a venue lies within 100 km of it"),
    BadIMDFArchive(
        name: "unreadable JSON",
        breaking: { files in
            var files = files
            files["level.geojson"] = Data("{\"type\": \"FeatureCollection\", \"features\": [}".utf8)
            return files
        },
        expected: "level.geojson: not valid JSON: line 1, column 44: expected a value, found '}'"),
    BadIMDFArchive(
        name: "a venue without a display point, whose buildings, levels and outline give none either",
        breaking: { files in
            var edited = try IMDFTestArchive.editingFeature(files, "venue.geojson", 0) { venue in
                var properties = venue["properties"] as? [String: Any] ?? [:]
                properties["display_point"] = NSNull()
                venue["properties"] = properties
                venue["geometry"] = NSNull()
            }
            edited = try IMDFTestArchive.editingFeature(edited, "building.geojson", 0) { building in
                var properties = building["properties"] as? [String: Any] ?? [:]
                properties["display_point"] = NSNull()
                building["properties"] = properties
            }
            return edited
        },
        expected:
            "venue.geojson: feature '00000000-0000-4000-8000-000000000000' (features[0].properties.display_point): "
            + "missing: the venue's display point places the venue on the Earth, and no building, level or venue "
            + "outline gives another; give an anchor (indoor venue import --anchor LAT,LON)"),
    BadIMDFArchive(
        name: "a level without an ordinal",
        breaking: { files in
            try IMDFTestArchive.editingFeature(files, "level.geojson", 1) { level in
                var properties = level["properties"] as? [String: Any] ?? [:]
                properties["ordinal"] = 1.5
                level["properties"] = properties
            }
        },
        expected:
            "level.geojson: feature '00000000-0000-4000-8000-000000000002' (features[1].properties.ordinal): expected "
            + "an integer ordinal, found 1.5"),
    BadIMDFArchive(
        name: "a unit that crosses itself",
        breaking: { files in
            try IMDFTestArchive.editingFeature(files, "unit.geojson", 1) { unit in
                unit["geometry"] = [
                    "type": "Polygon",
                    "coordinates": [
                        [
                            [11.5761, 48.1371], [11.5762, 48.1372], [11.5762, 48.1371], [11.5761, 48.1372],
                            [11.5761, 48.1371],
                        ]
                    ],
                ]
            }
        },
        expected:
            "unit.geojson: feature '\(unit12)' (features[1].geometry.coordinates[0]): a polygon fence must not cross "
            + "itself (edges 1 and 3 meet)"),
    BadIMDFArchive(
        name: "a missing level file",
        breaking: { files in files.filter { $0.key != "level.geojson" } },
        expected: "level.geojson: missing: an IMDF archive needs level.geojson"),
]

@Suite("IMDF import: bad archives")
struct IMDFBadArchiveTests {
    @Test("a bad archive is refused naming the file, the feature id and the JSON path", arguments: badIMDFArchives)
    func refused(_ archive: BadIMDFArchive) throws {
        let files = try archive.breaking(try IMDFFixtures.files("two-level"))
        let error = #expect(throws: IMDFError.self) { try IMDFImporter.venue(from: files) }
        #expect(error?.description == archive.expected)
    }
}
