import Foundation
import IndoorModel

/// Reads a dataset folder in the shared layout (`nodes.csv`, optional `train/`, `test/`, optional `venue.json`).
public enum DatasetReader {
    /// Reads the dataset at `folder`.
    ///
    /// When the folder also holds a `venue.json` (as `indoor simulate` writes), each node of `nodes.csv`
    /// takes its beacon identity and calibration from the venue node with the same id.
    /// - Parameter includeSurvey: false to leave `train/` unread (the dataset then has no survey).
    /// - Throws: ``FormatError`` naming the missing path or the first bad file, line and field.
    public static func read(folder: URL, includeSurvey: Bool = true) throws -> Dataset {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
            throw FormatError(code: .missingFile, message: "dataset folder '\(folder.path)' does not exist")
        }
        guard isDirectory.boolValue else {
            throw FormatError(
                code: .missingFile,
                message: "'\(folder.path)' is a file, not a dataset folder (nodes.csv, test/, optional train/)")
        }
        var nodes = try rows(DatasetCSV.parseNodes(try text(folder, "nodes.csv"), file: "nodes.csv"))
        if let venue = try readVenue(folder: folder) {
            let venueNodes = Dictionary(venue.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for index in nodes.indices {
                guard let match = venueNodes[nodes[index].id] else { continue }
                nodes[index].beacon = nodes[index].beacon ?? match.beacon
                nodes[index].calibration = nodes[index].calibration ?? match.calibration
            }
        }
        let test = try recording(folder, "test")
        var train: Recording?
        if includeSurvey, FileManager.default.fileExists(atPath: folder.appendingPathComponent("train").path) {
            train = try recording(folder, "train")
        }
        return Dataset(name: folder.lastPathComponent, nodes: nodes, train: train, test: test)
    }

    /// The folder's `venue.json`, or `nil` when it has none.
    ///
    /// - Throws: ``FormatError`` naming `venue.json` and the bad field.
    public static func readVenue(folder: URL) throws -> Venue? {
        let url = folder.appendingPathComponent("venue.json")
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return try Venue.decodeJSON(data, file: "venue.json")
    }

    private static func recording(_ folder: URL, _ split: String) throws -> Recording {
        let sightings = try rows(
            DatasetCSV.parseSightings(try text(folder, "\(split)/sightings.csv"), file: "\(split)/sightings.csv"))
        let truth = try rows(DatasetCSV.parseTruth(try text(folder, "\(split)/truth.csv"), file: "\(split)/truth.csv"))
        return Recording(sightings: sightings, truth: truth)
    }

    /// The rows, or the first problem, saying how many more bad rows the file has (a dataset is scored whole
    /// or not at all: a score over silently dropped rows would mislead).
    private static func rows<Row>(_ parsed: Parsed<Row>) throws -> [Row] {
        guard var first = parsed.problems.first else { return parsed.rows }
        let more = parsed.problems.count - 1
        if more > 0 { first.message += " (and \(more) more bad row\(more == 1 ? "" : "s") in this file)" }
        throw first
    }

    private static func text(_ folder: URL, _ relative: String) throws -> String {
        let url = folder.appendingPathComponent(relative)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FormatError(code: .missingFile, message: "missing file '\(url.path)'")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
