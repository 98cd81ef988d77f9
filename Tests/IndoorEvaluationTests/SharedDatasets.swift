import Foundation
import IndoorTestSupport
import Testing

/// Where the vendored public datasets are: `<package root>/datasets`.
enum SharedDatasets {
    static let folder: URL = RepositoryFiles.url("datasets")

    /// The folder of dataset `name`; records a failure naming the expected path when it is absent.
    static func folder(_ name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try #require(
            FileManager.default.fileExists(atPath: url.appendingPathComponent("nodes.csv").path),
            "shared dataset '\(name)' not found at \(url.path); the repository vendors the datasets in datasets/")
        return url
    }
}
