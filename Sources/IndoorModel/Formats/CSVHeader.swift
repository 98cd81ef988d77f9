import Foundation

/// The header row of a CSV table of the dataset layout: where each named column is. Reads the table's data lines
/// one at a time, by the same rules as ``CSVTable/parse(_:file:required:makeRow:)`` (which uses it).
package struct CSVHeader: Hashable, Sendable {
    /// The file name, for errors.
    package let file: String
    /// Column index by name (columns without a name are left out).
    let columns: [String: Int]
    /// The number of fields every data line must have.
    let fieldCount: Int

    /// Reads the header line `line` (its bytes, without the `\n`; a `\r` before it is dropped).
    ///
    /// - Parameters:
    ///   - file: The file name, for errors.
    ///   - number: The line's 1-based number in the file.
    ///   - required: Columns the header must name.
    /// - Throws: ``FormatError`` naming `file` and `number` when the header names a column twice, or lacks one of
    ///   `required`. Columns without a name may repeat; they are ignored.
    package init(line: Substring.UTF8View, file: String, number: Int, required: [String]) throws {
        var columns: [String: Int] = [:]
        let fields = Self.fields(line)
        for (index, field) in fields.enumerated() {
            let name = field.trimmingCharacters(in: .whitespaces)
            // Two columns with one name: which one holds the value is anyone's guess.
            if !name.isEmpty, let first = columns[name] {
                throw FormatError(
                    code: .invalidValue, file: file, line: number,
                    message:
                        "header names column '\(name)' twice (columns \(first + 1) and \(index + 1)); rename or remove one"
                )
            }
            columns[name] = index
        }
        if let missing = required.first(where: { columns[$0] == nil }) {
            throw FormatError(
                code: .missingColumn, file: file, line: number,
                message: "header has no '\(missing)' column (expected \(required.joined(separator: ",")))")
        }
        self.file = file
        self.columns = columns
        self.fieldCount = fields.count
    }

    /// Reads one data line of the table (its bytes, without the `\n`; a `\r` before it is dropped).
    ///
    /// - Parameters:
    ///   - line: The line's bytes.
    ///   - number: The line's 1-based number in the file, for errors.
    ///   - makeRow: Turns the fields into a value, or throws a ``FormatError`` naming the field.
    /// - Returns: `nil` for a blank line (spaces only); the row; or the problem (the wrong number of fields, or
    ///   what `makeRow` threw), naming the file and line.
    /// - Throws: Only what `makeRow` throws that is not a ``FormatError``.
    package func row<Row>(
        _ line: Substring.UTF8View, number: Int, makeRow: (CSVRow) throws -> Row
    ) throws -> Result<Row, FormatError>? {
        guard !Self.isBlank(line) else { return nil }
        let fields = Self.fields(line)
        guard fields.count == fieldCount else {
            return .failure(
                FormatError(
                    code: .wrongFieldCount, file: file, line: number,
                    message: "expected \(fieldCount) fields, found \(fields.count)"))
        }
        do {
            return .success(try makeRow(CSVRow(fields: fields, columns: columns, file: file, line: number)))
        } catch let error as FormatError {
            return .failure(error.located(file: file, line: number))
        }
    }

    /// Whether `line` is blank: nothing but spaces (and a `\r` at its end).
    package static func isBlank(_ line: Substring.UTF8View) -> Bool {
        withoutCarriageReturn(line).allSatisfy { $0 == UInt8(ascii: " ") }
    }

    /// The fields of `line`, split on its commas (UTF-8 bytes: much faster than on Characters, and the same for
    /// this format).
    static func fields(_ line: Substring.UTF8View) -> [Substring] {
        withoutCarriageReturn(line).split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            .map { Substring($0) }
    }

    private static func withoutCarriageReturn(_ line: Substring.UTF8View) -> Substring.UTF8View {
        line.last == UInt8(ascii: "\r") ? line.dropLast() : line
    }
}
