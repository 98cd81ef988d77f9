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
            Calibration JSON the engine reads, and prints a summary.
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
        let data = try DatasetReader.read(folder: URL(fileURLWithPath: dataset))
        let (calibration, summary) = Self.calibrate(data)
        if calibration.samples.values.reduce(0, +) == 0 {
            throw CommandFailure(Self.noSamplesMessage(data, folder: dataset))
        }
        emit(summary)
        try file.write(try Self.json(calibration))
        emit("written: \(output)\n")
    }

    /// The calibration of `data` and the summary the command prints.
    static func calibrate(_ data: Dataset) -> (Calibration, String) {
        let split = data.train == nil ? "test" : "train"
        let survey = data.train ?? data.test
        let calibration = CalibrationFitter().fit(nodes: data.nodes, survey: survey)
        var lines = [
            "\(data.name): calibrated on \(split)/ (\(survey.sightings.count) sightings, \(survey.truth.count) truth rows)",
            String(
                format: "pooled: %.1f dBm at 1 m, exponent %.2f; shadowing σ %.1f dB",
                calibration.pooled.rssiAtOneMeter,
                calibration.pooled.pathLossExponent, calibration.shadowingSigma),
        ]
        if let height = calibration.deviceHeight { lines.append(String(format: "device height %.2f m", height)) }
        lines.append("node          samples  rssi@1m  exponent")
        var listed: Set<String> = []
        // A duplicate id is one node to the fitter and the engine (the first); list it once.
        for node in data.nodes where listed.insert(node.id).inserted {
            let samples = calibration.samples[node.id] ?? 0
            let id = node.id.padding(toLength: 12, withPad: " ", startingAt: 0)
            if let fit = calibration.nodes[node.id] {
                lines.append(
                    id + String(format: "  %7d  %7.1f  %8.2f", samples, fit.rssiAtOneMeter, fit.pathLossExponent))
            } else {
                lines.append(id + String(format: "  %7d  (pooled)", samples))
            }
        }
        if !calibration.deviceOffsets.isEmpty {
            let values = calibration.deviceOffsets.values
            lines.append(
                String(
                    format: "receiver offsets for %d devices, %.1f … %.1f dB", values.count, values.min() ?? 0,
                    values.max() ?? 0))
        }
        return (calibration, lines.joined(separator: "\n") + "\n")
    }

    /// Why `data` gave no usable survey sample, in one line naming the dataset folder and the split.
    static func noSamplesMessage(_ data: Dataset, folder: String) -> String {
        let split = data.train == nil ? "test" : "train"
        let survey = data.train ?? data.test
        let ids = Set(data.nodes.map(\.id))
        let devices = Set(survey.truth.map(\.device))
        let reason: String
        if survey.sightings.isEmpty {
            reason = "\(split)/sightings.csv has no rows"
        } else if survey.truth.isEmpty {
            reason = "\(split)/truth.csv has no rows"
        } else if !survey.sightings.contains(where: { ids.contains($0.source.text) }) {
            reason = "no sighting names a node of nodes.csv"
        } else if !survey.sightings.contains(where: { devices.contains($0.device) }) {
            reason = "no sighting's device has rows in \(split)/truth.csv"
        } else {
            reason = "no sighting of a known node has a finite RSSI in −200…50 dBm within its device's truth rows"
        }
        return "\(folder): no usable survey samples in \(split)/ (\(survey.sightings.count) sightings, "
            + "\(survey.truth.count) truth rows): \(reason); nothing to calibrate, no file written"
    }

    /// The calibration as pretty, key-sorted JSON.
    static func json(_ calibration: Calibration) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(calibration)
    }
}
