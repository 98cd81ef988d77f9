import Foundation

/// Reads comma-separated text with a header row, as in the shared dataset layout.
enum CSVTable {
    /// Parses `text` and turns each data row into a value with `makeRow`.
    ///
    /// Lines end in `\n` or `\r\n`. Blank lines are skipped, and so is a leading byte-order mark. A row that
    /// `makeRow` rejects, or that has the wrong number of fields, becomes a problem; the other rows are kept.
    /// The header and each line are read by ``CSVHeader``, as a file read a line at a time is.
    /// - Throws: ``FormatError`` when the file has no header row, or the header lacks one of `required` columns
    ///   or names a column twice (nothing can be read). Columns without a name may repeat; they are ignored.
    static func parse<Row: Sendable>(
        _ text: String, file: String, required: [String], makeRow: (CSVRow) throws -> Row
    ) throws -> Parsed<Row> {
        var result = Parsed<Row>()
        var header: CSVHeader?
        var lineNumber = 0
        // A byte-order mark (spreadsheets write one) is not part of the first column's name.
        let text = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            guard let header else {
                if !CSVHeader.isBlank(line) {
                    header = try CSVHeader(line: line, file: file, number: lineNumber, required: required)
                }
                continue
            }
            switch try header.row(line, number: lineNumber, makeRow: makeRow) {
            case nil: continue
            case .success(let row): result.rows.append(row)
            case .failure(let problem): result.problems.append(problem)
            }
        }
        if header == nil {
            throw FormatError(
                code: .missingColumn, file: file, line: 1,
                message: "file is empty; expected a header row \(required.joined(separator: ","))")
        }
        return result
    }
}
