import Foundation

/// One kind of CSV file of the dataset layout: the header it starts with, the columns it must have, and how one
/// of its rows is read.
///
/// The same layout reads a whole text (``parse(_:file:)``) or a file a line at a time (a ``CSVHeader`` and
/// ``rowReader()``), so both give the same rows and the same problems. ``DatasetCSV`` has the layouts of
/// `nodes.csv`, `sightings.csv` and `truth.csv`.
package struct CSVLayout<Row: Sendable>: Sendable {
    /// The header row a file of this kind starts with (`t,device,node,rssi`), for messages.
    package let header: String
    /// The columns the header must name.
    package let required: [String]
    private let makeReader: @Sendable () -> (CSVRow) throws -> Row

    /// A layout whose rows are read one by one, each on its own.
    ///
    /// - Parameters:
    ///   - header: The header row, for messages.
    ///   - required: The columns the header must name.
    ///   - row: Reads one row, or throws a ``FormatError`` naming the field (see ``CSVRow/error(_:)``).
    package init(header: String, required: [String], row: @escaping @Sendable (CSVRow) throws -> Row) {
        self.init(header: header, required: required, reader: { row })
    }

    /// A layout whose rows are read with state kept across one file's rows (the ids seen so far, say).
    ///
    /// - Parameter reader: Makes the reader of one file's rows: called once per file read.
    package init(header: String, required: [String], reader: @escaping @Sendable () -> (CSVRow) throws -> Row) {
        self.header = header
        self.required = required
        self.makeReader = reader
    }

    /// A fresh reader of one file's rows, in file order.
    package func rowReader() -> (CSVRow) throws -> Row {
        makeReader()
    }

    /// Reads the whole `text` of a file called `file` (see ``CSVTable/parse(_:file:required:makeRow:)``).
    ///
    /// - Throws: ``FormatError`` when the text has no header row, or the header lacks a column or repeats one.
    package func parse(_ text: String, file: String) throws -> Parsed<Row> {
        try CSVTable.parse(text, file: file, required: required, makeRow: rowReader())
    }
}
