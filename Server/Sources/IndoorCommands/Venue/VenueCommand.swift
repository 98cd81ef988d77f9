import ArgumentParser
import Foundation
import IndoorModel

/// `indoor venue`: checking a venue file, exporting it for GIS tools or as IMDF, importing one from IMDF.
struct VenueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "venue",
        abstract: "Check a venue file, export it as GeoJSON or IMDF, or import one from IMDF.",
        subcommands: [Check.self, Export.self, Import.self])

    /// `indoor venue check VENUE.json`.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a venue file: every rule of docs/FORMATS.md, and what makes fixes worse without an error.",
            discussion: """
                A venue that does not read gets a line per problem naming the file and its JSON path (each floor, \
                node, zone and connection is read on its own; exit status 1). One that reads gets a line per warning, each naming its JSON path: a node outside its \
                floor's outline, two nodes at the same place, a floor without nodes, a zone no node is within \
                \(Int(VenueCheck.reach)) m of (exit status 0; 2 with --strict when there are warnings).
                """)

        @Argument(help: "A venue JSON file, or an IMDF archive (a .zip file or a folder) to check before importing it.")
        var file: String

        @Flag(help: "Exit with status 2 when there are warnings.")
        var strict = false

        func run() throws {
            if VenueImport.isArchive(file) {
                let (text, warnings) = try checkArchive()
                print(text, terminator: "")
                if strict && warnings > 0 { throw ExitCode(2) }
                return
            }
            let (data, name) = try VenueInput.json(file)
            let errors = VenueCheck.errors(in: data, file: name)
            guard errors.isEmpty, let venue = try? Venue.decodeJSON(data, file: name) else {
                for error in errors { print(error) }
                print("\(name): \(errors.count) error\(errors.count == 1 ? "" : "s"): the venue cannot be read")
                throw ExitCode.failure
            }
            let warnings = VenueCheck(venue: venue).warnings
            for warning in warnings { print("\(name): warning: \(warning)") }
            let counts =
                "\(venue.floors.count) floor\(venue.floors.count == 1 ? "" : "s"), \(venue.nodes.count) nodes, "
                + "\(venue.zones.count) zones"
            print(
                "\(name): venue '\(venue.id)' (\(counts)): "
                    + (warnings.isEmpty ? "no problems" : "\(warnings.count) warning\(warnings.count == 1 ? "" : "s")"))
            if strict && !warnings.isEmpty { throw ExitCode(2) }
        }
    }
}

