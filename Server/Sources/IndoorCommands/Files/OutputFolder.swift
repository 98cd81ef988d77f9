import Foundation

/// A folder of files a command writes as a whole (`indoor simulate -o DIR`), by the rules of ``OutputFile``.
///
/// - A new or empty folder is always fine. A file where the folder should be is the error `'PATH' is a file;
///   expected a folder path`.
/// - A folder with anything in it is refused without `--force`.
/// - With `--force`, a folder is replaced only when everything in it is one of the files the command writes
///   (`ownedFiles`, and the subfolders that hold them): that is, a folder an earlier run wrote. A folder with
///   any other file or folder in it (a project, notes of yours) is refused even with `--force`, naming that file.
/// - The files are written to a hidden sibling folder (`.NAME.indoor-UUID.tmp`), which is swapped into place only
///   when every file is complete; the old folder is removed only after the swap. On failure, or when the run is
///   interrupted, the sibling is removed and the old folder is left as it was.
struct OutputFolder: Sendable {
    /// The path as the user wrote it, for messages.
    let path: String
    /// Where the folder goes: absolute and standardised.
    let url: URL
    /// Whether a folder that holds only `ownedFiles` may be replaced.
    let force: Bool
    /// The paths, relative to the folder, of the files the command writes (`test/truth.csv`).
    let ownedFiles: Set<String>
    /// The command's name for messages (`indoor simulate`).
    let command: String

    /// Checks that `path` can take the folder; creates nothing.
    ///
    /// - Parameters:
    ///   - path: The folder path as the user gave it.
    ///   - force: Whether a folder holding only `ownedFiles` may be replaced (the command's `--force`).
    ///   - ownedFiles: Relative paths of the files the command writes there.
    ///   - command: The command's name for messages (`indoor simulate`).
    /// - Throws: ``CommandFailure`` naming the path and what is wrong.
    init(path: String, force: Bool, ownedFiles: Set<String>, command: String) throws {
        self.path = path
        self.force = force
        self.ownedFiles = ownedFiles
        self.command = command
        guard !path.isEmpty else { throw CommandFailure("'' is not a folder path: the output path is empty") }
        url = URL(fileURLWithPath: path).standardizedFileURL
        switch OutputFile.kind(ofItemAt: url.path) {
        case nil: return
        case .file: throw CommandFailure("'\(path)' is a file; expected a folder path")
        case .folder: break
        }
        let contents = try Self.contents(of: url)
        guard !contents.isEmpty else { return }
        guard force else {
            throw CommandFailure(
                "'\(path)' is a folder that is not empty; choose a new or empty folder, or pass --force to replace "
                    + "a folder that \(command) wrote")
        }
        let folders = Set(ownedFiles.flatMap(Self.ancestors))
        if let foreign = contents.first(where: {
            !ownedFiles.contains($0.path) && !($0.isFolder && folders.contains($0.path))
        }) {
            throw CommandFailure(
                "'\(path)' holds '\(foreign.path)', which \(command) does not write; --force replaces only a "
                    + "folder that \(command) wrote: choose a new or empty folder")
        }
    }

    /// Writes `files` (relative path and bytes) to a hidden sibling folder, then swaps it into place.
    ///
    /// Missing parent folders are created.
    ///
    /// - Throws: ``CommandFailure`` naming the path; the old folder, if any, is left as it was.
    func write(files: [(path: String, contents: Data)]) throws {
        try write { staging in
            for (relative, contents) in files {
                let file = staging.appendingPathComponent(relative)
                do {
                    try FileManager.default.createDirectory(
                        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try contents.write(to: file)
                } catch {
                    throw CommandFailure(
                        "cannot write '\(url.appendingPathComponent(relative).path)': \(CommandFailure.reason(error))")
                }
            }
        }
    }

    /// Lets `body` write the files into a hidden sibling folder (its argument, which exists and is empty), then
    /// swaps that folder into place: for files written piece by piece, too large to hold in memory.
    ///
    /// Missing parent folders are created. When `body` throws, the sibling folder is removed and the old folder,
    /// if any, is left as it was.
    ///
    /// - Throws: ``CommandFailure`` naming the path, or what `body` throws.
    func write(with body: (_ staging: URL) throws -> Void) throws {
        let parent = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure.cannotCreateFolder(path, error)
        }
        let staging = parent.appendingPathComponent(".\(url.lastPathComponent).indoor-\(UUID().uuidString).tmp")
        TemporaryFiles.shared.register(staging.path)
        defer {
            try? FileManager.default.removeItem(at: staging)
            TemporaryFiles.shared.unregister(staging.path)
        }
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw CommandFailure.cannotCreateFolder(path, error)
        }
        try body(staging)
        try swap(in: staging)
    }

    /// Puts `staging` where the folder goes, moving an old folder aside first and removing it after.
    private func swap(in staging: URL) throws {
        // Checked again: the folder may have changed while the command worked.
        _ = try OutputFolder(path: path, force: force, ownedFiles: ownedFiles, command: command)
        guard OutputFile.kind(ofItemAt: url.path) != nil else {
            guard rename(staging.path, url.path) == 0 else {
                throw CommandFailure("cannot write '\(path)': \(String(cString: strerror(errno)))")
            }
            return
        }
        let old = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).indoor-\(UUID().uuidString).old")
        TemporaryFiles.shared.unregister(staging.path)
        guard rename(url.path, old.path) == 0 else {
            TemporaryFiles.shared.register(staging.path)
            throw CommandFailure("cannot replace '\(path)': \(String(cString: strerror(errno)))")
        }
        guard rename(staging.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = rename(old.path, url.path)
            TemporaryFiles.shared.register(staging.path)
            throw CommandFailure("cannot replace '\(path)': \(reason)")
        }
        // The old folder held only files the command writes (or nothing), so removing it removes none of yours.
        try? FileManager.default.removeItem(at: old)
    }

    /// One entry of a folder, found recursively: its path relative to the folder, and whether it is a folder.
    struct Entry: Equatable {
        var path: String
        var isFolder: Bool
    }

    /// Everything in `folder`, hidden files included, links not followed.
    static func contents(of folder: URL) throws -> [Entry] {
        let manager = FileManager.default
        let names: [String]
        do {
            names = try manager.subpathsOfDirectory(atPath: folder.path)
        } catch {
            throw CommandFailure("cannot read folder '\(folder.path)': \(CommandFailure.reason(error))")
        }
        return names.sorted().map { name in
            let attributes = try? manager.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            return Entry(path: name, isFolder: attributes?[.type] as? FileAttributeType == .typeDirectory)
        }
    }

    /// `a/b/c` → `a`, `a/b`.
    static func ancestors(_ path: String) -> [String] {
        let parts = path.split(separator: "/")
        return (1..<max(1, parts.count)).map { parts.prefix($0).joined(separator: "/") }
    }
}
