import Foundation
import IndoorModel

/// Opening the files a command reads, with errors that say in words what is wrong with the path: no such file, a
/// folder where a file should be, or why it cannot be read.
enum InputFile {
    /// The whole of a small input file (a venue, a calibration).
    ///
    /// - Throws: ``IndoorModel/FormatError`` (`missingFile`) naming `path`.
    static func contents(_ path: String) throws -> Data {
        try checkIsFile(path)
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw unreadable(path, error)
        }
    }

    /// A handle to read `path` in chunks (a recording of any size); the caller closes it.
    ///
    /// - Throws: ``IndoorModel/FormatError`` (`missingFile`) naming `path`.
    static func open(_ path: String) throws -> FileHandle {
        try checkIsFile(path)
        do {
            return try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw unreadable(path, error)
        }
    }

    /// The next chunk of about 1 MiB of `handle` (read from `path`), `nil` at its end.
    ///
    /// - Throws: ``IndoorModel/FormatError`` (`missingFile`) naming `path` when reading fails.
    static func chunk(of handle: FileHandle, path: String) throws -> Data? {
        do {
            return try handle.read(upToCount: 1 << 20)
        } catch {
            throw unreadable(path, error)
        }
    }

    private static func unreadable(_ path: String, _ error: any Error) -> FormatError {
        FormatError(code: .missingFile, file: path, message: "cannot read the file (\(CommandFailure.reason(error)))")
    }

    private static func checkIsFile(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FormatError(code: .missingFile, file: path, message: "no such file")
        }
        if isDirectory.boolValue {
            throw FormatError(code: .missingFile, file: path, message: "a folder, not a file")
        }
    }
}
