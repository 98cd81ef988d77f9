import Foundation
import IndoorArchive
import IndoorModel

/// The body of `PUT /v1/venues/{id}/survey`: a dataset folder's `train/` (datasets/FORMAT.md), either as a zip
/// (`Content-Type: application/zip`; `train/sightings.csv` and `train/truth.csv`, under one top folder or none, or the
/// two files at its root) or as `multipart/form-data` with two parts named `sightings` and `truth` (or whose file
/// names end in `sightings.csv` and `truth.csv`).
enum SurveyUpload {
    /// The largest body taken, bytes (a survey of hours is tens of megabytes of CSV).
    static let maximumBytes = 64 << 20

    /// The survey in `body`, whose type is `contentType`.
    /// - Throws: ``APIError`` 400 naming the field: `Content-Type` for another type, `body` for a zip or form that
    ///   does not read or lacks a file, `sightings` or `truth` for a file with a bad row (its line).
    static func survey(body: Data, contentType: String?) throws -> Recording {
        let media = contentType?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        let files: (sightings: Data, truth: Data)
        if let media, IMDFArchive.mediaTypes.contains(media) {
            files = try zipFiles(body)
        } else if media == "multipart/form-data", let contentType, let boundary = boundary(of: contentType) {
            files = try formFiles(body, boundary: boundary)
        } else {
            throw APIError.badRequest(
                field: "Content-Type",
                "send the dataset's train/ as a zip (Content-Type: application/zip) or as multipart/form-data with "
                    + "the parts sightings and truth")
        }
        let sightings = try parse(files.sightings, file: "sightings.csv", field: "sightings") {
            try DatasetCSV.parseSightings($0, file: $1)
        }
        let truth = try parse(files.truth, file: "truth.csv", field: "truth") {
            try DatasetCSV.parseTruth($0, file: $1)
        }
        return Recording(sightings: sightings, truth: truth)
    }

    /// The rows of `data`, read by `read`; the first bad row is the error.
    private static func parse<Row>(
        _ data: Data, file: String, field: String, _ read: (String, String) throws -> Parsed<Row>
    ) throws -> [Row] {
        guard let text = String(data: data, encoding: .utf8) else {
            throw APIError.badRequest(field: field, "\(file) is not UTF-8 text")
        }
        do {
            return try read(text, file).get()
        } catch {
            throw APIError.badRequest(field: field, "\(error)")
        }
    }

    /// `train/sightings.csv` and `train/truth.csv` of the zip `data`.
    private static func zipFiles(_ data: Data) throws -> (sightings: Data, truth: Data) {
        let archive: ZipArchive
        do {
            archive = try ZipArchive(data)
        } catch {
            throw APIError.badRequest(field: "body", "the zip does not read: \(error)")
        }
        func file(_ name: String) throws -> Data {
            let paths = archive.files.keys.sorted()
            let found =
                paths.first { $0 == "train/\(name)" } ?? paths.first { $0.hasSuffix("/train/\(name)") }
                ?? paths.first { $0 == name }
            guard let found, let data = archive.files[found] else {
                throw APIError.badRequest(
                    field: "body", "the zip has no train/\(name) (a dataset folder's layout, datasets/FORMAT.md)")
            }
            return data
        }
        return (try file("sightings.csv"), try file("truth.csv"))
    }

    /// The `boundary` parameter of a `multipart/form-data` type.
    static func boundary(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The parts `sightings` and `truth` of the form `data`.
    private static func formFiles(_ data: Data, boundary: String) throws -> (sightings: Data, truth: Data) {
        var sightings: Data?
        var truth: Data?
        for part in try parts(data, boundary: boundary) {
            if part.name == "sightings" || part.filename?.hasSuffix("sightings.csv") == true {
                sightings = part.body
            } else if part.name == "truth" || part.filename?.hasSuffix("truth.csv") == true {
                truth = part.body
            }
        }
        guard let sightings else {
            throw APIError.badRequest(field: "body", "the form has no part sightings (train/sightings.csv)")
        }
        guard let truth else {
            throw APIError.badRequest(field: "body", "the form has no part truth (train/truth.csv)")
        }
        return (sightings, truth)
    }

    /// One part of a form: its name and file name, and its bytes.
    struct Part: Hashable, Sendable {
        var name: String?
        var filename: String?
        var body: Data
    }

    /// The parts of the `multipart/form-data` body `data` (RFC 7578).
    /// - Throws: ``APIError`` 400 (`body`) when the boundary is not found or a part has no header end.
    static func parts(_ data: Data, boundary: String) throws -> [Part] {
        let bytes = [UInt8](data)
        let delimiter = [UInt8]("--\(boundary)".utf8)
        let separator = [UInt8]("\r\n\r\n".utf8)
        guard var start = find(delimiter, in: bytes, from: 0) else {
            throw APIError.badRequest(field: "body", "the form's boundary '\(boundary)' is not in the body")
        }
        var parts: [Part] = []
        while true {
            let afterDelimiter = start + delimiter.count
            // `--` after the delimiter closes the form.
            if afterDelimiter + 1 < bytes.count, bytes[afterDelimiter] == 0x2D, bytes[afterDelimiter + 1] == 0x2D {
                break
            }
            guard let headerEnd = find(separator, in: bytes, from: afterDelimiter) else {
                throw APIError.badRequest(field: "body", "a part of the form has no end of its headers")
            }
            guard let next = find([0x0D, 0x0A] + delimiter, in: bytes, from: headerEnd + separator.count) else {
                throw APIError.badRequest(field: "body", "the form's last part is not closed by its boundary")
            }
            let headers = String(decoding: bytes[afterDelimiter..<headerEnd], as: UTF8.self)
            var part = Part(body: Data(bytes[(headerEnd + separator.count)..<next]))
            for line in headers.split(whereSeparator: \.isNewline)
            where line.lowercased().hasPrefix("content-disposition:") {
                part.name = parameter("name", in: String(line))
                part.filename = parameter("filename", in: String(line))
            }
            parts.append(part)
            start = next + 2
        }
        return parts
    }

    /// The value of `name="…"` in a `Content-Disposition` line.
    private static func parameter(_ name: String, in line: String) -> String? {
        for piece in line.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }

    /// The first index at or after `from` where `needle` starts in `haystack`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, from <= haystack.count - needle.count else {
            return nil
        }
        var index = from
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
