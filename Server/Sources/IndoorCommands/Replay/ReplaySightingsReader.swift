import Foundation
import IndoorModel

/// Reads a sightings file (CSV or JSON Lines) in chunks, a line at a time, in memory bounded by the longest line.
///
/// The start of the file is checked before anything else: a file whose first 64 KiB hold a NUL byte, or no end
/// of line, is not a sightings text file, and a CSV's header must name the required columns. A gigabyte of
/// zero bytes is refused after reading 64 KiB, not after reading the whole file. Rows are then read with the
/// same rules as ``DatasetCSV/parseSightings(_:file:)`` and ``SightingsJSONLines/parse(_:file:)``: a bad row is
/// a problem naming its line, the other rows are kept.
struct ReplaySightingsReader {
    /// The two sightings file formats.
    enum Format: Sendable {
        /// `t,device,node,rssi[,tx]`, with a header row.
        case csv
        /// One JSON sighting object per line.
        case jsonLines

        /// JSON Lines for a name ending in `.jsonl` (any case), CSV otherwise.
        init(fileName: String) {
            self = fileName.lowercased().hasSuffix(".jsonl") ? .jsonLines : .csv
        }
    }

    /// Bytes read at the start to check that the file is what it should be.
    static let headerCheckBytes = 64 * 1024
    /// A line longer than this is reported and skipped (bounds memory on a file without ends of line).
    static let maximumLineBytes = 1 << 20
    /// CSV lines parsed together (with the header in front) to reuse the dataset reader's row rules.
    static let csvBatchLines = 4096

    let file: String
    let format: Format
    private let read: () throws -> Data?
    /// Bytes read from the source and not yet split into lines.
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    private var sourceEnded = false
    /// 1-based number of the last line taken from the buffer.
    private var lineNumber = 0
    /// The CSV header line (without `\r`), once read.
    private var header: [UInt8]?
    private var sawJSONLine = false
    private var finished = false
    /// Bytes taken from the source so far.
    private(set) var bytesRead = 0

    /// A reader of `file` in `format`, taking chunks from `read` (`nil` at the end).
    ///
    /// Reads the start of the file and checks it.
    /// - Throws: ``FormatError`` for a file that is not a sightings text file, or a CSV without the required header.
    init(file: String, format: Format, read: @escaping () throws -> Data?) throws {
        self.file = file
        self.format = format
        self.read = read
        try checkStart()
    }

    /// The next rows and the problems of the lines they came from, in file order; `nil` at the end of the file.
    ///
    /// - Throws: What the source throws.
    mutating func next() throws -> Parsed<Sighting>? {
        guard !finished else { return nil }
        switch format {
        case .csv: return try nextCSV()
        case .jsonLines: return try nextJSONLines()
        }
    }

    // MARK: - Start of the file

    /// Fills the buffer with the first 64 KiB (or the whole file, when shorter) and checks it.
    private mutating func checkStart() throws {
        while buffer.count < Self.headerCheckBytes, try fill() {}
        var start = buffer.prefix(Self.headerCheckBytes)
        if start.starts(with: [0xEF, 0xBB, 0xBF]) {
            // A byte-order mark (spreadsheets and some editors write one) is not part of the first line.
            bufferStart = 3
            start = start.dropFirst(3)
        }
        let expected =
            format == .csv
            ? "a sightings CSV with the header \(DatasetCSV.sightingsHeader)"
            : "JSON Lines, one sighting object per line"
        if let nul = start.firstIndex(of: 0) {
            throw FormatError(
                code: .invalidValue, file: file, line: lineOf(offset: nul),
                message: "not a text file (byte 0x00 at offset \(nul)); expected \(expected)")
        }
        if buffer.count >= Self.headerCheckBytes, !start.contains(UInt8(ascii: "\n")) {
            throw FormatError(
                code: .invalidValue, file: file, line: 1,
                message: "no end of line in the first \(Self.headerCheckBytes / 1024) KiB; expected \(expected)")
        }
        guard format == .csv else { return }
        // The header is the first line that is not blank, as for the dataset reader.
        while let line = try nextLine() {
            guard !isBlankCSV(line.bytes) else { continue }
            // The dataset reader checks the columns (and says which is missing).
            _ = try DatasetCSV.parseSightings(String(decoding: line.bytes, as: UTF8.self), file: file)
            header = Array(line.bytes)
            return
        }
        _ = try DatasetCSV.parseSightings("", file: file)
    }

