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
        var nodes = try reader(folder, "nodes.csv", DatasetCSV.nodesHeader).rows(DatasetCSV.parseNodes)
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
        if includeSurvey, CSVFileReader.kind(folder.appendingPathComponent("train")) != nil {
            train = try recording(folder, "train")
        }
        return Dataset(name: folder.lastPathComponent, nodes: nodes, train: train, test: test)
    }

    /// The folder's `venue.json`, or `nil` when it has none.
    ///
    /// - Throws: ``FormatError`` naming `venue.json` and the bad field, or saying that it is a folder.
    public static func readVenue(folder: URL) throws -> Venue? {
        let url = folder.appendingPathComponent("venue.json")
        if CSVFileReader.kind(url) == true {
            throw FormatError(
                code: .missingFile, file: "venue.json",
                message: "'\(url.path)' is a folder; expected the venue JSON file (or nothing)")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return try Venue.decodeJSON(data, file: "venue.json")
    }

    private static func recording(_ folder: URL, _ split: String) throws -> Recording {
        let url = folder.appendingPathComponent(split)
        switch CSVFileReader.kind(url) {
        case .some(false):
            throw FormatError(
                code: .missingFile,
                message: "'\(url.path)' is a file; expected a folder holding sightings.csv and truth.csv")
        case nil:
            throw FormatError(
                code: .missingFile,
                message: "missing folder '\(url.path)' (with sightings.csv and truth.csv) in the dataset")
        case .some(true): break
        }
        let sightings = try reader(folder, "\(split)/sightings.csv", DatasetCSV.sightingsHeader)
            .rows(DatasetCSV.parseSightings)
        let truth = try reader(folder, "\(split)/truth.csv", DatasetCSV.truthHeader).rows(DatasetCSV.parseTruth)
        return Recording(sightings: sightings, truth: truth)
    }

    /// The reader of the file `relative` in `folder`, named `relative` in messages.
    private static func reader(_ folder: URL, _ relative: String, _ header: String) -> CSVFileReader {
        CSVFileReader(name: relative, url: folder.appendingPathComponent(relative), expectedHeader: header)
    }
}
