import ArgumentParser
import Foundation
import IndoorArchive
import IndoorModel
import IndoorServerTestSupport
import Testing

@testable import IndoorCommands

/// `indoor venue import IMDF -o VENUE.json`.
@Suite("indoor venue import")
struct VenueImportCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-imdf-\(UUID().uuidString)")
    let archive = RepositoryFiles.url("Tests/IndoorModelTests/Fixtures/IMDF/two-level").path

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func failure(_ arguments: [String]) throws -> String? {
        let command = try VenueCommand.Import.parse(arguments)
        do {
            _ = try command.importVenue()
            return nil
        } catch let failure as CommandFailure {
            return failure.description
        }
    }

    @Test("`indoor venue import` parses by name; an empty --id is a usage error")
    func parses() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try IndoorCommand.parseAsRoot(["venue", "import", "site.zip", "-o", "v.json"]) is VenueCommand.Import)
        let usage = try #require(throws: (any Error).self) {
            try IndoorCommand.parseAsRoot(["venue", "import", "site.zip", "-o", "v.json", "--id", ""])
        }
        #expect(IndoorCommand.exitCode(for: usage) == .validationFailure)
    }

    @Test("--anchor places the venue instead of the display point; a bad --anchor is a usage error naming it")
    func anchorOption() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let command = try VenueCommand.Import.parse([archive, "-o", path("v.json"), "--anchor", "48.1, 11.5, 30"])
        _ = try command.importVenue()
        let venue = try Venue.decodeJSON(try Data(contentsOf: URL(fileURLWithPath: path("v.json"))), file: "v.json")
        #expect(venue.anchor == GeoAnchor(origin: GeoCoordinate(latitude: 48.1, longitude: 11.5), bearingDegrees: 30))
        for bad in ["48.1", "48.1,x", "91,0", "0,181", "1,2,3,4", "1,2,nan"] {
            let usage = try #require(throws: (any Error).self) {
                try IndoorCommand.parseAsRoot(["venue", "import", "a.zip", "-o", "v.json", "--anchor", bad])
            }
            #expect(IndoorCommand.exitCode(for: usage) == .validationFailure, "\(bad)")
            #expect(IndoorCommand.message(for: usage).contains("--anchor '\(bad)'"), "\(bad)")
        }
    }

    @Test("indoor venue check ARCHIVE says what the import makes of it, its notes grouped, and writes nothing")
    func checkArchive() throws {
        let command = try VenueCommand.Check.parse([archive])
        #expect(VenueImport.isArchive(archive))
        let (text, notes) = try command.checkArchive()
        #expect(
            text
                == "\(archive): venue 'example-building' (Example Building): 2 floors, 8 rooms, 1 other zone, no nodes "
                + "(an IMDF archive has none)\n"
                + "\(archive): not used: 1 fixture, 1 footprint\n"
                + "\(archive): note: 1 unit(s) without a name were named by their category and a number (\"Room 1\")\n"
                + "\(archive): note: units 'Stairs 1', 'Stairs' (stairs) make connection "
                + "'00000000-0000-4000-8000-000000000015' joining levels 0, 1\n"
                + "\(archive): 2 notes; import it with `indoor venue import \(archive) -o VENUE.json` and add its nodes\n"
        )
        #expect(notes == 2)
        #expect(!VenueImport.isArchive(archive + "/manifest.json"))
    }

    @Test("a .geojson file given as the archive is refused naming the folder to give instead")
    func aGeoJSONFileIsNotAnArchive() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let message = try #require(try failure(["\(archive)/venue.geojson", "-o", path("v.json")]))
        #expect(message.contains("a single GeoJSON file, not an IMDF archive"))
        #expect(message.contains(archive))
        #expect(!FileManager.default.fileExists(atPath: path("v.json")))
    }

    @Test("an Indoor venue's own JSON given as the archive is refused as such, not as GeoJSON")
    func aVenueJSONIsNotAnArchive() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let venue = path("own.json")
        try Data(#"{"id": "hq", "floors": [], "nodes": []}"#.utf8).write(to: URL(fileURLWithPath: venue))
        let message = try #require(try failure([venue, "-o", path("v.json")]))
        #expect(message.contains("a JSON file, not an IMDF archive"), "\(message)")
        #expect(!message.contains("GeoJSON"))
        #expect(!FileManager.default.fileExists(atPath: path("v.json")))
    }

    @Test("GeoJSON under another name given as the archive is refused saying what to give")
    func geoJSONContentIsNotAnArchive() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let renamed = path("venue.txt")
        try Data(contentsOf: URL(fileURLWithPath: "\(archive)/venue.geojson")).write(to: URL(fileURLWithPath: renamed))
        let message = try #require(try failure([renamed, "-o", path("v.json")]))
        #expect(
            message
                == "\(renamed): a GeoJSON FeatureCollection, not an IMDF archive; give the archive: the folder that "
                + "holds manifest.json and the .geojson files, or its .zip")
    }

    @Test("a folder imports: the file is written, the summary says what it holds and what was not used")
    func importsFolder() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = path("venue.json")
        let summary = try VenueCommand.Import.parse([archive, "-o", output]).importVenue()
        let stairs = "00000000-0000-4000-8000-000000000015"
        #expect(
            summary
                == "wrote \(output): venue 'example-building' (Example Building): 2 floors, 8 rooms, 1 geofence zone, "
                + "21 walls, 1 connection, no nodes\n"
                + "not used: 1 fixture, 1 footprint\n"
                + "note: 1 unit(s) without a name were named by their category and a number (\"Room 1\")\n"
                + "note: units 'Stairs 1', 'Stairs' (stairs) make connection '\(stairs)' joining levels 0, 1\n")
        let venue = try Venue.decodeJSON(try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(venue.floors.map(\.level) == [0, 1])
        #expect(venue.zones.count == 9)
        #expect(venue.anchor?.origin == GeoCoordinate(latitude: 48.137154, longitude: 11.576124))
    }

    @Test("a zip of the folder (its files under one folder) writes the same bytes; --id names the venue")
    func importsZip() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try IMDFTestZip.imdf("two-level", folder: "example/").write(to: folder.appendingPathComponent("site.zip"))
        _ = try VenueCommand.Import.parse([archive, "-o", path("a.json"), "--id", "hq"]).importVenue()
        _ = try VenueCommand.Import.parse([path("site.zip"), "-o", path("b.json"), "--id", "hq"]).importVenue()
        let folderVenue = try Data(contentsOf: folder.appendingPathComponent("a.json"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("b.json")) == folderVenue)
        #expect(try Venue.decodeJSON(folderVenue).id == "hq")
    }

    @Test("an existing file is replaced only with --force; the output may not be the input")
    func neverReplaces() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = path("venue.json")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: output))
        #expect(try failure([archive, "-o", output]) == "'\(output)' already exists; pass --force to replace it")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("{}".utf8))
        #expect(try failure([archive, "-o", output, "--force"]) == nil)
        #expect(try Venue.decodeJSON(try Data(contentsOf: URL(fileURLWithPath: output))).floors.count == 2)
        try IMDFTestZip.imdf("two-level").write(to: folder.appendingPathComponent("site.zip"))
        #expect(
            try failure([path("site.zip"), "-o", path("site.zip"), "--force"])
                == "'\(path("site.zip"))' is also an input of this command; choose another output path")
    }

    @Test("a bad archive is refused naming the archive, the file, the feature and the path; nothing is written")
    func badArchive() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var files = try IMDFTestZip.files("two-level")
        let index = try #require(files.firstIndex { $0.path == "unit.geojson" })
        files[index].data = Data(
            String(decoding: files[index].data, as: UTF8.self).replacingOccurrences(
                of: "\"level_id\": \"00000000-0000-4000-8000-000000000002\"", with: "\"level_id\": \"nowhere\""
            ).utf8)
        try ZipWriter.archive(files).write(to: folder.appendingPathComponent("bad.zip"))
        #expect(
            try failure([path("bad.zip"), "-o", path("venue.json")])
                == "\(path("bad.zip")): unit.geojson: feature '00000000-0000-4000-8000-000000000021' "
                + "(features[5].properties.level_id): level 'nowhere' is not a level of level.geojson")
        #expect(!FileManager.default.fileExists(atPath: path("venue.json")))
        try Data("not a zip at all, but long enough".utf8).write(to: folder.appendingPathComponent("fake.zip"))
        #expect(
            try failure([path("fake.zip"), "-o", path("venue.json")])
                == "\(path("fake.zip")): zip: not a zip archive: it has no end of central directory record")
        #expect(
            try failure([path("nothing.zip"), "-o", path("venue.json")])
                == "\(path("nothing.zip")): no such file or folder; give an IMDF archive (a .zip file or a folder)")
    }
}
