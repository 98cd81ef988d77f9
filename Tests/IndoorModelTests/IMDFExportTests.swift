import Foundation
import Testing

@testable import IndoorModel

@Suite("IMDF export")
struct IMDFExportTests {
    static let anchor = GeoAnchor(origin: GeoCoordinate(latitude: 52.520008, longitude: 13.404954), bearingDegrees: 20)
    static let created = Date(timeIntervalSince1970: 1_795_000_000)
    static let kitchenID = "6f1c2d3e-4a5b-4c6d-8e7f-901234567890"

    /// Two floors: on the ground a kitchen (a triangle, id a UUID) and a hall, with walls on their boundaries and a
    /// door left open between them, and a wall in the middle of the hall that no room boundary carries; upstairs an
    /// office; stairs between the two; a node.
    static let venue = Venue(
        id: "hq", name: "Head office",
        floors: [
            Floor(
                level: 0, name: "Ground", outline: rectangle(-15, -2, 10, 12),
                walls: [
                    wall(1, 1, 7.5, 1.2), wall(7.5, 1.2, 6, 5), wall(6, 5, 1, 1),
                    wall(-12, 0, 0, 0), wall(0, 0, 0, 3), wall(0, 4.5, 0, 9), wall(0, 9, -12, 9), wall(-12, 9, -12, 0),
                    wall(-6, 2, -6, 6),
                ]),
            Floor(level: 1, name: "Upper", outline: rectangle(-15, -2, 10, 12), walls: []),
        ],
        nodes: [Node(id: "n1", position: Point3D(x: 1, y: 2, z: 2.5), floor: 0)],
        zones: [
            Zone(
                id: kitchenID, name: "Kitchen",
                fences: [.polygon(Polygon([.init(x: 1, y: 1), .init(x: 7.5, y: 1.2), .init(x: 6, y: 5)]), floor: 0)],
                data: ["category": "kitchen"]),
            Zone(id: "hall", name: "Hall", fences: [.polygon(rectangle(-12, 0, 0, 9), floor: 0)]),
            Zone(id: "office", name: "Open office", fences: [.polygon(rectangle(-12.25, 3, 0.5, 9.75), floor: 1)]),
        ],
        anchor: anchor,
        connections: [
            FloorConnection(id: "stairs-east", kind: .stairs, levels: [0, 1], shape: .polygon(rectangle(8, 8, 10, 12)))
        ])

