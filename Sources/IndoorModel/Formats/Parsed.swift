import Foundation

/// Rows read from a text file, with the problems found on the rows that could not be read.
///
/// Readers keep every good row and report each bad one, so one bad line never loses the rest.
public struct Parsed<Row: Sendable>: Sendable {
    /// The rows that were read, in file order.
    public var rows: [Row]
    /// One error per rejected row, each naming the file, line and field.
    public var problems: [FormatError]

    /// Rows and problems.
    public init(rows: [Row] = [], problems: [FormatError] = []) {
        self.rows = rows
        self.problems = problems
    }

    /// The rows, or the first problem if there was any.
    public func get() throws -> [Row] {
        if let first = problems.first { throw first }
        return rows
    }
}
