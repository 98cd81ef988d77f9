import Foundation
import IndoorTestSupport
import Testing

@testable import IndoorModel

/// The id of feature `n` of the test archive (`00000000-0000-4000-8000-0000000000NN`).
private func uid(_ n: Int) -> String {
    "00000000-0000-4000-8000-" + String(repeating: "0", count: 10) + String(format: "%02d", n)
}

@Suite("IMDF import")
struct IMDFImportTests {
    let imported: IMDFImport

    init() throws {
        imported = try IMDFImporter.venue(from: try IMDFFixtures.files("two-level"))
    }

    @Test("levels become floors: ordinal, name, outline in metres from the display point")
    func floors() throws {
        let venue = imported.venue
        #expect(venue.id == "example-building")
        #expect(venue.name == "Example Building")
        #expect(venue.floors.map(\.level) == [0, 1])
        #expect(venue.floors.map(\.name) == ["Ground floor", "First floor"])
        for floor in venue.floors {
            #expect(same(floor.outline, rectangle(-10, -6, 10, 6)), "\(floor.outline)")
        }
        let anchor = try #require(venue.anchor)
        #expect(abs(anchor.origin.latitude - 48.137154) <= 1e-9)
        #expect(abs(anchor.origin.longitude - 11.576124) <= 1e-9)
        #expect(anchor.bearingDegrees == 0)
    }

    @Test(
        "without the venue's display point: a building's, else the middle of the venue's outline; a given anchor needs none"
    )
    func anchorFallbacks() throws {
        let files = try IMDFFixtures.files("two-level")
        func removingDisplayPoint(_ files: [String: Data], _ name: String) throws -> [String: Data] {
            try IMDFTestArchive.editingFeature(files, name, 0) { feature in
                var properties = feature["properties"] as? [String: Any] ?? [:]
                properties["display_point"] = NSNull()
                feature["properties"] = properties
            }
        }
        let noVenuePoint = try removingDisplayPoint(files, "venue.geojson")
        let byBuilding = try IMDFImporter.venue(from: noVenuePoint)
        let buildingAnchor = try #require(byBuilding.venue.anchor)
        #expect(abs(buildingAnchor.origin.latitude - 48.137154) <= 1e-9)
        #expect(byBuilding.report.notes.contains { $0.contains("display point of building") })
        let byOutline = try IMDFImporter.venue(from: try removingDisplayPoint(noVenuePoint, "building.geojson"))
        let outlineAnchor = try #require(byOutline.venue.anchor)
        #expect(byOutline.report.notes.contains { $0.contains("the middle of the venue's outline") })
        // The fixture's venue outline is the 20 m × 12 m ground floor round the display point.
        #expect(abs(outlineAnchor.origin.latitude - 48.137154) < 1e-5)
        #expect(abs(outlineAnchor.origin.longitude - 11.576124) < 1e-5)
        let given = GeoAnchor(origin: GeoCoordinate(latitude: 48.1, longitude: 11.5), bearingDegrees: 10)
        let placed = try IMDFImporter.venue(
            from: try removingDisplayPoint(removingDisplayPoint(noVenuePoint, "building.geojson"), "venue.geojson"),
            anchor: given)
        #expect(placed.venue.anchor == given)
        #expect(!placed.report.notes.contains { $0.contains("display point") })
    }

