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
            reported on stderr as file:line and skipped; the exit status is then 1. See docs/COMMANDS.md.
            """)

    @Option(
        help: ArgumentHelp(
            "The venue JSON, with nodes and zones; or a dataset folder (its venue.json, else its nodes.csv).",
            valueName: "venue"))
    var venue: String

    @Argument(help: "The sightings: CSV, or JSON Lines when the name ends in .jsonl.")
    var sightings: String

    @Option(
        help: ArgumentHelp(
            "The positioning method (\(ReplayRun.methodNames.joined(separator: ", "))).",
            discussion: """
                Default: \(SessionConfiguration.defaultMethod.name) (`default`), with weighted-centroid where it \
                has no answer: the posterior over the path-loss model where five or more nodes are heard, \
                nonlinear (with --calibration) or weighted-centroid (without) where fewer are (see \
                docs/POSITIONING.md); with --survey, a particle filter over a radio map learned from the survey. \
                A named method runs alone, with no fallback. knn and radio-map need --survey.
                """))
    var method: String?

    @Option(
        help: ArgumentHelp(
            "A site survey of the venue: a folder with sightings.csv and truth.csv, or a dataset folder with train/.",
            discussion: """
                The default method then tracks each device with a particle filter over a radio map learned from \
                it (its settings cross-validated on the survey: seconds for a few hundred surveyed points), the \
                best method on every public dataset (docs/ACCURACY.md). The calibration is fitted on it too, \
                unless --calibration is given.
                """,
            valueName: "folder"))
    var survey: String?

    @Option(
        help: ArgumentHelp(
            "A calibration JSON from `indoor calibrate` (per-node path loss, per-device offsets).",
            valueName: "file.json"))
    var calibration: String?

    @Option(help: "Seconds of data time between fixes of one device; 0 locates after every sighting.")
    var interval: Double = 1

    @Option(
        name: .customLong("rssi-filter"),
        help:
            "The RSSI filter for the zones' beacon ranging (\(ReplayRSSIFilter.allCases.map(\.rawValue).joined(separator: ", ")))."
    )
    var rssiFilter: ReplayRSSIFilter = .ema

    @Option(
        name: .customLong("reorder-window"),
        help: ArgumentHelp(
            "Seconds of data time within which out-of-order sightings are put back in order.",
            discussion: """
                The file is read as a stream; a sighting waits until one this many seconds newer has arrived. \
                Sightings older than one already replayed are replayed as they come and counted in the summary. \
                Default \(DatasetCSV.number(ReplayRun.defaultReorderWindow)).
                """))
    var reorderWindow: Double = ReplayRun.defaultReorderWindow

    @Flag(
        help: ArgumentHelp(
            "Do not calibrate the nodes from their sightings of each other (node-to-node links).",
            discussion: """
                Without --survey or --calibration, positioning fits each node's path loss from sightings whose \
                device is another node (`node:<id>`, or a node's beacon identity) and uses the fit \
                (docs/POSITIONING.md). Such sightings never make a device, with or without this flag.
                """))
    var noSelfCalibration = false

    @Option(
        name: .customLong("first-fix-delay"),
        help: ArgumentHelp(
            "Seconds of data time a device's first fix waits after its first sighting; 0 fixes at the first sighting.",
            valueName: "seconds"))
    var firstFixDelay: Double = 0.5

    @Option(
        name: .customLong("maximum-devices"),
        help: ArgumentHelp(
            "The most devices held at once; beyond it the device silent longest is let go (its open visits checked out).",
            valueName: "count"))
    var maximumDevices: Int = 100_000

    func validate() throws {
        guard interval.isFinite, interval >= 0 else {
            throw ValidationError("--interval must be a number of seconds ≥ 0")
        }
        guard reorderWindow.isFinite, reorderWindow >= 0 else {
            throw ValidationError("--reorder-window must be a number of seconds ≥ 0")
        }
        guard firstFixDelay.isFinite, firstFixDelay >= 0 else {
            throw ValidationError("--first-fix-delay must be a number of seconds ≥ 0")
        }
        guard maximumDevices >= 1 else { throw ValidationError("--maximum-devices must be at least 1") }
    }

    func run() throws {
        let (venueData, venueFile) = try VenueInput.json(venue)
        let calibration = try calibration.map(Self.readCalibration)
        let survey = try survey.map { path in
            let read = try SurveyInput.read(path, venue: try Venue.decodeJSON(venueData, file: venueFile))
            FileHandle.standardError.write(
                Data(
                    ("replay: learning from the survey \(path) (\(read.sightings.count) sightings, "
                        + "\(read.truth.count) truth rows)\n").utf8))
            return read
        }
        let handle = try InputFile.open(sightings)
        defer { try? handle.close() }
        let size = (try? FileManager.default.attributesOfItem(atPath: sightings)[.size] as? Int) ?? 0
        let progress = CommandProgress(label: "replay")
        var problems = 0
        let outcome = try Self.replay(
            venue: venueData, venueFile: venueFile, sightingsFile: sightings,
            read: { [sightings] in try InputFile.chunk(of: handle, path: sightings) },
            options: Options(
                method: method, interval: interval, rssiFilter: rssiFilter, calibration: calibration,
                reorderWindow: reorderWindow, survey: survey, selfCalibration: !noSelfCalibration,
                firstFixDelay: firstFixDelay, maximumDevices: maximumDevices),
            problem: { problem in
                problems += 1
                progress.finish()
                FileHandle.standardError.write(Data((problem.description + "\n").utf8))
            },
            progress: { bytes in
                let megabyte = 1_000_000
                progress.report(
                    (sightings as NSString).lastPathComponent, bytes / megabyte, (size + megabyte - 1) / megabyte)
            },
            write: { print($0) })
        progress.finish()
        FileHandle.standardError.write(Data((outcome.description + "\n").utf8))
        if problems > 0 { throw ExitCode(1) }
    }

    /// What a replay is asked to do, besides its files.
    struct Options {
        /// A catalogue method; `nil` for ``IndoorSession/SessionConfiguration/defaultMethod(survey:calibrated:)`` with its fallback (``FallbackPolicy``).
        var method: String?
        /// Seconds of data time between fixes of one device.
        var interval: Double = 1
        /// The zones' RSSI filter.
        var rssiFilter: ReplayRSSIFilter = .ema
        /// A calibration for the positioning engine.
        var calibration: Calibration?
        /// The re-order window, seconds (``ReplayReorderWindow``).
        var reorderWindow: Double = ReplayRun.defaultReorderWindow
        /// A site survey of the venue.
        var survey: Recording?
        /// Whether positioning calibrates the nodes from their sightings of each other, where it has no survey and
        /// no calibration that knows the path loss (`--no-self-calibration` clears it).
        var selfCalibration = true
        /// Seconds a device's first fix waits after its first sighting (`--first-fix-delay`).
        var firstFixDelay = 0.5
        /// The most devices held at once (`--maximum-devices`).
        var maximumDevices = 100_000
    }

    /// The whole command without files: reads the venue and the sightings, replays, and writes the lines.
    ///
    /// - Parameters:
    ///   - sightingsFile: The name for errors; a name ending in `.jsonl` selects JSON Lines, anything else CSV.
    ///   - method: A catalogue method; `nil` for ``IndoorSession/SessionConfiguration/defaultMethod(survey:calibrated:)`` with its fallback (``FallbackPolicy``).
    ///   - write: Receives each output line, without a newline.
    /// - Returns: The sightings lines that could not be read (the rest was replayed), and the summary.
    /// - Throws: ``FormatError`` for an empty or unreadable venue, zones sharing an id, or a CSV without the
    ///   required header; ``UnknownMethodError``.
    static func replay(
        venue: Data, venueFile: String, sightings: String, sightingsFile: String,
        method: String? = nil, interval: Double = 1, rssiFilter: ReplayRSSIFilter = .ema,
        calibration: Calibration? = nil, reorderWindow: Double = ReplayRun.defaultReorderWindow,
        survey: Recording? = nil, chunkSize: Int = 1 << 20,
        write: (String) -> Void
    ) throws -> (problems: [FormatError], summary: ReplaySummary) {
        var problems: [FormatError] = []
        let bytes = Data(sightings.utf8)
        var offset = 0
        let summary = try replay(
            venue: venue, venueFile: venueFile, sightingsFile: sightingsFile,
            read: {
                guard offset < bytes.count else { return nil }
                let chunk = bytes[offset..<min(bytes.count, offset + max(1, chunkSize))]
                offset += chunk.count
                return Data(chunk)
            },
            options: Options(
                method: method, interval: interval, rssiFilter: rssiFilter, calibration: calibration,
                reorderWindow: reorderWindow, survey: survey),
            problem: { problems.append($0) }, write: write)
        return (problems, summary)
    }

    /// Replays the sightings that `read` yields chunk by chunk.
    ///
    /// The venue and the start of the sightings are checked before any row is read (``ReplaySightingsReader``);
    /// then rows stream through the session (``ReplayStream``), in memory bounded by the re-order window.
    /// - Parameters:
    ///   - read: The next chunk of the sightings file; `nil` at its end.
    ///   - problem: Told each sightings line that could not be read, as soon as it is found (the rest is replayed).
    ///   - progress: Told the bytes read so far, after each chunk.
    ///   - write: Receives each output line, without a newline.
    /// - Returns: The summary.
    /// - Throws: ``FormatError`` for an empty or unreadable venue, zones sharing an id, a sightings file that is
    ///   not text or a CSV without the required header; ``UnknownMethodError``, ``MissingSurveyError``.
    static func replay(
        venue: Data, venueFile: String, sightingsFile: String, read: @escaping () throws -> Data?,
        options: Options, problem: (FormatError) -> Void, progress: (Int) -> Void = { _ in },
        write: (String) -> Void
    ) throws -> ReplaySummary {
        guard venue.contains(where: { !Self.isJSONWhitespace($0) }) else {
            throw FormatError(
                code: .invalidJSON, file: venueFile, message: "file is empty; expected a venue JSON object")
        }
        let venue = try Venue.decodeJSON(venue, file: venueFile)
        var stream = try ReplayRun(
            venue: venue, method: options.method, interval: options.interval, rssiFilter: options.rssiFilter,
            calibration: options.calibration, reorderWindow: options.reorderWindow, survey: options.survey,
            selfCalibration: options.selfCalibration, firstFixDelay: options.firstFixDelay,
            maximumDevices: options.maximumDevices
        ).start()
        var reader = try ReplaySightingsReader(
            file: sightingsFile, format: ReplaySightingsReader.Format(fileName: sightingsFile), read: read)
        while let parsed = try reader.next() {
            parsed.problems.forEach(problem)
            for sighting in parsed.rows {
                try stream.ingest(sighting, write: write)
            }
            progress(reader.bytesRead)
        }
        return try stream.finish(write: write)
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// A calibration JSON written by `indoor calibrate`; errors name the file and the line and column or field.
    static func readCalibration(_ path: String) throws -> Calibration {
        try JSONFormat.decode(Calibration.self, from: try InputFile.contents(path), file: path)
    }
}

extension ReplayRSSIFilter: ExpressibleByArgument {}
