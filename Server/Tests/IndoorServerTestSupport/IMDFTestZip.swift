import Foundation
import IndoorArchive

/// The IMDF test archives (folders under `Tests/IndoorModelTests/Fixtures/IMDF/`) as zip archives, made with
/// ``IndoorArchive/ZipWriter`` (no `zip` tool needed).
public enum IMDFTestZip {
    /// The IMDF test archive `name` as a zip, its files under `folder` (`""` for the top level, or `NAME/`), sorted by
    /// name; deflated unless `stored`.
    public static func imdf(_ name: String, folder: String = "", stored: Bool = false) throws -> Data {
        try ZipWriter.archive(try files(name).map { (folder + $0.path, $0.data) }, method: stored ? .stored : .deflated)
    }

    /// The files of the IMDF test archive `name`, sorted by name.
    public static func files(_ name: String) throws -> [(path: String, data: Data)] {
        let folder = RepositoryFiles.url("Tests/IndoorModelTests/Fixtures/IMDF/\(name)")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
            .map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) }
    }
}