    @Test(
        "units become rooms: name (or category and number), category in the zone's data, a polygon fence on the unit's floor"
    )
    func rooms() throws {
        let expected: [(id: Int, name: String, category: String, level: Int, polygon: Polygon)] = [
            (11, "Lobby", "lobby", 0, rectangle(-10, -6, 0, 6)),
            (12, "Room A", "room", 0, rectangle(0, 0, 6, 6)),
            (13, "Office 1", "office", 0, rectangle(0, -6, 6, 0)),
            (14, "Restroom", "restroom", 0, rectangle(6, -6, 10, 2)),
            (15, "Stairs 1", "stairs", 0, rectangle(6, 2, 10, 6)),
            (21, "Open office", "office", 1, rectangle(-10, -6, 6, 6)),
            (22, "Room B", "conferenceroom", 1, rectangle(6, -6, 10, 2)),
            (23, "Stairs", "stairs", 1, rectangle(6, 2, 10, 6)),
        ]
        let zones = imported.venue.zones
        #expect(zones.count == expected.count + 1)
        for (zone, room) in zip(zones, expected) {
            #expect(zone.id == uid(room.id))
            #expect(zone.name == room.name)
            // The fixture's one amenity (an information desk) is in the lobby.
            let amenities = room.id == 11 ? ["amenities": "information"] : [:]
            #expect(zone.data == ["category": room.category, "imdf": "unit"].merging(amenities) { $1 })
            #expect(zone.fences.count == 1)
            let fence = try #require(zone.fences.first)
            #expect(fence.floor == room.level)
            guard case .polygon(let polygon) = fence.shape else {
                Issue.record("zone \(zone.id) has a circle")
                continue
            }
            #expect(same(polygon, room.polygon), "\(zone.id): \(polygon)")
        }
    }

    @Test("a geofence becomes a zone fenced on its levels")
    func geofence() throws {
        let zone = try #require(imported.venue.zones.last)
        #expect(zone.id == uid(41))
        #expect(zone.name == "Reception")
        #expect(zone.data == ["category": "geofence", "imdf": "geofence"])
        let fence = try #require(zone.fences.first)
        #expect(fence.floor == 0)
        guard case .polygon(let polygon) = fence.shape else { throw TestArchiveError("a circle") }
        #expect(same(polygon, rectangle(-10, -6, -5, 0)))
    }

    @Test("unit boundaries become walls, each once, with gaps at the doors")
    func walls() throws {
        let ground = try #require(imported.venue.floor(level: 0))
        let groundWalls = [
            wall(-10, -6, -6, -6), wall(-4, -6, 10, -6),  // the entrance (−6…−4) on the south wall
            wall(0, -6, 0, -3), wall(0, -2, 0, 2), wall(0, 3, 0, 6),  // lobby | office, room A
            wall(-10, 6, 10, 6), wall(-10, -6, -10, 6), wall(0, 0, 6, 0),
            wall(6, -6, 6, -3), wall(6, -2, 6, 3.5), wall(6, 4.5, 6, 6),  // office, room A | restroom, stairs
            wall(10, -6, 10, 6), wall(6, 2, 10, 2),
        ]
        #expect(sameWalls(ground.walls, groundWalls), "\(ground.walls)")
        let first = try #require(imported.venue.floor(level: 1))
        let firstWalls = [
            wall(-10, -6, 10, -6), wall(-10, 6, 10, 6), wall(-10, -6, -10, 6), wall(10, -6, 10, 6),
            wall(6, -6, 6, -3), wall(6, -2, 6, 3.5), wall(6, 4.5, 6, 6), wall(6, 2, 10, 2),
        ]
        #expect(sameWalls(first.walls, firstWalls), "\(first.walls)")
    }

    @Test("stairs units over each other on two levels become a connection")
    func stairs() throws {
        let connection = try #require(imported.venue.connections.first)
        #expect(imported.venue.connections.count == 1)
        #expect(connection.id == uid(15))
        #expect(connection.kind == .stairs)
        #expect(connection.levels == [0, 1])
        guard case .polygon(let polygon) = connection.shape else { throw TestArchiveError("a circle") }
        #expect(same(polygon, rectangle(6, 2, 10, 6)))
    }

    @Test("features a venue does not hold are counted by type")
    func unused() {
        #expect(imported.report.unusedFeatures == ["fixture": 1, "footprint": 1])
        #expect(imported.report.unusedSummary == "1 fixture, 1 footprint")
        #expect(imported.report.unusedFiles.isEmpty)
    }

    @Test("the imported venue writes as venue JSON and reads back the same")
    func venueJSON() throws {
        let venue = imported.venue
        #expect(try Venue.decodeJSON(try venue.encodeJSON()) == venue)
    }

