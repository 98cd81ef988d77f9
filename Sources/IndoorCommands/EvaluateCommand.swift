import ArgumentParser
import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorPositioning

/// `indoor evaluate DATASET`: scores positioning methods on a dataset, online and causal.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score positioning methods on a dataset in the shared layout.",
        discussion: """
            For each row of test/truth.csv, in time order per device, the engine ingests that device's \
            sightings up to the row's time and states a position (online and causal). Reports the number \
            of truth rows (count), the rows without a position (misses), the mean, median, 90th percentile \
            and largest horizontal error in metres over the located rows, and the floor hit rate where the \
            truth has floors. Without --method every catalogued method is scored.
            """)

    @Argument(help: "A dataset folder (nodes.csv, test/, optional train/ and venue.json).")
    var dataset: String

    @Option(
        name: .customLong("method"),
        help: "A method to score (repeatable; default: all of \(MethodCatalog.names.joined(separator: ", "))).")
    var methods: [String] = []

    @Flag(help: "Print one JSON object per method per line instead of a table.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Also write the methods' error CDFs to this SVG file.",
            discussion: "It must not exist (see --force); it is written after the scores are printed.",
            valueName: "file.svg"))
    var plot: String?

    @Flag(
        help: ArgumentHelp(
            "Replace an existing --plot file.",
            discussion: """
                The plot is written to a temporary file beside it and renamed into place, so a failed or \
                interrupted write leaves the old file as it was. A folder, or a file of the dataset, is never \
                replaced.
                """))
    var force = false

    @Option(parsing: .unconditional, help: "Score only the first N rows of test/truth.csv.")
    var limit: Int?

    @Flag(help: "Ignore train/: methods get no survey to calibrate or learn from.")
    var noSurvey = false

    @Option(
        help: ArgumentHelp(
            "Use this calibration (from `indoor calibrate`) instead of fitting one on train/.", valueName: "file.json"))
    var calibration: String?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        for name in methods where !MethodCatalog.isKnown(name) {
            throw ValidationError(
                "unknown method '\(name)'; known methods: \(MethodCatalog.names.joined(separator: ", "))")
        }
    }

    func run() throws {
        let progress = CommandProgress(label: "evaluate")
        try output(progress: progress.report) { text in
            // The progress line goes before the first line of results.
            progress.finish()
            print(text, terminator: "")
        }
    }

    /// Everything the command prints on standard output; writes the plot when asked.
    ///
    /// - Parameter progress: Told after each truth row (method, rows done, rows in all).
    /// - Throws: ``CommandFailure`` when the plot cannot be written (the text is lost: use
    ///   ``output(progress:emit:)`` to see it first).
    func output(progress: (String, Int, Int) -> Void = { _, _, _ in }) throws -> String {
        var text = ""
        try output(progress: progress) { text += $0 }
        return text
    }

    /// Scores the methods, emits the report, then writes the plot when asked.
    ///
    /// The plot path is checked before the scoring (see ``OutputFile``); the scores are emitted before the
    /// plot is written, so a write that fails (a full disk) loses no result.
    ///
    /// - Parameters:
    ///   - progress: Told after each truth row (method, rows done, rows in all).
    ///   - emit: Told the report, then `plot: PATH` once the plot is written.
    /// - Throws: ``CommandFailure`` or a dataset ``FormatError``, naming the path.
    func output(progress: (String, Int, Int) -> Void = { _, _, _ in }, emit: (String) -> Void) throws {
        let plotFile = try plot.map {
            try OutputFile(
                path: $0, force: force,
                inputs: OutputFile.datasetInputs(folder: dataset) + (calibration.map { [$0] } ?? []))
        }
        var data = try DatasetReader.read(folder: URL(fileURLWithPath: dataset), includeSurvey: !noSurvey)
        if let limit, limit < data.test.truth.count {
            data.test.truth = Array(data.test.truth.prefix(limit))
        }
        let names = methods.isEmpty ? MethodCatalog.names : methods
        let given = try calibration.map(Self.readCalibration)
        if let given, let calibration { try Self.checkOverlap(given, path: calibration, dataset: data) }
        // Every catalogued method by default: one that cannot run on this dataset is noted and left out.
        var skipped: [String] = []
        // With --no-survey, say so when a method needs the survey that was left unread.
        let surveyNote = noSurvey ? " (--no-survey leaves train/ unread)" : ""
        let scores: [MethodScore]
        do {
            scores = try MethodComparison.run(
                dataset: data, methods: names, calibration: given,
                unavailable: methods.isEmpty
                    ? { name, error in skipped.append("\(name): \(error)\(surveyNote)") } : nil,
                progress: progress)
        } catch  where noSurvey {
            throw CommandFailure("\(error)\(surveyNote)")
        }
        var notes = skipped.map { "skipped \($0)" }
        if let unknown = Self.unknownNodesNote(data) { notes.insert(unknown, at: 0) }
        for note in notes {
            FileHandle.standardError.write(Data("evaluate: \(note)\n".utf8))
        }
        if json {
            emit(ScoreReport.jsonLines(scores))
        } else {
            var text = "\(data.name): \(data.nodes.count) nodes, \(data.test.truth.count) truth rows scored"
            text += data.train.map { ", survey of \($0.truth.count) truth rows" } ?? ", no survey"
            emit(text + "\n" + ScoreReport.table(scores))
        }
        if let plotFile {
            let svg = ErrorCDFPlot(title: "\(data.name): horizontal error CDF", scores: scores).svg()
            try plotFile.write(Data(svg.utf8))
            if !json { emit("plot: \(plotFile.path)\n") }
        }
    }

    /// Reads a calibration JSON written by `indoor calibrate`.
    ///
    /// A folder, or a file that does not start with `{` (checked on its first bytes, before reading it whole), is
    /// refused at once.
    ///
    /// - Throws: ``CommandFailure`` or ``FormatError`` naming the path and what it should be.
    static func readCalibration(_ path: String) throws -> Calibration {
        switch OutputFile.kind(ofItemAt: path) {
        case nil: throw CommandFailure("cannot read calibration '\(path)': no such file")
        case .folder:
            throw CommandFailure(
                "calibration '\(path)' is a folder; expected a calibration JSON file (from `indoor calibrate`)")
        case .file: break
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CommandFailure("cannot read calibration '\(path)': permission denied or not a regular file")
        }
        let start = (try? handle.read(upToCount: 4096)) ?? Data()
        try? handle.close()
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]
        guard start.first(where: { !whitespace.contains($0) }) == UInt8(ascii: "{") else {
            throw CommandFailure(
                "calibration '\(path)' is not a calibration JSON file: it does not start with '{' "
                    + "(write one with `indoor calibrate DATASET -o FILE.json`)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read calibration '\(path)'")
        }
        return try JSONFormat.decode(Calibration.self, from: data, file: path)
    }

    /// Refuses a calibration that names no node of the dataset: it would score as if uncalibrated.
    ///
    /// - Throws: ``CommandFailure`` naming the calibration file and a few node ids of each side.
    static func checkOverlap(_ calibration: Calibration, path: String, dataset data: Dataset) throws {
        let ids = Set(data.nodes.map(\.id))
        let calibrated = Set(calibration.nodes.keys).union(calibration.samples.keys)
        guard calibrated.isDisjoint(with: ids) else { return }
        func some(_ names: some Collection<String>) -> String {
            let sorted = names.sorted()
            let shown = sorted.prefix(3).joined(separator: ", ")
            return sorted.count > 3 ? "\(shown), … (\(sorted.count) in all)" : shown
        }
        let theirs = calibrated.isEmpty ? "it calibrates no node" : "it calibrates \(some(calibrated))"
        throw CommandFailure(
            "calibration '\(path)' shares no node with dataset '\(data.name)' (\(theirs); the dataset has "
                + "\(some(ids))); calibrate this dataset with `indoor calibrate`")
    }

    /// A note when test sightings name nodes that `nodes.csv` lacks (a mismatch of ids scores as misses), else nil.
    static func unknownNodesNote(_ data: Dataset) -> String? {
        let ids = Set(data.nodes.map(\.id))
        let beacons = Set(data.nodes.compactMap(\.beacon))
        var unknown = 0
        var first: String?
        for sighting in data.test.sightings {
            switch sighting.source {
            case .node(let id) where ids.contains(id): continue
            case .beacon(let beacon) where beacons.contains(beacon) || ids.contains(beacon.text): continue
            default:
                unknown += 1
                first = first ?? sighting.source.text
            }
        }
        guard unknown > 0, let first else { return nil }
        return "\(unknown) of \(data.test.sightings.count) sightings in test/sightings.csv name a node that "
            + "nodes.csv lacks (first: '\(first)'); they are ignored"
    }
}
