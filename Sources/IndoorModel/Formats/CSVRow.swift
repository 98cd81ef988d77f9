import Foundation

/// One data row of a CSV file, with typed access to its fields by column name.
package struct CSVRow {
    let fields: [Substring]
    let columns: [String: Int]
    /// The file name, for errors.
    package let file: String
    /// The 1-based line number in the file (the header is line 1).
    package let line: Int

    /// The text of `column` without surrounding spaces or tabs, as header names are read (empty when the
    /// column is absent).
    package func text(_ column: String) -> Substring {
        guard let index = columns[column], index < fields.count else { return "" }
        var field = fields[index]
        while let first = field.first, first == " " || first == "\t" { field.removeFirst() }
        while let last = field.last, last == " " || last == "\t" { field.removeLast() }
        return field
    }

    /// A required non-empty text field.
    package func string(_ column: String) throws -> String {
        let value = text(column)
        guard !value.isEmpty else { throw error("\(column) is empty") }
        return String(value)
    }

    /// A required finite number.
    func double(_ column: String) throws -> Double {
        let value = text(column)
        guard let number = Double(value), number.isFinite else {
            throw error(value.isEmpty ? "\(column) is empty" : "\(column) '\(value)' is not a number")
        }
        return number
    }

    /// An optional finite number: empty means `nil`.
    func optionalDouble(_ column: String) throws -> Double? {
        text(column).isEmpty ? nil : try double(column)
    }

    /// An optional integer: empty means `nil`.
    func optionalInt(_ column: String) throws -> Int? {
        let value = text(column)
        guard !value.isEmpty else { return nil }
        guard let number = Int(value) else { throw error("\(column) '\(value)' is not an integer") }
        return number
    }

    /// An error placed at this row.
    package func error(_ message: String) -> FormatError {
        FormatError(code: .invalidValue, file: file, line: line, message: message)
    }
}
