import Foundation
import IndoorModel

/// Reads a dataset folder in the shared layout (`nodes.csv`, optional `train/`, `test/`).
public enum DatasetReader {
    /// Reads the dataset at `folder`.
    ///
    /// - Throws: ``FormatError`` naming the missing path or the first bad file, line and field.
    public static func read(folder: URL) throws -> Dataset {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw FormatError(code: .missingFile, message: "dataset folder '\(folder.path)' does not exist")
        }
        let nodes = try DatasetCSV.parseNodes(try text(folder, "nodes.csv"), file: "nodes.csv").get()
        let test = try recording(folder, "test")
        var train: Recording?
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("train").path) {
            train = try recording(folder, "train")
        }
        return Dataset(name: folder.lastPathComponent, nodes: nodes, train: train, test: test)
    }

    private static func recording(_ folder: URL, _ split: String) throws -> Recording {
        let sightings = try DatasetCSV.parseSightings(
            try text(folder, "\(split)/sightings.csv"), file: "\(split)/sightings.csv"
        ).get()
        let truth = try DatasetCSV.parseTruth(try text(folder, "\(split)/truth.csv"), file: "\(split)/truth.csv").get()
        return Recording(sightings: sightings, truth: truth)
    }

    private static func text(_ folder: URL, _ relative: String) throws -> String {
        let url = folder.appendingPathComponent(relative)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FormatError(code: .missingFile, message: "missing file '\(url.path)'")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
