import Foundation
import IndoorModel

/// IMDF archives for tests: edits of an archive's GeoJSON files (a venue is written as IMDF by ``IMDFExporter``).
enum IMDFTestArchive {
    /// `files` with the GeoJSON file `name` edited: `edit` gets its parsed object and changes it.
    static func editing(
        _ files: [String: Data], _ name: String, _ edit: (inout [String: Any]) throws -> Void
    ) throws -> [String: Data] {
        guard let data = files[name], var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TestArchiveError("no JSON object \(name)")
        }
        try edit(&object)
        var edited = files
        edited[name] = try JSONSerialization.data(withJSONObject: object)
        return edited
    }

    /// `files` with feature `index` of `name` edited.
    static func editingFeature(
        _ files: [String: Data], _ name: String, _ index: Int, _ edit: @escaping (inout [String: Any]) -> Void
    ) throws -> [String: Data] {
        try editing(files, name) { object in
            guard var features = object["features"] as? [[String: Any]], features.indices.contains(index) else {
                throw TestArchiveError("\(name) has no feature \(index)")
            }
            edit(&features[index])
            object["features"] = features
        }
    }
}

/// A test archive that could not be made.
struct TestArchiveError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
