import Foundation

/// Files of this repository that tests read: the vendored datasets and the documents whose examples are tested.
public enum RepositoryFiles {
    /// The repository's root: the nearest folder above this source file that holds `datasets/FORMAT.md`.
    public static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.pathComponents.count > 1 {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("datasets/FORMAT.md").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    /// A file or folder of the repository, by its path from the root (`"docs/FORMATS.md"`).
    public static func url(_ path: String) -> URL { root.appendingPathComponent(path) }
}
