import Foundation

/// JSON text that is not well formed, placed at its first syntax error: what Foundation's decoder does not say.
///
/// Foundation's `JSONDecoder` on Linux reports every malformed document as "The given data was not valid JSON",
/// with no position. ``JSONByteScanner`` throws this error at the first byte that cannot continue a valid document,
/// so that a file reader can say `venue.json: line 3, column 12: expected ',' or '}' after an object member, found
/// '"'` (``positionedMessage``) and the server `line 1, column 9 (byte 8): expected ':' after an object key, found
/// '1'` (``message``).
@_spi(IndoorPackages) public struct JSONSyntaxError: Error, Hashable, Sendable {
    /// The 0-based offset of the offending byte in the text (the text's length at an early end).
    public var offset: Int
    /// The 1-based line of the offending byte (lines end in `\n`).
    public var line: Int
    /// The 1-based column of the offending byte on its line, in Unicode scalars (a `\r` before `\n` is a column too).
    public var column: Int
    /// What was wrong: `expected a value, found 'n'`.
    public var problem: String

    /// `line L, column C (byte N): problem`.
    public var message: String {
        "line \(line), column \(column) (byte \(offset)): \(problem)"
    }

    /// `line L, column C: problem`.
    public var positionedMessage: String { "line \(line), column \(column): \(problem)" }

    /// The error at `offset` of `bytes`, its line and column counted from the bytes before it.
    public static func at(_ offset: Int, in bytes: UnsafeRawBufferPointer, _ problem: String) -> JSONSyntaxError {
        var line = 1
        var column = 1
        let end = min(offset, bytes.count)
        var index = 0
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Not a UTF-8 continuation byte: a new scalar.
                column += 1
            }
            index += 1
        }
        return JSONSyntaxError(offset: offset, line: line, column: column, problem: problem)
    }

    /// The first syntax error in `data`, or `nil` when `data` is one well-formed JSON value (RFC 8259), optionally
    /// surrounded by whitespace and preceded by a UTF-8 byte-order mark.
    ///
    /// - Complexity: O(n) time for n bytes; nesting deeper than ``JSONByteScanner/maximumDepth`` is an error.
    public static func find(in data: Data) -> JSONSyntaxError? {
        data.withUnsafeBytes { raw in
            var scanner = JSONByteScanner(raw)
            if raw.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.position = 3 }
            do throws(JSONSyntaxError) {
                try scanner.scanDocument()
                return nil
            } catch {
                return error
            }
        }
    }
}
