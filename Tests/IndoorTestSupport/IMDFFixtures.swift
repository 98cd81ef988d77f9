import Foundation

/// The IMDF archives written for the tests (folders of GeoJSON under `Tests/IndoorModelTests/Fixtures/IMDF/`), read
/// as an importer takes them: path within the archive → bytes.
public enum IMDFFixtures {
    /// The folder of the archive `name` (`two-level`).
    public static func folder(_ name: String) -> URL {
        RepositoryFiles.url("Tests/IndoorModelTests/Fixtures/IMDF/\(name)")
    }

    /// The files of the archive `name`, by their names (at the archive's top level).
    public static func files(_ name: String) throws -> [String: Data] {
        let folder = folder(name)
        var files: [String: Data] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !file.hasPrefix(".") {
            files[file] = try Data(contentsOf: folder.appendingPathComponent(file))
        }
        return files
    }
}
