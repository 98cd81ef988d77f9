import ArgumentParser
import Foundation
import IndoorModel
import IndoorPositioning
import IndoorSession

/// `indoor replay --venue VENUE.json SIGHTINGS`: fixes and zone events of a recording, as JSON Lines.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recording through positioning and the venue's zones; print fixes and zone events.",
        discussion: """
            SIGHTINGS is a CSV (t,device,node,rssi[,tx]) or JSON Lines (.jsonl) file. Output is JSON Lines: \
            {"type":"fix",...} and {"type":"zone","event":"checkIn"|"checkOut"|"dwell",...}; at the end, one \
            {"type":"zone","event":"open",...} per visit still open. Bad lines are \
            reported on stderr as file:line and skipped; the exit status is then 1. See docs/GEOFENCING.md.
            """)

    @Option(help: "The venue JSON, with nodes and zones.")
    var venue: String

    @Argument(help: "The sightings: CSV, or JSON Lines when the name ends in .jsonl.")
    var sightings: String

    @Option(
        help: ArgumentHelp(
            "The positioning method (\(MethodCatalog.names.joined(separator: ", "))).",
            discussion: """
                Default: \(MethodCatalog.defaultName), and \(FallbackPolicy.weightedCentroid.method?.rawValue ?? "") for the locates where it has too \
                few nodes or they lie on one line.
                """))
    var method: String?

    @Option(help: "Seconds of data time between fixes of one device; 0 locates after every sighting.")
    var interval: Double = 1

    @Option(
        name: .customLong("rssi-filter"),
        help:
            "The RSSI filter for the zones' beacon ranging (\(ReplayRSSIFilter.allCases.map(\.rawValue).joined(separator: ", ")))."
    )
    var rssiFilter: ReplayRSSIFilter = .ema

    func validate() throws {
        guard interval.isFinite, interval >= 0 else {
            throw ValidationError("--interval must be a number of seconds ≥ 0")
        }
    }

    func run() throws {
        let venueData = try Self.read(venue)
        let sightingsData = try Self.read(sightings)
        let outcome = try Self.replay(
            venue: venueData, venueFile: venue, sightings: String(decoding: sightingsData, as: UTF8.self),
            sightingsFile: sightings, method: method, interval: interval, rssiFilter: rssiFilter
        ) { print($0) }
        var stderr = ""
        for problem in outcome.problems {
            stderr += problem.description + "\n"
        }
        stderr += outcome.summary.description + "\n"
        FileHandle.standardError.write(Data(stderr.utf8))
        if !outcome.problems.isEmpty { throw ExitCode(1) }
    }

    /// The whole command without files: reads the venue and the sightings, replays, and writes the lines.
    ///
    /// - Parameters:
    ///   - sightingsFile: The name for errors; a name ending in `.jsonl` selects JSON Lines, anything else CSV.
    ///   - method: A catalogue method; `nil` for the default with its fallback (``FallbackPolicy``).
    ///   - write: Receives each output line, without a newline.
    /// - Returns: The sightings lines that could not be read (the rest was replayed), and the summary.
    /// - Throws: ``FormatError`` for an empty or unreadable venue, zones sharing an id, or a CSV without the
    ///   required header; ``UnknownMethodError``.
    static func replay(
        venue: Data, venueFile: String, sightings: String, sightingsFile: String,
        method: String? = nil, interval: Double = 1, rssiFilter: ReplayRSSIFilter = .ema,
        write: (String) -> Void
    ) throws -> (problems: [FormatError], summary: ReplaySummary) {
        guard venue.contains(where: { !Self.isJSONWhitespace($0) }) else {
            throw FormatError(
                code: .invalidJSON, file: venueFile, message: "file is empty; expected a venue JSON object")
        }
        let venue = try Venue.decodeJSON(venue, file: venueFile)
        let parsed =
            sightingsFile.lowercased().hasSuffix(".jsonl")
            ? SightingsJSONLines.parse(sightings, file: sightingsFile)
            : try DatasetCSV.parseSightings(sightings, file: sightingsFile)
        let summary = try ReplayRun(venue: venue, method: method, interval: interval, rssiFilter: rssiFilter)
            .run(parsed.rows, write: write)
        return (parsed.problems, summary)
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func read(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FormatError(
                code: .missingFile, file: path, message: "cannot read the file (\(error.localizedDescription))")
        }
    }
}

extension ReplayRSSIFilter: ExpressibleByArgument {}
