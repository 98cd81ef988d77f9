import ArgumentParser
import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorPositioning

/// `indoor calibrate DATASET -o calibration.json`: fits path loss per node and receiver offsets per device.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Fit per-node RSSI at 1 m and path-loss exponent (and per-device offsets) from a dataset's survey.",
        discussion: """
            Uses train/ (sightings with truth); a dataset without train/ is calibrated on test/. The fit is a \
            robust (Huber) regression of RSSI on log10 distance to the interpolated true position, within \
            −110…−20 dBm and exponent 1…6; nodes with little data take the pooled exponent. Writes the \
            Calibration JSON the engine reads, and prints a summary. The survey's sightings are read one at a \
            time; only their (node, device, log distance, RSSI) samples, 24 bytes each, and the survey's truth \
            rows are held for the fit.
            """)

    @Argument(help: "A dataset folder (nodes.csv, train/ or test/).")
    var dataset: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the calibration JSON.", valueName: "file.json"))
    var output: String

    @Flag(
        help: ArgumentHelp(
            "Replace an existing -o file.",
            discussion: """
                The JSON is written to a temporary file beside it and renamed into place, so a failed or \
                interrupted write leaves the old file as it was. A folder, or a file of the dataset, is never \
                replaced.
                """))
    var force = false

    func run() throws {
        try run { print($0, terminator: "") }
    }

    /// Checks the output path, fits, emits the summary, then writes the calibration.
    ///
    /// - Parameter emit: Told the summary (before the write, so a failed write loses no result), then
    ///   `written: PATH`.
    /// - Throws: ``CommandFailure`` naming the output path, or a dataset ``FormatError``.
    func run(emit: (String) -> Void) throws {
        let file = try OutputFile(path: output, force: force, inputs: OutputFile.datasetInputs(folder: dataset))
        let (calibration, survey) = try Self.calibrate(folder: URL(fileURLWithPath: dataset))
        if calibration.samples.values.reduce(0, +) == 0 {
            throw CommandFailure(survey.noSamplesMessage(folder: dataset))
        }
        emit(survey.summary(calibration))
        try file.write(try Self.json(calibration))
        emit("written: \(output)\n")
    }

    /// The calibration of the dataset at `folder` and what was read of its survey, with the survey's sightings
    /// streamed: each becomes a compact sample (``CalibrationFitter/Samples``) as it is read.
    ///
    /// The survey is `train/`, else `test/`; when `train/` is there, `test/` is not read (its files' headers are
    /// checked). The survey's truth rows are read whole first: a sighting is placed by interpolating its device's
    /// truth.
    /// - Throws: ``FormatError`` naming the missing path, or the bad file, line and field.
    static func calibrate(folder: URL) throws -> (Calibration, Survey) {
        let nodes = try DatasetReader.nodes(folder: folder)
        _ = try DatasetReader.sightings(folder: folder, split: "test")
        _ = try DatasetReader.truth(folder: folder, split: "test")
        let split = DatasetReader.hasSplit(folder: folder, "train") ? "train" : "test"
        var sightings = try DatasetReader.sightings(folder: folder, split: split)
        var truthRows = try DatasetReader.truth(folder: folder, split: split)
        let truth = try truthRows.readAll()
        let fitter = CalibrationFitter()
        var samples = fitter.samples(nodes: nodes, truth: truth)
        var survey = Survey(name: folder.lastPathComponent, split: split, nodes: nodes, truth: truth)
        while let sighting = try sightings.next() {
            samples.add(sighting)
            survey.count(sighting)
        }
        return (fitter.fit(samples), survey)
    }

    /// The calibration of `data`, held in memory, and the summary the command prints.
    static func calibrate(_ data: Dataset) -> (Calibration, String) {
        let split = data.train == nil ? "test" : "train"
        let recording = data.train ?? data.test
        var survey = Survey(name: data.name, split: split, nodes: data.nodes, truth: recording.truth)
        for sighting in recording.sightings { survey.count(sighting) }
        let calibration = CalibrationFitter().fit(nodes: data.nodes, survey: recording)
        return (calibration, survey.summary(calibration))
    }

    /// The calibration as pretty, key-sorted JSON.
    static func json(_ calibration: Calibration) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(calibration)
    }
}
