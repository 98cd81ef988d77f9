import ArgumentParser
import Foundation
import IndoorModel

/// `indoor venue`: checking a venue file and exporting it for GIS tools.
struct VenueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "venue",
        abstract: "Check a venue file, or export it as GeoJSON.",
        subcommands: [Check.self, Export.self])

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

        @Argument(help: "A venue JSON file.")
        var file: String

        @Flag(help: "Exit with status 2 when there are warnings.")
        var strict = false

        func run() throws {
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

    /// `indoor venue export VENUE.json --geojson OUT.geojson`.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export a venue's floors, rooms and nodes as GeoJSON, placed with its anchor.")

        @Argument(help: "A venue JSON file.")
        var file: String

        @Option(help: ArgumentHelp("The GeoJSON file to write.", valueName: "file.geojson"))
        var geojson: String

        @Flag(help: "Replace an existing output file.")
        var force = false

        func run() throws {
            let output = try OutputFile(path: geojson, force: force, inputs: [file])
            let (data, name) = try VenueInput.json(file)
            let venue: Venue
            do {
                venue = try Venue.decodeJSON(data, file: name)
            } catch let error as FormatError {
                throw CommandFailure("\(error)")
            }
            let collection = try VenueGeoJSON(venue)
            try output.write(try JSONFormat.encoder(pretty: true).encode(collection))
            print("\(geojson): \(collection.features.count) features of venue '\(venue.id)'")
        }
    }
}
