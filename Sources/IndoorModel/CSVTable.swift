import Foundation

/// Reads comma-separated text with a header row, as in the shared dataset layout.
public enum CSVTable {
    /// Parses `text` and turns each data row into a value with `makeRow`.
    ///
    /// Lines end in `\n` or `\r\n`. Blank lines are skipped, and so is a leading byte-order mark. A row that
    /// `makeRow` rejects, or that has the wrong number of fields, becomes a problem; the other rows are kept.
    /// - Throws: ``FormatError`` when the file has no header row, or the header lacks one of `required` columns
    ///   or names a column twice (nothing can be read). Columns without a name may repeat; they are ignored.
    public static func parse<Row: Sendable>(
        _ text: String, file: String, required: [String], makeRow: (CSVRow) throws -> Row
    ) throws -> Parsed<Row> {
        var result = Parsed<Row>()
        var columns: [String: Int] = [:]
        var headerCount = 0
        var lineNumber = 0
        var sawHeader = false
        // A byte-order mark (spreadsheets write one) is not part of the first column's name.
        let text = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
        // Lines and fields are split on their UTF-8 bytes (`\n`, `,`): much faster than on Characters, and the
        // same for this format (a `\r` before the `\n` is dropped).
        let newline = UInt8(ascii: "\n")
        let comma = UInt8(ascii: ",")
        let carriageReturn = UInt8(ascii: "\r")
        for rawLine in text.utf8.split(separator: newline, omittingEmptySubsequences: false) {
            lineNumber += 1
            let bytes = rawLine.last == carriageReturn ? rawLine.dropLast() : rawLine
            if bytes.allSatisfy({ $0 == UInt8(ascii: " ") }) { continue }
            let fields = bytes.split(separator: comma, omittingEmptySubsequences: false).map { Substring($0) }
            if !sawHeader {
                sawHeader = true
                headerCount = fields.count
                for (index, field) in fields.enumerated() {
                    let name = field.trimmingCharacters(in: .whitespaces)
                    // Two columns with one name: which one holds the value is anyone's guess.
                    if !name.isEmpty, let first = columns[name] {
                        throw FormatError(
                            code: .invalidValue, file: file, line: lineNumber,
                            message:
                                "header names column '\(name)' twice (columns \(first + 1) and \(index + 1)); rename or remove one"
                        )
                    }
                    columns[name] = index
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
