import Foundation

/// An error in input data: a file, a line of it, or a value, with a message that says what was wrong.
///
/// The description reads like a compiler diagnostic, `sightings.csv:17: rssi 'abc' is not a number`,
/// so that a user can go straight to the place.
public struct FormatError: Error, Hashable, Sendable {
    /// What kind of problem this is; stable across releases, for programs that react to it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name of the code, e.g. `invalidValue`.
        public let name: String
        /// A code named `name`.
        package init(_ name: String) { self.name = name }
        public var description: String { name }

        /// A file or folder that should be there is not.
        public static let missingFile = Code("missingFile")
        /// A header row lacks a required column.
        public static let missingColumn = Code("missingColumn")
        /// A row has the wrong number of fields.
        public static let wrongFieldCount = Code("wrongFieldCount")
        /// A field's value cannot be read (not a number, out of range, unknown id).
        public static let invalidValue = Code("invalidValue")
        /// A JSON document is malformed or lacks a field.
        public static let invalidJSON = Code("invalidJSON")
        /// Bytes that do not follow a binary format's framing.
        public static let corruptData = Code("corruptData")
        /// A row's time is earlier than the row before it, in a file read in one pass that must be sorted by time.
        public static let unsorted = Code("unsorted")
    }

    /// What kind of problem this is.
    public var code: Code
    /// The file name (or path) the problem is in, when known.
    public var file: String?
    /// The 1-based line number, when the input is line oriented.
    public var line: Int?
    /// What was wrong, without the file and line prefix.
    public var message: String
    /// The path of the field that was wrong in a JSON document (`nodes[2].x`, as the message names it), when the
    /// problem is a field's; `nil` for the document as a whole and for other formats.
    public var field: String?

    /// A problem of kind `code` in `file` at `line` (1-based) and, in a JSON document, at `field`, described by
    /// `message`.
    public init(code: Code, file: String? = nil, line: Int? = nil, field: String? = nil, message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    /// The same error placed in `file` (and `line`, when given and not already set).
    public func located(file: String, line: Int? = nil) -> FormatError {
        var copy = self
        copy.file = copy.file ?? file
        copy.line = copy.line ?? line
        return copy
    }
}

extension FormatError: CustomStringConvertible, LocalizedError {
    public var description: String {
        var prefix = ""
        if let file {
            prefix = file
            if let line { prefix += ":\(line)" }
            prefix += ": "
        }
        return prefix + message
    }

    public var errorDescription: String? { description }
}
