import Foundation

/// A file a command writes without harming anything the user had: the one place where commands write files.
///
/// The rules, for every output path of every command (`calibrate -o`, `evaluate --plot`, `decode --sightings`,
/// `simulate --btsnoop`, `venue export --geojson` and `--imdf`, `venue import -o`, `bench decode --write`):
/// - A folder is never replaced: a folder where a file is expected is the error `'PATH' is a folder; expected a
///   file path`.
/// - An existing file is replaced only when the user passed `--force` (`force`); otherwise the command stops with
///   `'PATH' already exists; pass --force to replace it` before doing its work.
/// - An output that is one of the command's inputs is refused, with or without `--force`. Paths are compared
///   resolved (symbolic links followed, `./x` and `x` alike) and, when both exist, by file identity (hard links).
/// - The bytes go to a hidden temporary file in the same folder (`.NAME.indoor-UUID.tmp`), which is renamed into
///   place only when it is complete. On any failure, and when the run is interrupted (SIGINT, SIGTERM, SIGHUP),
///   the temporary file is removed: the path holds the old file or the new one, never half of one.
///
/// Construct it before the work (the checks touch nothing), write after the results are printed.
package struct OutputFile: Sendable {
    /// The path as the user wrote it, for messages.
    let path: String
    /// Where the file goes: absolute and standardised (`..` and `.` removed), links not followed.
    let url: URL
    /// Whether an existing file at `url` may be replaced.
    let force: Bool

    /// Checks that `path` can take a new file: not a folder, not an existing file unless `force`, not one of
    /// `inputs`, in a folder that exists. Creates nothing.
    ///
    /// - Parameters:
    ///   - path: The output path as the user gave it.
    ///   - force: Whether an existing file may be replaced (the command's `--force`).
    ///   - inputs: Files (or folders) the command reads; the output may be none of them.
    /// - Throws: ``CommandFailure`` naming the path and what is wrong.
    package init(path: String, force: Bool, inputs: [String] = []) throws {
        self.path = path
        self.force = force
        guard !path.isEmpty else { throw CommandFailure("'' is not a file path: the output path is empty") }
        url = URL(fileURLWithPath: path).standardizedFileURL
        let shown = path
        if let kind = Self.kind(ofItemAt: url.path) {
            if kind == .folder { throw CommandFailure("'\(shown)' is a folder; expected a file path") }
        } else if path.hasSuffix("/") {
            throw CommandFailure("'\(shown)' ends with '/', a folder path; expected a file path")
        }
        for input in inputs where Self.sameItem(path, input) {
            let named = input == path ? "" : " ('\(input)')"
            throw CommandFailure(
                "'\(shown)' is also an input of this command\(named); choose another output path")
        }
        if Self.kind(ofItemAt: url.path) != nil, !force {
            throw CommandFailure("'\(shown)' already exists; pass --force to replace it")
        }
        let folder = url.deletingLastPathComponent().path
        switch Self.kind(ofItemAt: folder) {
        case .folder: break
        case .file: throw CommandFailure("cannot write '\(shown)': '\(folder)' is a file, not a folder")
        case nil: throw CommandFailure("cannot write '\(shown)': folder '\(folder)' does not exist")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw CommandFailure("cannot write '\(shown)': folder '\(folder)' is not writable")
        }
    }

    /// Checks `path` (see ``init(path:force:inputs:)``) and writes `data` there through a temporary file.
    ///
    /// - Throws: ``CommandFailure`` naming the path; the old file, if any, is left as it was.
    static func write(data: Data, to path: String, force: Bool, inputs: [String] = []) throws {
        try OutputFile(path: path, force: force, inputs: inputs).write(data)
    }

    /// Writes `data` through a temporary file renamed into place.
    ///
    /// - Throws: ``CommandFailure`` naming the path; the old file, if any, is left as it was.
    func write(_ data: Data) throws {
        let writer = try open()
        try writer.write(data)
        try writer.commit()
    }

    /// Copies the file at `source` to this path, in 1 MiB pieces, through a temporary file.
    ///
    /// - Throws: ``CommandFailure`` naming the path; the old file, if any, is left as it was.
    package func copy(from source: URL) throws {
        let writer = try open()
        let input: FileHandle
        do {
            input = try FileHandle(forReadingFrom: source)
        } catch {
            throw CommandFailure("cannot read '\(source.path)': \(CommandFailure.reason(error))")
        }
        defer { try? input.close() }
        while true {
            let chunk: Data?
            do {
                chunk = try input.read(upToCount: 1 << 20)
            } catch {
                throw CommandFailure("cannot read '\(source.path)': \(CommandFailure.reason(error))")
            }
            guard let chunk, !chunk.isEmpty else { break }
            try writer.write(chunk)
        }
        try writer.commit()
    }

    /// Creates the temporary file; write to it, then ``Writer/commit()``.
    ///
    /// - Throws: ``CommandFailure`` when the temporary file cannot be created.
    func open() throws -> Writer {
        try Writer(self)
    }

    /// A temporary file being written, next to where it goes.
    ///
    /// Removed when it is dropped without ``commit()``, when a write fails, and when the run is interrupted.
    final class Writer {
        /// The file this one becomes.
        let target: OutputFile
        /// The temporary file: hidden, in the target's folder, so the rename stays on one file system.
        let temporaryURL: URL
        private var handle: FileHandle?
        private var committed = false

        fileprivate init(_ target: OutputFile) throws {
            self.target = target
            let folder = target.url.deletingLastPathComponent()
            temporaryURL = folder.appendingPathComponent(
                ".\(target.url.lastPathComponent).indoor-\(UUID().uuidString).tmp")
            TemporaryFiles.shared.register(temporaryURL.path)
            guard FileManager.default.createFile(atPath: temporaryURL.path, contents: nil) else {
                TemporaryFiles.shared.unregister(temporaryURL.path)
                throw CommandFailure.cannotWrite(target.path)
            }
            do {
                handle = try FileHandle(forWritingTo: temporaryURL)
            } catch {
                discard()
                throw CommandFailure.cannotWrite(target.path, error)
            }
        }

        deinit {
            if !committed { discard() }
        }

        /// Appends `data` to the temporary file.
        ///
        /// - Throws: ``CommandFailure`` naming the target path (and why: a full disk says so); the temporary file
        ///   is removed.
        func write(_ data: Data) throws {
            guard let handle else { throw CommandFailure("cannot write '\(target.path)': the file is closed") }
            do {
                try handle.write(contentsOf: data)
            } catch {
                discard()
                throw CommandFailure("cannot write '\(target.path)': \(CommandFailure.reason(error))")
            }
        }

        /// Flushes the temporary file to disk and renames it into place.
        ///
        /// Checks again that the target is not a folder and, without `--force`, that no file appeared there
        /// while the command worked.
        ///
        /// - Throws: ``CommandFailure`` naming the target path; the temporary file is removed.
        func commit() throws {
            guard let handle, !committed else { return }
            do {
                try handle.synchronize()
                try handle.close()
                self.handle = nil
            } catch {
                discard()
                throw CommandFailure("cannot write '\(target.path)': \(CommandFailure.reason(error))")
            }
            switch OutputFile.kind(ofItemAt: target.url.path) {
            case .folder:
                discard()
                throw CommandFailure("'\(target.path)' is a folder; expected a file path")
            case .file where !target.force:
                discard()
                throw CommandFailure("'\(target.path)' already exists; pass --force to replace it")
            default: break
            }
            guard rename(temporaryURL.path, target.url.path) == 0 else {
                let reason = String(cString: strerror(errno))
                discard()
                throw CommandFailure("cannot write '\(target.path)': \(reason)")
            }
            committed = true
            TemporaryFiles.shared.unregister(temporaryURL.path)
        }

        /// Closes and removes the temporary file; the target is untouched.
        func discard() {
            try? handle?.close()
            handle = nil
            unlink(temporaryURL.path)
            TemporaryFiles.shared.unregister(temporaryURL.path)
        }
    }
}

