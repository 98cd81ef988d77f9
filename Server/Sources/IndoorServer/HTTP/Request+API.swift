import Foundation
import Hummingbird
import IndoorArchive
import NIOCore

extension Request {
    /// The body, up to `limit` bytes.
    /// - Throws: ``APIError`` (413, field `body`) beyond the limit, saying it.
    func bodyBytes(limit: Int) async throws -> ByteBuffer {
        var request = self
        do {
            return try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge(field: "body", "the body is larger than the limit of \(limit) bytes")
        }
    }

    /// The query parameter `name` as a number, `nil` when absent.
    /// - Throws: ``APIError`` (400, field `name`) when it is not a finite number.
    func number(_ name: String) throws -> Double? {
        guard let text = uri.queryParameters.get(name) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw APIError.badRequest(field: name, "\(name) '\(text)' is not a finite number")
        }
        return value
    }

    /// Whether the `Content-Type` is a zip archive's (``IndoorArchive/IMDFArchive/mediaTypes``).
    var isZip: Bool {
        guard let type = headers[.contentType] else { return false }
        let media = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return media.map { IMDFArchive.mediaTypes.contains($0) } ?? false
    }
}
