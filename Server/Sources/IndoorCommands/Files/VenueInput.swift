import Foundation
import IndoorEvaluation
import IndoorModel

/// The venue a command is given: a venue JSON file, or a dataset folder (its `venue.json`, or a venue of its
/// `nodes.csv` when it has none, as the public datasets: `DatasetReader.venue(folder:)`).
enum VenueInput {
    /// The venue JSON at `path`, and the name its errors should carry: the file, or for a dataset folder the file
    /// the venue came from.
    ///
    /// - Throws: ``IndoorModel/FormatError`` naming the path (no such file; a folder holding neither `venue.json`
    ///   nor `nodes.csv`; a bad `nodes.csv` row).
    static func json(_ path: String) throws -> (data: Data, file: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return (try InputFile.contents(path), path)
        }
        let folder = URL(fileURLWithPath: path)
        let venueFile = folder.appendingPathComponent("venue.json").path
        if FileManager.default.fileExists(atPath: venueFile) { return (try InputFile.contents(venueFile), venueFile) }
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("nodes.csv").path) else {
            throw FormatError(
                code: .missingFile, file: path,
                message: "a folder with neither venue.json nor nodes.csv; give a venue JSON file or a dataset folder")
        }
        let venue = try DatasetReader.venue(folder: folder)
        return (try venue.encodeJSON(), folder.appendingPathComponent("nodes.csv").path)
    }
}
