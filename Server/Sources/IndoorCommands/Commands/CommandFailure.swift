import Foundation

/// A command that could not do its work (a file it cannot write, input it cannot read).
///
/// ArgumentParser prints it as the one line `Error: <description>` and exits with status 1, without the usage
/// text it adds to a `ValidationError` (which is for arguments that are wrong, not for files).
package struct CommandFailure: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }

    /// `cannot create folder 'PATH': REASON`, naming the file or read-only folder in the way when there is one.
    static func cannotCreateFolder(_ path: String, _ error: any Error) -> CommandFailure {
        var ancestor = URL(fileURLWithPath: path)
        while ancestor.path != "/" {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
                if !isDirectory.boolValue {
                    return CommandFailure("cannot create folder '\(path)': '\(ancestor.path)' is a file")
                }
                if !FileManager.default.isWritableFile(atPath: ancestor.path) {
                    return CommandFailure("cannot create folder '\(path)': folder '\(ancestor.path)' is not writable")
                }
                break
            }
            ancestor.deleteLastPathComponent()
        }
        return CommandFailure("cannot create folder '\(path)': \(error.localizedDescription)")
    }

    /// `cannot write 'PATH': REASON`, saying plainly when the folder the file should go in is missing or read-only.
    package static func cannotWrite(_ path: String, _ error: (any Error)? = nil) -> CommandFailure {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            return CommandFailure("cannot write '\(path)': folder '\(folder)' does not exist")
        }
        if !isDirectory.boolValue {
            return CommandFailure("cannot write '\(path)': '\(folder)' is a file, not a folder")
        }
        if !FileManager.default.isWritableFile(atPath: folder) {
            return CommandFailure("cannot write '\(path)': folder '\(folder)' is not writable")
        }
        return CommandFailure("cannot write '\(path)': \(error.map(reason) ?? "the file could not be created")")
    }

    /// Why an operation failed, in plain words: the system's text for the underlying POSIX error ("No space
    /// left on device") rather than a Foundation wrapper such as "NSCocoaErrorDomain error 512".
    static func reason(_ error: any Error) -> String {
        if let failure = error as? CommandFailure { return failure.description }
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}
