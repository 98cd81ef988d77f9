import Foundation
import IndoorModel

/// Reads a CSV file of the dataset layout in pieces: the header first (a wrong file is refused after reading its
/// first bytes), then the rows 1 MiB at a time, so that the file's text is never held whole.
///
/// Each piece is parsed by the same ``DatasetCSV`` reader as a whole file (with the header line put in front);
/// line numbers in problems are those of the file. The rows are the same as parsing the whole text.
struct CSVFileReader {
    /// The file's name in messages (`test/sightings.csv`).
    let name: String
    /// Where the file is.
    let url: URL
    /// The header the file should start with (`t,device,node,rssi`), for messages.
    let expectedHeader: String

    /// Bytes read at a time.
    static let chunkSize = 1 << 20
    /// The longest header line looked for (a file with no line end in its first 64 KiB is not a dataset CSV).
    static let headerLimit = 1 << 16
    /// The longest data line accepted: a line longer than this is not a row of the dataset layout.
    static let lineLimit = 1 << 24

    /// The rows of the file, or the first problem (saying how many more rows are bad).
    ///
    /// - Parameter parse: the ``DatasetCSV`` reader of this kind of file, given the text and ``name``.
    /// - Throws: ``FormatError`` naming the file: not a file (a folder), missing, not text or a wrong header
    ///   (after reading at most 64 KiB), a line over 16 MiB, or the first bad row.
    /// - Complexity: O(file size) time; memory O(rows) plus about 1 MiB of text.
    func rows<Row>(_ parse: (String, String) throws -> Parsed<Row>) throws -> [Row] {
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
        defer { try? handle.close() }

        // The first 64 KiB (or the whole file, when shorter); a read may return fewer bytes than asked.
        var pending = Data()
        var atEnd = false
        while !atEnd, pending.count < Self.headerLimit {
            let piece = try read(handle, upTo: Self.headerLimit - pending.count)
            atEnd = piece.isEmpty
            pending.append(piece)
        }
        // A byte-order mark (spreadsheets write one) is not part of the header.
        if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending = Data(pending.dropFirst(3)) }
        // The header is the first line that is not blank, as for a whole file.
        var linesBefore = 0
        var header = Data()
        while true {
            let end = pending.firstIndex(of: UInt8(ascii: "\n"))
            if end == nil, !atEnd {
                throw headerProblem(pending.prefix(64), line: linesBefore + 1, why: "no line end in its first 64 KiB")
            }
            let line = pending[pending.startIndex..<(end ?? pending.endIndex)]
            linesBefore += 1
            pending = end.map { Data(pending[($0 + 1)...]) } ?? Data()
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }), end != nil { continue }
            header = Data(line)
            break
        }
        if header.contains(0) || String(data: header, encoding: .utf8) == nil {
            throw headerProblem(header.prefix(64), line: linesBefore, why: "it is not text")
        }
        let headerText = String(decoding: header, as: UTF8.self)
        // Checks the header's columns now, before reading further (throws missingColumn naming the file).
        do {
            _ = try parse(headerText + "\n", name)
        } catch var error as FormatError {
            error.line = linesBefore
            throw error
        }

        var rows: [Row] = []
        var firstProblem: FormatError?
        var problems = 0
        while true {
            if !atEnd {
                let chunk = try read(handle, upTo: Self.chunkSize)
                atEnd = chunk.isEmpty
                pending.append(chunk)
            }
            // Whole lines only; the rest waits for the next piece (or is the last line, at the end).
            let cut = atEnd ? pending.endIndex : (pending.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 })
            guard let cut else {
                if pending.count > Self.lineLimit {
                    throw FormatError(
                        code: .invalidValue, file: name, line: linesBefore + 1,
                        message: "line is longer than 16 MiB: not a row of \(expectedHeader)")
                }
                continue
            }
            let piece = pending[pending.startIndex..<cut]
            if !piece.isEmpty {
                let parsed = try parse(headerText + "\n" + String(decoding: piece, as: UTF8.self), name)
                rows.append(contentsOf: parsed.rows)
                if firstProblem == nil, var first = parsed.problems.first {
                    first.line = first.line.map { $0 - 1 + linesBefore }
                    firstProblem = first
                }
                problems += parsed.problems.count
                linesBefore += piece.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            }
            pending = Data(pending[cut...])
            if atEnd { break }
        }
        if var first = firstProblem {
            let more = problems - 1
            if more > 0 { first.message += " (and \(more) more bad row\(more == 1 ? "" : "s") in this file)" }
            throw first
        }
        return rows
    }

    private func read(_ handle: FileHandle, upTo count: Int) throws -> Data {
        do {
            return try handle.read(upToCount: count) ?? Data()
        } catch {
            throw FormatError(code: .missingFile, file: name, message: "cannot read '\(url.path)': \(error)")
        }
    }

    /// `'PATH' does not start with the header …: <why>`.
    private func headerProblem(_ start: Data, line: Int, why: String) -> FormatError {
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
