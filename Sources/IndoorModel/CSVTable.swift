import Foundation

/// Rows read from a text file, with the problems found on the rows that could not be read.
///
/// Readers keep every good row and report each bad one, so one bad line never loses the rest.
public struct Parsed<Row: Sendable>: Sendable {
    public var rows: [Row]
    /// One error per rejected row, each naming the file, line and field.
    public var problems: [FormatError]

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

/// One data row of a CSV file, with typed access to its fields by column name.
public struct CSVRow {
    let fields: [Substring]
    let columns: [String: Int]
    /// The file name, for errors.
    public let file: String
    /// The 1-based line number in the file (the header is line 1).
    public let line: Int

    /// The raw text of `column` (empty when the column is absent).
    public func text(_ column: String) -> Substring {
        guard let index = columns[column], index < fields.count else { return "" }
        return fields[index]
    }

    /// A required non-empty text field.
    public func string(_ column: String) throws -> String {
        let value = text(column)
        guard !value.isEmpty else { throw error("\(column) is empty") }
        return String(value)
    }

    /// A required finite number.
    public func double(_ column: String) throws -> Double {
        let value = text(column)
        guard let number = Double(value), number.isFinite else {
            throw error(value.isEmpty ? "\(column) is empty" : "\(column) '\(value)' is not a number")
        }
        return number
    }

    /// An optional finite number: empty means `nil`.
    public func optionalDouble(_ column: String) throws -> Double? {
        text(column).isEmpty ? nil : try double(column)
    }

    /// An optional integer: empty means `nil`.
    public func optionalInt(_ column: String) throws -> Int? {
        let value = text(column)
        guard !value.isEmpty else { return nil }
        guard let number = Int(value) else { throw error("\(column) '\(value)' is not an integer") }
        return number
    }

    /// An error placed at this row.
    public func error(_ message: String) -> FormatError {
        FormatError(code: .invalidValue, file: file, line: line, message: message)
    }
}

/// Reads comma-separated text with a header row, as in the shared dataset layout.
public enum CSVTable {
    /// Parses `text` and turns each data row into a value with `makeRow`.
    ///
    /// Blank lines are skipped. A row that `makeRow` rejects, or that has the wrong number of fields,
    /// becomes a problem; the other rows are kept.
    /// - Throws: ``FormatError`` when the header lacks one of `required` columns (nothing can be read).
    public static func parse<Row: Sendable>(
        _ text: String, file: String, required: [String], makeRow: (CSVRow) throws -> Row
    ) throws -> Parsed<Row> {
        var result = Parsed<Row>()
        var columns: [String: Int] = [:]
        var headerCount = 0
        var lineNumber = 0
        var sawHeader = false
        // "\r\n" is one Character in Swift, so split on both forms of line end.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let line = rawLine.last == "\r" ? rawLine.dropLast() : rawLine
            if line.allSatisfy({ $0 == " " }) { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if !sawHeader {
                sawHeader = true
                headerCount = fields.count
                for (index, name) in fields.enumerated() {
                    columns[name.trimmingCharacters(in: .whitespaces)] = index
                }
                if let missing = required.first(where: { columns[$0] == nil }) {
                    throw FormatError(
                        code: .missingColumn, file: file, line: lineNumber,
                        message: "header has no '\(missing)' column (expected \(required.joined(separator: ",")))")
                }
                continue
            }
            guard fields.count == headerCount else {
                result.problems.append(
                    FormatError(
                        code: .wrongFieldCount, file: file, line: lineNumber,
                        message: "expected \(headerCount) fields, found \(fields.count)"))
                continue
            }
            do {
                result.rows.append(try makeRow(CSVRow(fields: fields, columns: columns, file: file, line: lineNumber)))
            } catch let error as FormatError {
                result.problems.append(error.located(file: file, line: lineNumber))
            }
        }
        if !sawHeader {
            throw FormatError(
                code: .missingColumn, file: file, line: 1,
                message: "file is empty; expected a header row \(required.joined(separator: ","))")
        }
        return result
    }
}
