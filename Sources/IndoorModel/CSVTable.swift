import Foundation

/// Reads comma-separated text with a header row, as in the shared dataset layout.
public enum CSVTable {
    /// Parses `text` and turns each data row into a value with `makeRow`.
    ///
    /// Blank lines are skipped, and so is a leading byte-order mark. A row that `makeRow` rejects, or that has the wrong number of fields,
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
        // A byte-order mark (spreadsheets write one) is not part of the first column's name.
        let text = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
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
