import Foundation
import IndoorModel
import IndoorPositioning

/// Reads a dataset folder in the shared layout (`nodes.csv`, optional `train/`, `test/`, optional `venue.json`).
///
/// ``read(folder:includeSurvey:)`` holds every row in memory; ``open(folder:includeSurvey:)`` reads the survey
/// but hands out the test rows one at a time (``CSVRowStream``), as ``sightings(folder:split:)`` and
/// ``truth(folder:split:)`` do for any split.
public enum DatasetReader {
    /// Reads the dataset at `folder`.
    ///
    /// When the folder also holds a `venue.json` (as `indoor simulate` writes), each node of `nodes.csv`
    /// takes its beacon identity and calibration from the venue node with the same id.
    /// - Parameter includeSurvey: false to leave `train/` unread (the dataset then has no survey).
    /// - Throws: ``FormatError`` naming the missing path or the first bad file, line and field.
    public static func read(folder: URL, includeSurvey: Bool = true) throws -> Dataset {
        let nodes = try nodes(folder: folder)
        let test = try recording(folder, "test")
        var train: Recording?
        if includeSurvey, hasSplit(folder: folder, "train") { train = try recording(folder, "train") }
        return Dataset(name: folder.lastPathComponent, nodes: nodes, train: train, test: test)
    }

    /// Opens the dataset at `folder` for streaming: its nodes, survey (`train/`) and venue zones read whole, its
    /// test rows handed out one at a time.
    ///
    /// The headers of both test files are checked here, before the survey is read.
    /// - Parameter includeSurvey: false to leave `train/` unread (the dataset then has no survey).
    /// - Throws: ``FormatError`` naming the missing path or the first bad file, line and field (a bad test row
    ///   is thrown by the stream, when it is reached).
    public static func open(folder: URL, includeSurvey: Bool = true) throws -> StreamedDataset {
        let (nodes, venue) = try nodesAndVenue(folder: folder)
        let sightings = try sightings(folder: folder, split: "test")
        let truth = try truth(folder: folder, split: "test")
        var train: Recording?
        if includeSurvey, hasSplit(folder: folder, "train") { train = try recording(folder, "train") }
        return StreamedDataset(
            name: folder.lastPathComponent, nodes: nodes, train: train,
            zones: venue?.zones ?? [], floorPlan: venue.flatMap { FloorPlan(venue: $0) },
            sightings: sightings, truth: truth)
    }

    /// The nodes of the dataset at `folder`: `nodes.csv`, with beacon identities and calibrations from
    /// `venue.json` when there is one.
    ///
    /// - Throws: ``FormatError`` naming the missing path, or the bad file, line and field.
    public static func nodes(folder: URL) throws -> [Node] {
        try nodesAndVenue(folder: folder).nodes
    }