    @Test("export then import: floors, rooms (names, polygons within 1 cm), walls on room boundaries, stairs, anchor")
    func roundTrip() throws {
        let export = try IMDFExporter.files(of: Self.venue, created: Self.created)
        let back = try IMDFImporter.venue(from: export.files, id: "hq", anchor: Self.anchor).venue
        #expect(back.name == "Head office")
        #expect(back.anchor == Self.anchor)
        #expect(back.floors.map(\.level) == [0, 1])
        #expect(back.floors.map(\.name) == ["Ground", "Upper"])
        for (floor, original) in zip(back.floors, Self.venue.floors) {
            #expect(same(floor.outline, original.outline), "floor \(floor.level): \(floor.outline)")
        }
        let rooms = back.zones.filter { $0.data["category"] != "stairs" }
        #expect(rooms.map(\.name) == ["Kitchen", "Hall", "Open office"])
        #expect(rooms.map { $0.data["category"] } == ["kitchen", "room", "room"])
        #expect(rooms.first?.id == Self.kitchenID, "a zone id that is a UUID is kept")
        #expect(rooms[1].id == IMDFExporter.featureID("unit", "hall", venue: "hq"))
        for (zone, room) in zip(rooms, Self.venue.zones) {
            guard case .polygon(let polygon) = zone.fences.first?.shape,
                case .polygon(let expected) = room.fences.first?.shape
            else {
                Issue.record("\(zone.id) has no polygon fence")
                continue
            }
            #expect(zone.fences.first?.floor == room.fences.first?.floor)
            #expect(same(polygon, expected), "\(zone.name): \(polygon)")
        }
        // The ground floor's walls come back, door and all, but for the one on no room boundary; the stairs have no
        // walls there, so their boundary is an opening.
        let ground = try #require(back.floor(level: 0))
        #expect(sameWalls(ground.walls, Array(Self.venue.floors[0].walls.dropLast())), "\(ground.walls)")
        let connection = try #require(back.connections.first)
        #expect(back.connections.count == 1)
        #expect(connection.kind == .stairs)
        #expect(connection.levels == [0, 1])
        guard case .polygon(let footprint) = connection.shape else { throw TestArchiveError("a circle") }
        #expect(same(footprint, rectangle(8, 8, 10, 12)))
        #expect(
            export.notes.sorted() == [
                "1 node left out: IMDF has no place for beacons and gateways",
                "floor 0: 1 wall on no room boundary left out: IMDF draws walls as the boundaries of units",
                "floor 1 has no walls: no openings written, so its room boundaries read back as walls",
                "the anchor's bearing (20°) has no place in IMDF: an import without an anchor places the venue "
                    + "north-up around the same display point",
            ])
    }

    @Test("without the anchor an import is north-up around the display point: the same place on the Earth")
    func anchor() throws {
        let files = try IMDFExporter.files(of: Self.venue, created: Self.created).files
        let north = try IMDFImporter.venue(from: files).venue
        let anchor = try #require(north.anchor)
        #expect(abs(anchor.origin.latitude - Self.anchor.origin.latitude) <= 1e-9)
        #expect(abs(anchor.origin.longitude - Self.anchor.origin.longitude) <= 1e-9)
        #expect(anchor.bearingDegrees == 0)
        let kitchen = try #require(north.zones.first { $0.name == "Kitchen" })
        guard case .polygon(let polygon) = kitchen.fences.first?.shape else { throw TestArchiveError("a circle") }
        let expected = Self.anchor.coordinate(of: Point2D(x: 7.5, y: 1.2))
        #expect(
            polygon.vertices.contains { vertex in
                let corner = anchor.coordinate(of: vertex)
                return abs(corner.latitude - expected.latitude) <= 1e-7
                    && abs(corner.longitude - expected.longitude) <= 1e-7
            })
    }

    @Test(
        "the files are IMDF: a manifest, ids that are UUIDs, counter-clockwise closed rings; the same bytes each time")
    func files() throws {
        let export = try IMDFExporter.files(of: Self.venue, created: Self.created)
        #expect(
            export.files.keys.sorted() == [
                "level.geojson", "manifest.json", "opening.geojson", "unit.geojson", "venue.geojson",
            ])
        let manifest = try IMDFJSON.parse(try #require(export.files["manifest.json"]), file: "manifest.json")
        #expect(manifest["version"]?.string == "1.0.0")
        #expect(manifest["language"]?.string == "en")
        #expect(manifest["created"]?.string == "2026-11-18T11:06:40Z")
        for name in ["venue", "level", "unit", "opening"] {
            let features = try IMDFFeature.collection(
                try #require(export.files["\(name).geojson"]), file: name, type: name)
            #expect(!features.isEmpty, "\(name)")
            for feature in features {
                #expect(UUID(uuidString: feature.id) != nil, "\(name) \(feature.id)")
                #expect(feature.type == name)
            }
        }
        #expect(try IMDFExporter.files(of: Self.venue, created: Self.created) == export)
        let unit = try IMDFFeature.collection(
            try #require(export.files["unit.geojson"]), file: "unit.geojson", type: "unit")[0]
        let ring = try #require(unit.geometry["coordinates"]?.array?.first?.array)
        let points = ring.compactMap { $0.array?.compactMap(\.number) }
        #expect(points.first == points.last)
        let doubleArea = zip(points, points.dropFirst()).reduce(0.0) { $0 + $1.0[0] * $1.1[1] - $1.1[0] * $1.0[1] }
        #expect(doubleArea > 0, "counter-clockwise")
    }

    @Test("feature ids: a UUID is kept (lower case), anything else becomes the same UUID each time")
    func featureIDs() {
        #expect(IMDFExporter.featureID("unit", Self.kitchenID.uppercased(), venue: "hq") == Self.kitchenID)
        let hall = IMDFExporter.featureID("unit", "hall", venue: "hq")
        #expect(hall == IMDFExporter.featureID("unit", "hall", venue: "hq"))
        #expect(hall != IMDFExporter.featureID("unit", "hall", venue: "annex"))
        #expect(hall != IMDFExporter.featureID("level", "hall", venue: "hq"))
        let uuid = UUID(uuidString: hall)
        #expect(uuid != nil)
        #expect(Array(hall)[14] == "8", "version 8: \(hall)")
    }

    @Test("circles become polygons, geofence zones geofences, zones on no floor are said")
    func shapes() throws {
        var venue = Self.venue
        venue.zones = [
            Zone(id: "desk", name: "Desk", fences: [.circle(center: Point2D(x: -5, y: 5), radius: 1, floor: 0)]),
            Zone(
                id: "reception", name: "Reception", fences: [.polygon(rectangle(-12, 0, -8, 3), floor: 0)],
                data: ["imdf": "geofence", "category": "geofence"]),
            Zone(id: "anywhere", name: "Anywhere", fences: [.polygon(rectangle(-1, -1, 1, 1))]),
        ]
        venue.connections = []
        let export = try IMDFExporter.files(of: venue, created: Self.created)
        #expect(export.notes.contains("zone 'desk' fence 0 is a circle: written as a polygon of 64 sides"))
        #expect(
            export.notes.contains(
                "zone 'anywhere' fence 0 is on no floor of the venue: an IMDF unit is on a level; left out"))
        let back = try IMDFImporter.venue(from: export.files, id: "hq", anchor: Self.anchor).venue
        #expect(back.zones.map(\.name) == ["Desk", "Reception"])
        guard case .polygon(let desk) = back.zones[0].fences.first?.shape else { throw TestArchiveError("a circle") }
        #expect(desk.vertices.count == 64)
        #expect(desk.vertices.allSatisfy { abs($0.distance(to: Point2D(x: -5, y: 5)) - 1) <= 0.01 })
        #expect(back.zones[1].data == ["imdf": "geofence", "category": "geofence"])
        #expect(back.zones[1].fences.map(\.floor) == [0])
    }

    @Test("a venue without an anchor cannot be placed in WGS84: the error names the field")
    func noAnchor() throws {
        var venue = Self.venue
        venue.anchor = nil
        let error = try #require(throws: IMDFExportError.self) {
            try IMDFExporter.files(of: venue, created: Self.created)
        }
        #expect(error.field == "anchor")
        #expect(error.description.hasPrefix("anchor: venue 'hq' has no anchor: IMDF coordinates are WGS84"))
    }

    @Test("a floor without an outline is the rectangle around its rooms; one with nothing on it is refused")
    func outline() throws {
        var venue = Self.venue
        venue.floors[1].outline = Polygon([])
        let export = try IMDFExporter.files(of: venue, created: Self.created)
        #expect(export.notes.contains("floor 1 has no outline: its level is the rectangle around its rooms"))
        let back = try IMDFImporter.venue(from: export.files, id: "hq", anchor: Self.anchor).venue
        #expect(same(try #require(back.floor(level: 1)).outline, rectangle(-12.25, 3, 10, 12)))
        venue.floors.append(Floor(level: 2, name: "Roof", outline: Polygon([])))
        let error = try #require(throws: IMDFExportError.self) {
            try IMDFExporter.files(of: venue, created: Self.created)
        }
        #expect(error.field == "floors[2].outline")
    }
}
