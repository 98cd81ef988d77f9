import ArgumentParser
import Foundation
import IndoorArchive
import IndoorModel
import IndoorServerTestSupport
import Testing

@testable import IndoorCommands

/// `indoor venue export VENUE.json --imdf OUT.zip` (and with `--geojson`).
@Suite("indoor venue export --imdf")
struct VenueExportCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-export-\(UUID().uuidString)")
    static let created = Date(timeIntervalSince1970: 1_795_000_000)

    /// Two floors, two rooms on the ground floor with walls around and a wall with a door between the ground floor's rooms, a node.
    static let venue = Venue(
        id: "annex", name: "Annex",
        floors: [
            Floor(
                level: 0, name: "Ground", outline: .rectangle(from: .init(x: 0, y: 0), to: .init(x: 10, y: 6)),
                walls: Polygon.rectangle(from: .init(x: 0, y: 0), to: .init(x: 10, y: 6)).edges + [
                    Segment(from: .init(x: 5, y: 0), to: .init(x: 5, y: 2.5)),
                    Segment(from: .init(x: 5, y: 3.5), to: .init(x: 5, y: 6)),
                ]),
            Floor(level: 1, name: "First", outline: .rectangle(from: .init(x: 0, y: 0), to: .init(x: 10, y: 6))),
        ],
        nodes: [Node(id: "n1", position: Point3D(x: 2, y: 2, z: 2.5), floor: 0)],
        zones: [
            Zone(
                id: "west", name: "West",
                fences: [.polygon(.rectangle(from: .init(x: 0, y: 0), to: .init(x: 5, y: 6)), floor: 0)]),
            Zone(
                id: "east", name: "East",
                fences: [.polygon(.rectangle(from: .init(x: 5, y: 0), to: .init(x: 10, y: 6)), floor: 0)]),
            Zone(
                id: "up", name: "Upstairs",
                fences: [.polygon(.rectangle(from: .init(x: 0, y: 0), to: .init(x: 10, y: 6)), floor: 1)]),
        ],
        anchor: GeoAnchor(origin: GeoCoordinate(latitude: 51.5, longitude: -0.12)))

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func writeVenue(_ venue: Venue = venue, to name: String = "venue.json") throws -> String {
        try venue.encodeJSON().write(to: folder.appendingPathComponent(name))
        return path(name)
    }

    func failure(_ arguments: [String]) throws -> String? {
        do {
            _ = try VenueCommand.Export.parse(arguments).export(created: Self.created)
            return nil
        } catch let failure as CommandFailure {
            return failure.description
        }
    }

    @Test("--imdf writes a zip that `indoor venue import` reads back: floors, rooms, the door's walls, the anchor")
    func roundTrip() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try writeVenue()
        let zip = path("annex.zip")
        let summary = try VenueCommand.Export.parse([input, "--imdf", zip]).export(created: Self.created)
        #expect(
            summary
                == "wrote \(zip): IMDF archive of venue 'annex' (Annex): 2 levels, 3 units, 1 opening, 0 geofences\n"
                + "note: floor 1 has no walls: no openings written, so its room boundaries read back as walls\n"
                + "note: 1 node left out: IMDF has no place for beacons and gateways\n")
        let archive = try ZipArchive(try Data(contentsOf: URL(fileURLWithPath: zip)))
        #expect(
            archive.files.keys.sorted() == [
                "level.geojson", "manifest.json", "opening.geojson", "unit.geojson", "venue.geojson",
            ])
        let back = try IMDFArchive.venue(zip: try Data(contentsOf: URL(fileURLWithPath: zip)), id: "annex").venue
        #expect(back.anchor == Self.venue.anchor)
        #expect(back.floors.map(\.name) == ["Ground", "First"])
        #expect(back.zones.map(\.name) == ["West", "East", "Upstairs"])
        // West and east share x = 5: their common wall comes back with the door (y 2.5…3.5) open.
        let ground = try #require(back.floor(level: 0))
        let middle = ground.walls.filter { abs($0.start.x - 5) < 0.01 && abs($0.end.x - 5) < 0.01 }
        let spans = middle.map { [min($0.start.y, $0.end.y), max($0.start.y, $0.end.y)] }
            .sorted { $0[0] < $1[0] }
        #expect(spans.count == 2)
        #expect(spans.first.map { abs($0[0]) < 0.01 && abs($0[1] - 2.5) < 0.01 } == true, "\(spans)")
        #expect(spans.last.map { abs($0[0] - 3.5) < 0.01 && abs($0[1] - 6) < 0.01 } == true, "\(spans)")
    }

    @Test("an existing file is kept without --force and replaced with it; the input is never an output")
    func overwrite() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try writeVenue()
        let zip = path("annex.zip")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: zip))
        #expect(try failure([input, "--imdf", zip]) == "'\(zip)' already exists; pass --force to replace it")
        #expect(try Data(contentsOf: URL(fileURLWithPath: zip)) == Data("mine".utf8))
        #expect(try failure([input, "--imdf", zip, "--force"]) == nil)
        #expect(IMDFArchive.looksLikeZip(try Data(contentsOf: URL(fileURLWithPath: zip))))
        #expect(
            try failure([input, "--imdf", input, "--force"])
                == "'\(input)' is also an input of this command; choose another output path")
        #expect(
            try failure([input, "--imdf", zip, "--geojson", zip, "--force"])
                == "--geojson and --imdf are both '\(zip)'; give two files")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "no temporary file is left: \(leftovers)")
    }

    @Test("a venue without an anchor cannot be exported: the error names the file and the field; nothing is written")
    func noAnchor() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var venue = Self.venue
        venue.anchor = nil
        let input = try writeVenue(venue)
        let message = try #require(try failure([input, "--imdf", path("out.zip")]))
        #expect(message.hasPrefix("\(input): anchor: venue 'annex' has no anchor: IMDF coordinates are WGS84"))
        #expect(!FileManager.default.fileExists(atPath: path("out.zip")))
    }

    @Test("both outputs at once; neither is a usage error")
    func outputs() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try writeVenue()
        let summary = try VenueCommand.Export.parse([input, "--imdf", path("a.zip"), "--geojson", path("a.geojson")])
            .export(created: Self.created)
        #expect(summary.hasPrefix("\(path("a.geojson")): 13 features of venue 'annex'\nwrote \(path("a.zip")): "))
        let usage = try #require(throws: (any Error).self) {
            try IndoorCommand.parseAsRoot(["venue", "export", input])
        }
        #expect(IndoorCommand.exitCode(for: usage) == .validationFailure)
    }
}