    /// The nodes (as ``nodes(folder:)``) and the `venue.json` they were completed from, read once.
    private static func nodesAndVenue(folder: URL) throws -> (nodes: [Node], venue: Venue?) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
            throw FormatError(code: .missingFile, message: "dataset folder '\(folder.path)' does not exist")
        }
        guard isDirectory.boolValue else {
            throw FormatError(
                code: .missingFile,
                message: "'\(folder.path)' is a file, not a dataset folder (nodes.csv, test/, optional train/)")
        }
        var nodes = try reader(folder, "nodes.csv").rows(DatasetCSV.nodesLayout)
        let venue = try readVenue(folder: folder)
        if let venue {
            let venueNodes = Dictionary(venue.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for index in nodes.indices {
                guard let match = venueNodes[nodes[index].id] else { continue }
                nodes[index].beacon = nodes[index].beacon ?? match.beacon
                nodes[index].calibration = nodes[index].calibration ?? match.calibration
            }
        }
        return (nodes, venue)
    }

    /// The venue of the dataset at `folder`: its `venue.json`, or, for a dataset without one (the public datasets), a
    /// venue of its `nodes.csv` alone, named after the folder and serving the geofence of that name (no floor
    /// outlines, zones or anchor: positions in the dataset's frame).
    ///
    /// - Throws: ``FormatError`` naming the missing path, or the bad file, line and field.
    public static func venue(folder: URL) throws -> Venue {
        let (nodes, venue) = try nodesAndVenue(folder: folder)
        if let venue { return venue }
        let name = folder.standardizedFileURL.lastPathComponent
        let id = name.isEmpty ? "dataset" : name
        return Venue(id: id, name: name, nodes: nodes, geofences: [id])
    }

    /// Whether the dataset at `folder` has the split `split` (`train`): something by that name.
    public static func hasSplit(folder: URL, _ split: String) -> Bool {
        CSVFileReader.kind(folder.appendingPathComponent(split)) != nil
    }

    /// The rows of `split/sightings.csv` (`split` is `test` or `train`), one at a time; the header is checked now.
    ///
    /// - Throws: ``FormatError`` when the split is not a folder, or the file is missing or has a wrong header.
    public static func sightings(folder: URL, split: String) throws -> CSVRowStream<Sighting> {
        try checkSplit(folder, split)
        return try reader(folder, "\(split)/sightings.csv").stream(DatasetCSV.sightingsLayout)
    }

    /// The rows of `split/truth.csv` (`split` is `test` or `train`), one at a time; the header is checked now.
    ///
    /// - Throws: ``FormatError`` when the split is not a folder, or the file is missing or has a wrong header.
    public static func truth(folder: URL, split: String) throws -> CSVRowStream<TruthPoint> {
        try checkSplit(folder, split)
        return try reader(folder, "\(split)/truth.csv").stream(DatasetCSV.truthLayout)
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

    private static func checkSplit(_ folder: URL, _ split: String) throws {
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
    }

    /// A site survey read whole: the `sightings.csv` and `truth.csv` in `folder` (the layout of a dataset's
    /// `train/`), or, when `folder` is a dataset, those of its `train/`.
    ///
    /// Errors name the survey's files as given: `survey/sightings.csv:12: …`.
    /// - Throws: ``FormatError`` when `folder` is missing or a file, holds neither layout, or a file is bad.
    public static func survey(folder: URL) throws -> Recording {
        switch CSVFileReader.kind(folder) {
        case nil:
            throw FormatError(code: .missingFile, message: "survey folder '\(folder.path)' does not exist")
        case .some(false):
            throw FormatError(
                code: .missingFile,
                message: "'\(folder.path)' is a file; expected a survey folder (sightings.csv and truth.csv, "
                    + "or a dataset with train/)")
        case .some(true): break
        }
        // Named by the path as given, so that an error points at the file wherever the survey lies.
        let shown = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        if CSVFileReader.kind(folder.appendingPathComponent("sightings.csv")) != nil {
            return try recording(folder, prefix: "", shown: shown)
        }
        if hasSplit(folder: folder, "train") {
            try checkSplit(folder, "train")
            return try recording(folder, prefix: "train/", shown: shown)
        }
        throw FormatError(
            code: .missingFile,
            message: "'\(folder.path)' holds no survey: expected sightings.csv and truth.csv in it, or a train/ "
                + "folder holding them")
    }

    private static func recording(_ folder: URL, _ split: String) throws -> Recording {
        try checkSplit(folder, split)
        return try recording(folder, prefix: "\(split)/")
    }

    /// The recording of `prefix`sightings.csv and `prefix`truth.csv in `folder`, named `shown` + their path in it.
    private static func recording(_ folder: URL, prefix: String, shown: String = "") throws -> Recording {
        let sightings = try CSVFileReader(
            name: "\(shown)\(prefix)sightings.csv", url: folder.appendingPathComponent("\(prefix)sightings.csv")
        ).rows(DatasetCSV.sightingsLayout)
        let truth = try CSVFileReader(
            name: "\(shown)\(prefix)truth.csv", url: folder.appendingPathComponent("\(prefix)truth.csv")
        ).rows(DatasetCSV.truthLayout)
        return Recording(sightings: sightings, truth: truth)
    }

    /// The reader of the file `relative` in `folder`, named `relative` in messages.
    private static func reader(_ folder: URL, _ relative: String) -> CSVFileReader {
        CSVFileReader(name: relative, url: folder.appendingPathComponent(relative))
    }
}