extension VenueCommand {
    /// `indoor venue export VENUE.json --geojson OUT.geojson --imdf OUT.zip`.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export a venue as GeoJSON for GIS tools or as an IMDF archive, placed with its anchor.",
            discussion: """
                --geojson writes the floors, rooms and nodes as one FeatureCollection. --imdf writes an IMDF archive \
                (a zip of manifest.json and venue, level, unit, opening and geofence GeoJSON files) that `indoor venue \
                import` reads back; what IMDF has no place for (nodes, walls on no room boundary, the anchor's \
                bearing) is said, a line each (docs/COMMANDS.md). Both need the venue's anchor.
                """)

        @Argument(help: "A venue JSON file.")
        var file: String

        @Option(help: ArgumentHelp("The GeoJSON file to write.", valueName: "file.geojson"))
        var geojson: String?

        @Option(help: ArgumentHelp("The IMDF archive (zip) to write.", valueName: "file.zip"))
        var imdf: String?

        @Flag(help: "Replace existing output files.")
        var force = false

        func validate() throws {
            guard geojson != nil || imdf != nil else {
                throw ValidationError("give --geojson FILE, --imdf FILE or both: what to write")
            }
        }

        func run() throws {
            print(try export(created: Date()), terminator: "")
        }

        /// Writes what was asked and returns the summary to print; `created` dates the IMDF manifest.
        func export(created: Date) throws -> String {
            if let geojson, let imdf, OutputFile.sameItem(geojson, imdf) {
                throw CommandFailure("--geojson and --imdf are both '\(imdf)'; give two files")
            }
            let geojsonFile = try geojson.map { try OutputFile(path: $0, force: force, inputs: [file]) }
            let imdfFile = try imdf.map { try OutputFile(path: $0, force: force, inputs: [file]) }
            let (data, name) = try VenueInput.json(file)
            let venue: Venue
            do {
                venue = try Venue.decodeJSON(data, file: name)
            } catch let error as FormatError {
                throw CommandFailure("\(error)")
            }
            var summary = ""
            if let geojson, let geojsonFile {
                let collection = try VenueGeoJSON(venue)
                try geojsonFile.write(try JSONFormat.encoder(pretty: true).encode(collection))
                summary += "\(geojson): \(collection.features.count) features of venue '\(venue.id)'\n"
            }
            if let imdf, let imdfFile {
                summary += try VenueIMDFExport.write(venue, to: imdfFile, path: imdf, file: name, created: created)
            }
            return summary
        }
    }

    /// `indoor venue import IMDF -o VENUE.json`.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import an IMDF archive (a .zip file or a folder) as a venue file.",
            discussion: """
                Levels become floors, units rooms (zones with a polygon fence and the unit's category in their data), \
                unit boundaries walls with gaps at openings, stairs and lifts over each other connections, geofences \
                zones; the venue's display point is the anchor (else a building's or level's, or the middle of the \
                venue's outline; --anchor overrides them). Features a venue does not hold are counted and said \
                (docs/COMMANDS.md). The venue has no nodes: add where each beacon or gateway is.
                """)

        @Argument(help: "An IMDF archive: a .zip file, or a folder holding manifest.json and the .geojson files.")
        var archive: String

        @Option(name: .shortAndLong, help: ArgumentHelp("The venue JSON file to write.", valueName: "venue.json"))
        var output: String

        @Option(help: "The venue id (default: made of the IMDF venue's name, such as 'head-office').")
        var id: String?

        @Option(
            help: ArgumentHelp(
                "Where the venue is on the Earth, instead of the archive's display point: latitude and longitude in "
                    + "degrees, and the bearing of the local +y axis in degrees clockwise from north (default 0).",
                valueName: "lat,lon[,bearing]"))
        var anchor: String?

        @Flag(help: "Replace an existing output file.")
        var force = false

        func validate() throws {
            if let id, id.isEmpty { throw ValidationError("--id must not be empty") }
            if let anchor { _ = try Self.parseAnchor(anchor) }
        }

        func run() throws {
            print(try importVenue(), terminator: "")
        }

        /// Imports the archive, writes the venue and returns the summary to print.
        func importVenue() throws -> String {
            let file = try OutputFile(path: output, force: force, inputs: [archive])
            let imported = try VenueImport.venue(archive, id: id, anchor: try anchor.map(Self.parseAnchor))
            try file.write(try imported.venue.encodeJSON())
            return VenueImport.summary(imported, output: output)
        }

        /// `LAT,LON` or `LAT,LON,BEARING` (degrees) as an anchor.
        /// - Throws: `ValidationError` naming what is wrong.
        static func parseAnchor(_ text: String) throws -> GeoAnchor {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard parts.count == 2 || parts.count == 3, let latitude = parts[0], let longitude = parts[1] else {
                throw ValidationError(
                    "--anchor '\(text)': give latitude,longitude[,bearing] in degrees, such as 52.52,13.405 or 52.52,13.405,30"
                )
            }
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw ValidationError(
                    "--anchor '\(text)': the latitude must be within -90...90 and the longitude within -180...180 degrees"
                )
            }
            let bearing = parts.count == 3 ? parts[2] : 0
            guard let bearing, bearing.isFinite else {
                throw ValidationError("--anchor '\(text)': the bearing must be a number of degrees")
            }
            return GeoAnchor(origin: GeoCoordinate(latitude: latitude, longitude: longitude), bearingDegrees: bearing)
        }
    }
}

extension VenueCommand.Check {
    /// `indoor venue check ARCHIVE`: what `indoor venue import` would make of an IMDF archive, without writing it:
    /// the venue's counts, what was not used and the import's notes (those alike on one line, with their count).
    /// Answers the text and how many notes it says (warnings for `--strict`).
    func checkArchive() throws -> (text: String, warnings: Int) {
        let imported = try VenueImport.venue(file, id: nil)
        let venue = imported.venue
        let rooms = venue.zones.filter { $0.data["imdf"] == "unit" }.count
        var text =
            "\(file): venue '\(venue.id)' (\(venue.name)): \(venue.floors.count) floor"
            + "\(venue.floors.count == 1 ? "" : "s"), \(rooms) room\(rooms == 1 ? "" : "s"), \(venue.zones.count - rooms) "
            + "other zone\(venue.zones.count - rooms == 1 ? "" : "s"), no nodes (an IMDF archive has none)\n"
        let unused = imported.report.unusedSummary
        if !unused.isEmpty { text += "\(file): not used: \(unused)\n" }
        for path in imported.report.unusedFiles { text += "\(file): not used: file \(path)\n" }
        let notes = imported.report.groupedNotes
        for note in notes { text += "\(file): note: \(note)\n" }
        text +=
            "\(file): \(notes.isEmpty ? "no notes" : "\(notes.count) note\(notes.count == 1 ? "" : "s")"); import it "
            + "with `indoor venue import \(file) -o VENUE.json` and add its nodes\n"
        return (text, notes.count)
    }
}
