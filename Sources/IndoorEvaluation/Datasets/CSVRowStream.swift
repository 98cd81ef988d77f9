import Foundation
import IndoorModel

/// The rows of one CSV file of the dataset layout, read and parsed one at a time, in file order.
///
/// Made by ``DatasetReader`` (``DatasetReader/sightings(folder:split:)``, ``DatasetReader/truth(folder:split:)``)
/// once the file's header has been checked. The file is read 1 MiB at a time and each line is read by the same
/// ``CSVLayout`` as a whole file (``DatasetCSV``), so the rows, and the problems, are those of
/// ``DatasetReader/read(folder:includeSurvey:)``: a bad row stops the stream with a ``FormatError`` naming the file,
/// the line and the field, after the rest of the file has been read to count the other bad rows, as the whole-file
/// reader says them. Memory stays about 3 MiB however long the file, plus the row handed out.
///
/// A stream is an iterator with a throwing ``next()`` (a `Sequence` cannot throw). It owns an open file: a copy
/// reads on from the same place in the file, so keep one and pass it `inout`.
public struct CSVRowStream<Row> {
    /// The file's name in messages (`test/sightings.csv`).
    public let file: String
    /// The 1-based line number of the row ``next()`` returned last (0 before the first).
    public private(set) var line = 0
    /// Bytes of the file read so far.
    public private(set) var bytesRead: Int
    /// The file's size in bytes when it was opened, `nil` when unknown.
    public let size: Int?

    private let url: URL
    private let handle: FileHandle
    private let header: CSVHeader
    /// The header the file should start with (`t,device,node,rssi`), for messages.
    private let expectedHeader: String
    private let makeRow: (CSVRow) throws -> Row
    /// The whole lines being handed out, and where the next one starts.
    private var text = ""
    private var position: String.Index
    /// Bytes read after ``text``: the start of a line whose end has not been read yet.
    private var carry: [UInt8]
    private var atEnd: Bool
    private var closed = false
    /// Lines taken so far, the header and the lines before it included.
    private var linesRead: Int

    init(
        file: String, url: URL, handle: FileHandle, header: CSVHeader, expectedHeader: String,
        makeRow: @escaping (CSVRow) throws -> Row, pending: Data, atEnd: Bool, linesRead: Int, bytesRead: Int,
        size: Int?
    ) {
        self.file = file
        self.url = url
        self.handle = handle
        self.header = header
        self.expectedHeader = expectedHeader
        self.makeRow = makeRow
        self.carry = Array(pending)
        self.atEnd = atEnd
        self.linesRead = linesRead
        self.bytesRead = bytesRead
        self.size = size
        self.position = text.utf8.startIndex
    }

    /// The next row, or `nil` at the end of the file.
    ///
    /// - Throws: ``FormatError`` naming the file, the line and the field of the first bad row (its message ends
    ///   `(and N more bad rows in this file)` when there are more, as the whole-file reader's does), a line longer
    ///   than 16 MiB, or a failed read. After a throw the stream is at its end.
    /// - Complexity: O(line length), amortised; one read of 1 MiB every few thousand rows.
    public mutating func next() throws -> Row? {
        while true {
            while let line = nextLine() {
                switch try header.row(line, number: linesRead, makeRow: makeRow) {
                case nil: continue
                case .success(let row):
                    self.line = linesRead
                    return row
                case .failure(let problem): throw try counted(problem)
                }
            }
            guard try readPiece() else { return nil }
        }
    }

    /// Every row left, in file order.
    ///
    /// - Throws: As ``next()``.
    /// - Complexity: Memory O(rows).
    public mutating func readAll() throws -> [Row] {
        var rows: [Row] = []
        while let row = try next() { rows.append(row) }
        return rows
    }

    /// The next line of ``text`` (without its `\n`), `nil` when it is used up.
    private mutating func nextLine() -> Substring.UTF8View? {
        let utf8 = text.utf8
        guard position < utf8.endIndex else { return nil }
        let end = utf8[position...].firstIndex(of: UInt8(ascii: "\n")) ?? utf8.endIndex
        let line = utf8[position..<end]
        position = end == utf8.endIndex ? end : utf8.index(after: end)
        linesRead += 1
        return line
    }

    /// Reads on until ``text`` holds whole lines again (all that is left, at the end of the file).
    ///
    /// - Returns: `false` at the end of the file, once every line has been handed out.
    private mutating func readPiece() throws -> Bool {
        while true {
            if !atEnd {
                let chunk = try CSVFileReader.read(handle, upTo: CSVFileReader.chunkSize, name: file, url: url)
                atEnd = chunk.isEmpty
                bytesRead += chunk.count
                carry.append(contentsOf: chunk)
            }
            if atEnd {
                guard !carry.isEmpty else {
                    close()
                    return false
                }
                // The last line has no line end.
                take(carry.endIndex)
                return true
            }
            // Whole lines only; the rest waits for the next piece.
            if let newline = carry.lastIndex(of: UInt8(ascii: "\n")) {
                take(newline + 1)
                return true
            }
            if carry.count > CSVFileReader.lineLimit {
                atEnd = true
                carry = []
                close()
                throw FormatError(
                    code: .invalidValue, file: file, line: linesRead + 1,
                    message: "line is longer than 16 MiB: not a row of \(expectedHeader)")
            }
        }
    }

    /// Closes the file, once.
    private mutating func close() {
        guard !closed else { return }
        closed = true
        try? handle.close()
    }

    /// Moves the bytes of ``carry`` before `cut` into ``text``.
    private mutating func take(_ cut: Int) {
        text = String(decoding: carry[..<cut], as: UTF8.self)
        position = text.utf8.startIndex
        carry.removeSubrange(..<cut)
    }

    /// `problem`, once the rest of the file has been read: with the number of bad rows after it.
    private mutating func counted(_ problem: FormatError) throws -> FormatError {
        var more = 0
        while true {
            while let line = nextLine() {
                if case .failure = try header.row(line, number: linesRead, makeRow: makeRow) { more += 1 }
            }
            guard try readPiece() else { break }
        }
        var problem = problem
        if more > 0 { problem.message += " (and \(more) more bad row\(more == 1 ? "" : "s") in this file)" }
        return problem
    }
}