extension OutputFile {
    /// What is at a path, following symbolic links.
    enum Kind: Equatable {
        case file
        case folder
    }

    /// Whether `path` (links followed) is a file, a folder, or nothing.
    static func kind(ofItemAt path: String) -> Kind? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue ? .folder : .file
    }

    /// `path` absolute, standardised and with every symbolic link resolved, also when the last part does not
    /// exist yet (its folder is resolved).
    static func resolved(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        if kind(ofItemAt: url.path) != nil { return url.resolvingSymlinksInPath().path }
        let folder = url.deletingLastPathComponent()
        guard folder.path != url.path else { return url.path }
        return URL(fileURLWithPath: resolved(folder.path)).appendingPathComponent(url.lastPathComponent).path
    }

    /// Whether two paths name the same file or folder: equal when resolved, or one file under two hard links.
    static func sameItem(_ first: String, _ second: String) -> Bool {
        if resolved(first) == resolved(second) { return true }
        let manager = FileManager.default
        guard let a = try? manager.attributesOfItem(atPath: resolved(first)),
            let b = try? manager.attributesOfItem(atPath: resolved(second)),
            let inodeA = a[.systemFileNumber] as? NSNumber, let inodeB = b[.systemFileNumber] as? NSNumber,
            let deviceA = a[.systemNumber] as? NSNumber, let deviceB = b[.systemNumber] as? NSNumber
        else { return false }
        return inodeA == inodeB && deviceA == deviceB
    }

    /// The files of a dataset folder that `evaluate` and `calibrate` read (see `datasets/FORMAT.md`).
    static func datasetInputs(folder: String) -> [String] {
        let base = URL(fileURLWithPath: folder)
        return [
            "nodes.csv", "venue.json", "train/sightings.csv", "train/truth.csv", "test/sightings.csv",
            "test/truth.csv",
        ].map { base.appendingPathComponent($0).path }
    }
}
