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
            For each row of test/truth.csv, the engine ingests the sightings up to the row's time and states \
            the position of the row's device (online and causal). Reports the number of truth rows (count), \
            the rows without a position (misses), the mean, median, 90th percentile and largest horizontal \
            error in metres over the located rows, and the floor hit rate where the truth has floors. When \
            venue.json has zones with polygon fences (rooms), also the share of rows whose truth is in a room \
            and whose fix is not in that room, and the fix's and the truth's room changes per device-hour. \
            Without --method every catalogued method is scored.

            test/ is read once, sightings and truth merged by time, every method fed in the same pass, so \
            memory stays small however long the recording (train/ is read whole: the methods learn from it). \
            When a test file is not sorted by time, that is noted on standard error and test/ is read whole \
            and scored device by device instead, with the same scores.
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

    @Option(
        help: ArgumentHelp(
            "Also write every scored truth row of every method to this CSV file.",
            discussion: """
                One line per method per row: method, device, t, truth_x, truth_y, truth_floor, x, y, floor, \
                error_m, accuracy_m, within_radius (1 or 0), no_fix (why a row has no position); see \
                docs/FORMATS.md. It must not exist (see --force).
                """,
            valueName: "file.csv"))
    var rows: String?

    @Flag(
        help: ArgumentHelp(
            "Replace an existing --plot or --rows file.",
            discussion: """
                Each is written to a temporary file beside it and renamed into place, so a failed or \
                interrupted write leaves the old file as it was. A folder, or a file of the dataset, is never \
                replaced.
                """))
    var force = false

    @Option(
        parsing: .unconditional,
        help: "Score only the first N rows of test/truth.csv (test/ is read no further than they need).")
    var limit: Int?

    @Flag(help: "Ignore train/: methods get no survey to calibrate or learn from.")
    var noSurvey = false

    @Flag(
        help: ArgumentHelp(
            "Do not calibrate the nodes from their sightings of each other (node-to-node links).",
            discussion: """
                Without a survey or --calibration, methods fit each node's path loss from sightings whose device \
                is another node (`node:<id>`, or a node's beacon identity) and use the fit (docs/POSITIONING.md). \
                Such sightings never make a device, with or without this flag.
                """))
    var noSelfCalibration = false

    @Option(
        help: ArgumentHelp(
            "Particles per device of the particle filter (auto with a survey, particle-filter; 10 to 100000).",
            discussion: "More follow a device more surely and cost proportionally more per update (default 1000)."))
    var particles: Int = PositioningEngine.Configuration().particles

    @Option(
        help: ArgumentHelp(
            "The seed of the particle filter's generators (default 0).",
            discussion: """
                Another seed gives other fixes, as good on average: scoring a few seeds shows how much of a \
                difference between two runs is the filter's own chance.
                """))
    var filterSeed: UInt64 = PositioningEngine.Configuration().particleSeed

    @Option(
        help: ArgumentHelp(
            "Use this calibration (from `indoor calibrate`) instead of fitting one on train/.", valueName: "file.json"))
    var calibration: String?

    @Option(
        help: ArgumentHelp(
            "Another value for a parameter of the default chosen on data (repeatable).",
            discussion: """
                For choosing them again with each dataset held out in turn (scripts/leave-one-venue-out.sh); \
                unset, each keeps the default's value. The particle count is --particles. \
                \(DefaultTuning.help).
                """,
            valueName: "name=value"))
    var tuning: [String] = []

    /// The engines' tuning: the default, with `--particles`, `--filter-seed` and `--tuning`.
    var engineConfiguration: PositioningEngine.Configuration {
        get throws {
            var configuration = PositioningEngine.Configuration()
            configuration.particles = particles
            configuration.particleSeed = filterSeed
            if noSelfCalibration { configuration.selfCalibration = nil }
            for item in tuning {
                let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let value = Double(parts[1]) else {
                    throw ValidationError("--tuning takes name=value, a number after '=' (got '\(item)')")
                }
                do {
                    try configuration.defaultTuning.set(parts[0], to: value)
                } catch {
                    throw ValidationError("--tuning: \(error)")
                }
            }
            return configuration
        }
    }

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        _ = try engineConfiguration
        guard (10...100_000).contains(particles) else {
            throw ValidationError("--particles must be 10 to 100000 (got \(particles))")
        }
        if let plot, let rows, OutputFile.sameItem(plot, rows) {
            throw ValidationError("--plot and --rows name the same file '\(rows)'; give each its own")
        }
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
    /// - Parameter progress: Told after each truth row (see ``output(progress:emit:)``).
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
    ///   - progress: Told while the methods learn (`learning from train/`, methods built and in all), then after
    ///     each truth row (the method, or `N methods`; then megabytes of test/ read and in all, or with --limit the
    ///     truth rows scored and the limit).
    ///   - emit: Told the report, then `plot: PATH` once the plot is written.
    /// - Throws: ``CommandFailure`` or a dataset ``FormatError``, naming the path.
    func output(progress: (String, Int, Int) -> Void = { _, _, _ in }, emit: (String) -> Void) throws {
        let configuration = try engineConfiguration
        let inputs = OutputFile.datasetInputs(folder: dataset) + (calibration.map { [$0] } ?? [])
        let plotFile = try plot.map { try OutputFile(path: $0, force: force, inputs: inputs) }
        // The rows go to a temporary file while the methods are scored, renamed into place after the scores are
        // emitted.
        let rowsFile = try rows.map { try RowsFile(OutputFile(path: $0, force: force, inputs: inputs)) }
        let folder = URL(fileURLWithPath: dataset)
        var opened = try DatasetReader.open(folder: folder, includeSurvey: !noSurvey)
        let names = methods.isEmpty ? MethodCatalog.names : methods
        let given = try calibration.map(Self.readCalibration)
        if let given, let calibration {
            try Self.checkOverlap(given, path: calibration, nodes: opened.nodes, dataset: opened.name)
        }
        // Every catalogued method by default: one that cannot run on this dataset is noted and left out.
        var skipped: [String] = []
        // With --no-survey, say so when a method needs the survey that was left unread.
        let surveyNote = noSurvey ? " (--no-survey leaves train/ unread)" : ""
        let unavailable: ((String, any Error) -> Void)? =
            methods.isEmpty ? { name, error in skipped.append("\(name): \(error)\(surveyNote)") } : nil
        var unknown = UnknownNodeCount(nodes: opened.nodes)
        var scores: [MethodScore]
        var rows: Int
        // Without --limit, every test sighting is read (and counted for the note).
        var wholeFile = limit == nil
        do {
            // One pass over test/: every method's engine is fed each sighting as it is read.
            let task = names.count == 1 ? names[0] : "\(names.count) methods"
            let megabyte = 1_000_000
            let megabytes = ((opened.sightings.size ?? 0) + (opened.truth.size ?? 0) + megabyte - 1) / megabyte
            (scores, rows) = try withoutActuallyEscaping(progress) { progress in
                // The learning's long phases are told from the cores that finish their parts, one call at a time,
                // while this thread waits for them.
                let relay = PhaseRelay(progress)
                return try MethodComparison.run(
                    streaming: &opened, methods: names, calibration: given, configuration: configuration,
                    limit: limit, unavailable: unavailable,
                    observe: { unknown.count($0) },
                    learning: { built, total in progress("learning from train/", built, total) },
                    learningPhases: LearningProgress { phase, done, total in
                        relay.tell("learning from train/: \(phase)", done, total)
                    },
                    answered: { rowsFile?.add(method: $0, row: $1, result: $2) },
                    progress: { rows, bytes in
                        if let limit {
                            progress(task, rows, limit)
                        } else {
                            progress(task, bytes / megabyte, megabytes)
                        }
                    })
            }
        } catch let error as FormatError where error.code == .unsorted {
            // Rows not in time order cannot be merged in one pass: read test/ whole and score device by device.
            FileHandle.standardError.write(Data("evaluate: \(error); scoring in memory instead\n".utf8))
            skipped = []
            try rowsFile?.restart()
            var data = try DatasetReader.read(folder: folder, includeSurvey: !noSurvey)
            if let limit, limit < data.test.truth.count { data.test.truth = Array(data.test.truth.prefix(limit)) }
            scores = try Self.scoreInMemory(
                data, methods: names, calibration: given, zones: opened.zones, floorPlan: opened.floorPlan,
                configuration: configuration,
                unavailable: unavailable,
                surveyNote: surveyNote,
                answered: { rowsFile?.add(method: $0, row: $1, result: $2) },
                progress: progress)
            rows = data.test.truth.count
            unknown = UnknownNodeCount(nodes: data.nodes)
            for sighting in data.test.sightings { unknown.count(sighting) }
            wholeFile = true
        } catch  where noSurvey && !(error is FormatError) {
            throw CommandFailure("\(error)\(surveyNote)")
        }
        var notes = skipped.map { "skipped \($0)" }
        if let note = unknown.note(wholeFile: wholeFile) { notes.insert(note, at: 0) }
        notes += scores.compactMap { score in score.learned.map { "\(score.method): \($0)" } }
        for note in notes {
            FileHandle.standardError.write(Data("evaluate: \(note)\n".utf8))
        }
        if json {
            emit(ScoreReport.jsonLines(scores))
        } else {
            var text = "\(opened.name): \(opened.nodes.count) nodes, \(rows) truth rows scored"
            text += opened.train.map { ", survey of \($0.truth.count) truth rows" } ?? ", no survey"
            emit(text + "\n" + ScoreReport.table(scores))
            for score in scores {
                guard let estimator = score.estimator else { continue }
                var line = "\(score.method): the survey chose \(estimator)"
                if let median = score.validatedMedian {
                    line += String(format: " (validated median %.2f m on its held-out walks)", median)
                } else {
                    line += " (too few walks in the survey to choose another)"
                }
                emit(line + "\n")
            }
        }
        if let plotFile {
            let svg = ErrorCDFPlot(title: "\(opened.name): horizontal error CDF", scores: scores).svg()
            try plotFile.write(Data(svg.utf8))
            if !json { emit("plot: \(plotFile.path)\n") }
        }
        if let rowsFile {
            try rowsFile.commit()
            if !json { emit("rows: \(rowsFile.path)\n") }
        }
    }

    /// Scores `methods` on `data` held in memory, device by device: for test files whose rows are not in time order.
    ///
    /// - Throws: What ``MethodComparison/run(dataset:methods:calibration:zones:floorPlan:configuration:unavailable:answered:progress:)``
    ///   throws; with `--no-survey`, a ``CommandFailure`` that says so.
    private static func scoreInMemory(
        _ data: Dataset, methods names: [String], calibration: Calibration?, zones: [Zone], floorPlan: FloorPlan?,
        configuration: PositioningEngine.Configuration, unavailable: ((String, any Error) -> Void)?, surveyNote: String,
        answered: (String, TruthPoint, Result<Fix, NoFix>) -> Void, progress: (String, Int, Int) -> Void
    ) throws -> [MethodScore] {
        do {
            return try MethodComparison.run(
                dataset: data, methods: names, calibration: calibration, zones: zones, floorPlan: floorPlan,
                configuration: configuration, unavailable: unavailable, answered: answered,
                progress: progress)
        } catch  where !surveyNote.isEmpty {
            throw CommandFailure("\(error)\(surveyNote)")
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
    static func checkOverlap(_ calibration: Calibration, path: String, nodes: [Node], dataset name: String) throws {
        let ids = Set(nodes.map(\.id))
        let calibrated = Set(calibration.nodes.keys).union(calibration.samples.keys)
        guard calibrated.isDisjoint(with: ids) else { return }
        func some(_ names: some Collection<String>) -> String {
            let sorted = names.sorted()
            let shown = sorted.prefix(3).joined(separator: ", ")
            return sorted.count > 3 ? "\(shown), … (\(sorted.count) in all)" : shown
        }
        let theirs = calibrated.isEmpty ? "it calibrates no node" : "it calibrates \(some(calibrated))"
        throw CommandFailure(
            "calibration '\(path)' shares no node with dataset '\(name)' (\(theirs); the dataset has "
                + "\(some(ids))); calibrate this dataset with `indoor calibrate`")
    }

    /// A note when test sightings name nodes that `nodes.csv` lacks (a mismatch of ids scores as misses), else nil.
    static func unknownNodesNote(_ data: Dataset) -> String? {
        var count = UnknownNodeCount(nodes: data.nodes)
        for sighting in data.test.sightings { count.count(sighting) }
        return count.note()
    }
}

/// A progress callback handed to the cores that learn in parallel (``LearningProgress``).
///
/// `@unchecked Sendable`: ``LearningProgress`` calls it one call at a time, under its lock, and only while the thread
/// that owns the callback waits for those cores, so the callback never runs twice at once.
private final class PhaseRelay: @unchecked Sendable {
    private let callback: (String, Int, Int) -> Void

    init(_ callback: @escaping (String, Int, Int) -> Void) { self.callback = callback }

    func tell(_ task: String, _ done: Int, _ total: Int) { callback(task, done, total) }
}