    /// The 1-based line of byte `offset` of the buffer.
    private func lineOf(offset: Int) -> Int {
        buffer[..<offset].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    // MARK: - Lines

    /// Reads one more chunk into the buffer. - Returns: whether there may be more.
    private mutating func fill() throws -> Bool {
        guard !sourceEnded else { return false }
        guard let chunk = try read(), !chunk.isEmpty else {
            sourceEnded = true
            return false
        }
        bytesRead += chunk.count
        if bufferStart > 0 && bufferStart >= buffer.count / 2 {
            buffer.removeSubrange(..<bufferStart)
            bufferStart = 0
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    /// One line of the file: its bytes without `\n` (and without a `\r` before it), or a line that was too long.
    private struct Line {
        var number: Int
        var bytes: ArraySlice<UInt8>
        var tooLong = false
    }

    /// The next line, `nil` at the end. A line longer than ``maximumLineBytes`` is skipped up to its end of line
    /// and returned empty with `tooLong` set.
    private mutating func nextLine() throws -> Line? {
        var searchFrom = bufferStart
        var skipping = false
        while true {
            if let newline = buffer[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) {
                lineNumber += 1
                defer { bufferStart = newline + 1 }
                if skipping { return Line(number: lineNumber, bytes: [], tooLong: true) }
                var bytes = buffer[bufferStart..<newline]
                if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
                return Line(number: lineNumber, bytes: bytes)
            }
            if buffer.count - bufferStart > Self.maximumLineBytes {
                // Drop what is read of the over-long line; keep looking for its end.
                skipping = true
                buffer.removeAll(keepingCapacity: true)
                bufferStart = 0
            }
            // `fill` may move the unread bytes to the front of the buffer: search on from the same unread byte.
            let scanned = buffer.count - bufferStart
            guard try fill() else {
                guard bufferStart < buffer.count || skipping else { return nil }
                lineNumber += 1
                let bytes = buffer[bufferStart...]
                bufferStart = buffer.count
                return skipping
                    ? Line(number: lineNumber, bytes: [], tooLong: true) : Line(number: lineNumber, bytes: bytes)
            }
            searchFrom = bufferStart + scanned
        }
    }

    private func tooLong(_ line: Line) -> FormatError {
        FormatError(
            code: .invalidValue, file: file, line: line.number,
            message: "line is longer than \(Self.maximumLineBytes / (1 << 20)) MiB; skipped")
    }

    private func isBlankCSV(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == UInt8(ascii: " ") }
    }

    // MARK: - Rows

    /// Up to ``csvBatchLines`` lines, read by the dataset reader behind the header, problems moved to their lines.
    private mutating func nextCSV() throws -> Parsed<Sighting>? {
        guard let header else {
            finished = true
            return nil
        }
        var text = header
        text.append(UInt8(ascii: "\n"))
        var firstLine: Int?
        var result = Parsed<Sighting>()
        var lines = 0
        while lines < Self.csvBatchLines, let line = try nextLine() {
            lines += 1
            if line.tooLong {
                // Keep the numbering of the batch: an empty line in its place.
                result.problems.append(tooLong(line))
            }
            firstLine = firstLine ?? line.number
            text.append(contentsOf: line.bytes)
            text.append(UInt8(ascii: "\n"))
        }
        guard let firstLine else {
            finished = true
            return nil
        }
        let parsed = try DatasetCSV.parseSightings(String(decoding: text, as: UTF8.self), file: file)
        result.rows = parsed.rows
        // Line 2 of the batch text is the batch's first line.
        result.problems += parsed.problems.map { problem in
            var moved = problem
            moved.line = problem.line.map { $0 - 2 + firstLine }
            return moved
        }
        result.problems.sort { ($0.line ?? 0) < ($1.line ?? 0) }
        return result
    }

    /// Up to ``csvBatchLines`` lines of JSON Lines, each decoded alone.
    private mutating func nextJSONLines() throws -> Parsed<Sighting>? {
        var result = Parsed<Sighting>()
        var lines = 0
        while lines < Self.csvBatchLines, let line = try nextLine() {
            lines += 1
            if line.tooLong {
                sawJSONLine = true
                result.problems.append(tooLong(line))
                continue
            }
            guard
                !line.bytes.allSatisfy({
                    $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t")
                })
            else { continue }
            sawJSONLine = true
            do {
                result.rows.append(
                    try JSONFormat.decode(Sighting.self, from: Data(line.bytes), file: file, line: line.number))
            } catch let error as FormatError {
                result.problems.append(error)
            } catch {
                result.problems.append(
                    FormatError(code: .invalidJSON, file: file, line: line.number, message: "\(error)"))
            }
        }
        if lines == 0 {
            finished = true
            guard !sawJSONLine else { return nil }
            // As ``SightingsJSONLines/parse(_:file:)``: a file without a line is most likely the wrong file.
            result.problems.append(
                FormatError(
                    code: .invalidJSON, file: file, line: 1,
                    message: "file is empty; expected one JSON sighting object per line"))
        }
        return result
    }
}
