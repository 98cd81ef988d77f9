import Foundation
import IndoorModel

/// Opens a CSV file of the dataset layout: checks the header first (a wrong file is refused after reading its
/// first bytes), then hands out the rows one at a time (``CSVRowStream``), reading the file 1 MiB at a time, so
/// that the file's text is never held whole.
///
/// Each line is read by the same ``CSVLayout`` (``DatasetCSV``) as a whole file; line numbers in problems are
/// those of the file. The rows are the same as parsing the whole text.
struct CSVFileReader {
    /// The file's name in messages (`test/sightings.csv`).
    let name: String
    /// Where the file is.
    let url: URL

    /// Bytes read at a time.
    static let chunkSize = 1 << 20
    /// The longest header line looked for (a file with no line end in its first 64 KiB is not a dataset CSV).
    static let headerLimit = 1 << 16
    /// The longest data line accepted: a line longer than this is not a row of the dataset layout.
    static let lineLimit = 1 << 24

    /// The rows of the file, or the first problem (saying how many more rows are bad).
    ///
    /// - Parameter layout: The kind of file (``DatasetCSV/sightingsLayout``, say).
    /// - Throws: ``FormatError`` naming the file, as ``stream(_:)`` and ``CSVRowStream/next()`` do.
    /// - Complexity: O(file size) time; memory O(rows) plus about 1 MiB of text.
    func rows<Row>(_ layout: CSVLayout<Row>) throws -> [Row] {
        var stream = try stream(layout)
        return try stream.readAll()
    }

    /// The file opened for reading its rows one at a time, its header checked.
    ///
    /// - Parameter layout: The kind of file (``DatasetCSV/sightingsLayout``, say).
    /// - Throws: ``FormatError`` naming the file: not a file (a folder), missing, not text or a wrong header
    ///   (after reading at most 64 KiB).
    func stream<Row>(_ layout: CSVLayout<Row>) throws -> CSVRowStream<Row> {
        let expectedHeader = layout.header
        switch Self.kind(url) {
        case nil: throw FormatError(code: .missingFile, message: "missing file '\(url.path)'")
        case .some(true):
            throw FormatError(
                code: .missingFile, file: name,
                message: "'\(url.path)' is a folder; expected a CSV file starting with the header \(expectedHeader)")
        case .some(false): break
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw FormatError(code: .missingFile, file: name, message: "cannot read '\(url.path)': \(error)")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil

        // The first 64 KiB (or the whole file, when shorter); a read may return fewer bytes than asked.
        var pending = Data()
        var atEnd = false
        do {
            while !atEnd, pending.count < Self.headerLimit {
                let piece = try read(handle, upTo: Self.headerLimit - pending.count)
                atEnd = piece.isEmpty
                pending.append(piece)
            }
        } catch {
            try? handle.close()
            throw error
        }
        let bytesRead = pending.count
        // A byte-order mark (spreadsheets write one) is not part of the header.
        if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending = Data(pending.dropFirst(3)) }
        // The header is the first line that is not blank, as for a whole file.
        var linesBefore = 0
        var header = Data()
        while true {
            let end = pending.firstIndex(of: UInt8(ascii: "\n"))
            if end == nil, !atEnd {
                try? handle.close()
                throw headerProblem(
                    pending.prefix(64), line: linesBefore + 1, why: "no line end in its first 64 KiB",
                    expectedHeader: expectedHeader)
            }
            let line = pending[pending.startIndex..<(end ?? pending.endIndex)]
            linesBefore += 1
            pending = end.map { Data(pending[($0 + 1)...]) } ?? Data()
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }), end != nil { continue }
            header = Data(line)
            break
        }
        if header.contains(0) || String(data: header, encoding: .utf8) == nil {
            try? handle.close()
            throw headerProblem(
                header.prefix(64), line: linesBefore, why: "it is not text", expectedHeader: expectedHeader)
        }
        // Checks the header's columns now, before reading further (throws missingColumn naming the file).
        let checked: CSVHeader
        do {
            let text = String(decoding: header, as: UTF8.self)[...]
            if CSVHeader.isBlank(text.utf8) {
                // A file of blank lines: as for a whole file, it has no header row.
                _ = try layout.parse("", file: name)
            }
            checked = try CSVHeader(line: text.utf8, file: name, number: linesBefore, required: layout.required)
        } catch var error as FormatError {
            try? handle.close()
            error.line = linesBefore
            throw error
        }
        return CSVRowStream(
            file: name, url: url, handle: handle, header: checked, expectedHeader: expectedHeader,
            makeRow: layout.rowReader(), pending: pending, atEnd: atEnd, linesRead: linesBefore, bytesRead: bytesRead,
            size: size)
    }

    private func read(_ handle: FileHandle, upTo count: Int) throws -> Data {
        try Self.read(handle, upTo: count, name: name, url: url)
    }

    /// Up to `count` bytes of `handle` (none at the end of the file).
    ///
    /// - Throws: ``FormatError`` naming the file `name` at `url` when the read fails.
    static func read(_ handle: FileHandle, upTo count: Int, name: String, url: URL) throws -> Data {
        do {
            return try handle.read(upToCount: count) ?? Data()
        } catch {
            throw FormatError(code: .missingFile, file: name, message: "cannot read '\(url.path)': \(error)")
        }
    }

    /// `'PATH' does not start with the header …: <why>`.
    private func headerProblem(_ start: Data, line: Int, why: String, expectedHeader: String) -> FormatError {
        FormatError(
            code: .missingColumn, file: name, line: line,
            message:
                "'\(url.path)' is not a CSV file of this layout (\(why)); expected the header row \(expectedHeader)"
                + (start.allSatisfy { $0 == 0 } && !start.isEmpty ? " (the file starts with zero bytes)" : ""))
    }

    /// Whether `url` is a folder (true), a file (false), or nothing (nil), links followed.
    static func kind(_ url: URL) -> Bool? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue
    }
}
