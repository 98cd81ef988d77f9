import Foundation

/// A file written piece by piece inside a folder being staged (see ``OutputFolder/write(with:)``), through a
/// buffer of about 1 MiB: memory stays constant however large the file grows.
///
/// Errors name the file's final path (where it goes once the folder is swapped in), not the hidden staging one.
final class StreamedFile {
    /// The path to name in messages.
    let shownPath: String
    private var handle: FileHandle?
    private var buffer = Data()
    /// Bytes buffered before they are written.
    private static let bufferSize = 1 << 20

    /// Creates (or empties) the file at `url`, and the folders above it.
    ///
    /// - Parameter shownPath: the path to name in errors.
    /// - Throws: ``CommandFailure`` naming `shownPath`.
    init(url: URL, shownPath: String) throws {
        self.shownPath = shownPath
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot write '\(shownPath)': \(CommandFailure.reason(error))")
        }
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CommandFailure("cannot write '\(shownPath)': the file could not be created")
        }
        do {
            handle = try FileHandle(forWritingTo: url)
        } catch {
            throw CommandFailure("cannot write '\(shownPath)': \(CommandFailure.reason(error))")
        }
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit {
        try? handle?.close()
    }

    /// Appends `text` as UTF-8.
    ///
    /// - Throws: ``CommandFailure`` naming the file (a full disk says so).
    func append(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Appends `bytes`.
    ///
    /// - Throws: ``CommandFailure`` naming the file.
    func append(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Writes what is buffered, flushes the file to disk and closes it.
    ///
    /// - Throws: ``CommandFailure`` naming the file.
    func close() throws {
        try flush()
        guard let handle else { return }
        do {
            try handle.synchronize()
            try handle.close()
            self.handle = nil
        } catch {
            throw CommandFailure("cannot write '\(shownPath)': \(CommandFailure.reason(error))")
        }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        guard let handle else { throw CommandFailure("cannot write '\(shownPath)': the file is closed") }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw CommandFailure("cannot write '\(shownPath)': \(CommandFailure.reason(error))")
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
