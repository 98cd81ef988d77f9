/// A request body that is not well-formed JSON, placed at its first syntax error.
///
/// The message names the byte offset (from 0) and the line and column (from 1, columns counted in bytes):
/// `line 1, column 9 (byte 8): expected ':' after an object key, found '"'`.
@_spi(IndoorPackages) public struct JSONBodySyntaxError: Error, Hashable, Sendable {
    /// The offset of the offending byte from the start of the body (the body's length at an early end).
    public var offset: Int
    /// The line of the offending byte, from 1.
    public var line: Int
    /// The column of the offending byte within its line, from 1, in bytes.
    public var column: Int
    /// What was wrong: `expected a value, found 'n'`.
    public var problem: String

    /// `line L, column C (byte N): problem`.
    public var message: String {
        "line \(line), column \(column) (byte \(offset)): \(problem)"
    }

    /// The error at `offset` of `bytes`, its line and column counted from the bytes before it.
    public static func at(_ offset: Int, in bytes: UnsafeRawBufferPointer, _ problem: String) -> JSONBodySyntaxError {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        var index = 0
        while index < end {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return JSONBodySyntaxError(offset: offset, line: line, column: offset - lineStart + 1, problem: problem)
    }
}