    @Test("an archive with its files in one folder imports the same; --id names the venue")
    func folder() throws {
        var files: [String: Data] = ["building/": Data(), "__MACOSX/._unit.geojson": Data([0])]
        for (name, data) in try IMDFFixtures.files("two-level") { files["building/\(name)"] = data }
        let inFolder = try IMDFImporter.venue(from: files, id: "hq")
        var expected = imported.venue
        expected.id = "hq"
        #expect(inFolder.venue == expected)
        #expect(inFolder.report == imported.report)
        files["other/manifest.json"] = Data("{}".utf8)
        let error = #expect(throws: IMDFError.self) { try IMDFImporter.venue(from: files) }
        #expect(
            error?.description
                == "manifest.json: found in 2 folders (building/, other/); an IMDF archive holds one venue")
    }

    @Test("a MultiPolygon unit makes a fence per polygon, and the report says so")
    func multiPolygon() throws {
        let files = try IMDFTestArchive.editingFeature(try IMDFFixtures.files("two-level"), "unit.geojson", 1) { unit in
            guard var geometry = unit["geometry"] as? [String: Any], let rings = geometry["coordinates"] as? [Any],
                let ring = rings.first as? [[Double]]
            else { return }
            let shifted = ring.map { [$0[0], $0[1] + 0.0005] }  // about 56 m north
            geometry["type"] = "MultiPolygon"
            geometry["coordinates"] = [[ring], [shifted]]
            unit["geometry"] = geometry
        }
        let result = try IMDFImporter.venue(from: files)
        let zone = try #require(result.venue.zones.first { $0.id == uid(12) })
        #expect(zone.fences.count == 2)
        #expect(
            result.report.notes.contains(
                "unit 'Room A' is a MultiPolygon of 2 polygons: each is a fence of its zone"))
    }

    @Test("what is not used or needs a choice is said: a file, an opening on no wall, two levels of one ordinal")
    func notes() throws {
        var files = try IMDFFixtures.files("two-level")
        files["README.txt"] = Data("made by hand".utf8)
        files = try IMDFTestArchive.editingFeature(files, "opening.geojson", 0) { opening in
            opening["geometry"] = ["type": "LineString", "coordinates": [[11.5761, 48.13718], [11.57611, 48.13718]]]
        }
        files = try IMDFTestArchive.editing(files, "level.geojson") { object in
            guard var levels = object["features"] as? [[String: Any]], var copy = levels.first else { return }
            copy["id"] = "annex-ground"
            var properties = copy["properties"] as? [String: Any] ?? [:]
            properties["name"] = ["en": "Annex"]
            copy["properties"] = properties
            levels.append(copy)
            object["features"] = levels
        }
        let result = try IMDFImporter.venue(from: files)
        #expect(result.report.unusedFiles == ["README.txt"])
        #expect(
            result.report.notes.contains(
                "opening '\(uid(31))' lies on no unit boundary of floor 0: no gap was cut for it"))
        #expect(
            result.report.notes.contains(
                "level 'annex-ground' shares ordinal 0 with another level: one floor of both levels' outlines, named "
                    + "as the larger"))
        #expect(result.venue.floors.map(\.level) == [0, 1])
        // The annex's footprint is the ground floor's: kept once.
        #expect(result.venue.floors.map(\.outlines.count) == [1, 1])
        // The door between the lobby and room A is now a wall.
        let ground = try #require(result.venue.floor(level: 0))
        #expect(ground.walls.contains { $0.start.x.magnitude < 0.01 && $0.end.x.magnitude < 0.01 && $0.length > 3.9 })
    }

    @Test("a geofence without level_ids is fenced on every floor")
    func geofenceOnEveryFloor() throws {
        let files = try IMDFTestArchive.editingFeature(try IMDFFixtures.files("two-level"), "geofence.geojson", 0) {
            geofence in
            var properties = geofence["properties"] as? [String: Any] ?? [:]
            properties["level_ids"] = NSNull()
            geofence["properties"] = properties
        }
        let zone = try #require(try IMDFImporter.venue(from: files).venue.zones.last)
        #expect(zone.fences.map(\.floor) == [nil])
    }

    @Test("venue ids from names")
    func venueIDs() {
        #expect(IMDFImporter.venueID(name: "Head Office (HQ)") == "head-office-hq")
        #expect(IMDFImporter.venueID(name: "  Ünïcode  ") == "n-code")
        #expect(IMDFImporter.venueID(name: "---") == "imdf-venue")
    }
}
