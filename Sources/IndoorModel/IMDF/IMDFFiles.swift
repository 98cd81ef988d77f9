import Foundation

/// The files of an IMDF archive, found at its top level or in its one folder.
struct IMDFFiles: Sendable {
    /// Every file of the archive, by its path within it.
    var files: [String: Data]
    /// The folder that holds `manifest.json` (`""` at the top level, else `NAME/`).
    var folder: String

    /// Finds the archive's `manifest.json` among `files`.
    ///
    /// Folders (paths ending in `/`) and what archivers add (`__MACOSX/`, `.DS_Store`) are left out.
    /// - Throws: ``IMDFError`` when there is no `manifest.json` at the top level or in one folder, or several folders
    ///   hold one.
    init(_ files: [String: Data]) throws {
        var kept: [String: Data] = [:]
        for (path, data) in files where !Self.isClutter(path) {
            var name = path
            while name.hasPrefix("./") { name.removeFirst(2) }
            kept[name] = data
        }
        self.files = kept
        if kept["manifest.json"] != nil {
            folder = ""
            return
        }
        let folders = kept.keys.filter { $0.hasSuffix("/manifest.json") && $0.split(separator: "/").count == 2 }
            .map { String($0.dropLast("manifest.json".count)) }.sorted()
        guard let first = folders.first else {
            let names = kept.keys.sorted()
            let shown = names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", …" : "")
            throw IMDFError(
                file: "manifest.json",
                message:
                    "missing: an IMDF archive has manifest.json at its top level or in its one folder"
                    + (names.isEmpty ? " (the archive is empty)" : " (found \(shown))"))
        }
        guard folders.count == 1 else {
            throw IMDFError(
                file: "manifest.json",
                message:
                    "found in \(folders.count) folders (\(folders.joined(separator: ", "))); an IMDF archive holds one venue"
            )
        }
        folder = first
    }

    /// The bytes of `name` (such as `unit.geojson`) in the archive's folder, if it has it.
    subscript(name: String) -> Data? { files[folder + name] }

    /// The path to name in messages: `name` within the folder.
    func path(_ name: String) -> String { folder + name }

    /// The paths of every file but those `used` (names within the folder), sorted.
    func others(than used: Set<String>) -> [String] {
        files.keys.filter { !used.contains($0) }.sorted()
    }

    /// Whether `path` is a folder entry or something an archiver adds.
    private static func isClutter(_ path: String) -> Bool {
        path.hasSuffix("/") || path.hasPrefix("__MACOSX/") || path.split(separator: "/").last == ".DS_Store"
    }
}
