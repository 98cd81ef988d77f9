import Foundation
import Hummingbird

/// An error answered as JSON: the HTTP status, a stable code, the field that was wrong and a message saying how
/// to fix it, e.g. `{"code":"invalidValue","field":"sightings[3].rssi","message":"…","status":400}`.
public struct APIError: Error, Hashable, Sendable, HTTPResponseError {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable name of the kind of problem (`invalidJSON`, `notFound`, `unauthorized`, …).
    public var code: String
    /// The field (JSON path, parameter or header) that was wrong, when there is one.
    public var field: String?
    /// What was wrong and how to fix it.
    public var message: String
    /// Seconds after which to try again (the `Retry-After` header), for a 503.
    public var retryAfter: Int?

    /// An error answered with `status`.
    public init(status: HTTPResponse.Status, code: String, field: String?, message: String, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.field = field
        self.message = message
        self.retryAfter = retryAfter
    }

    /// 503: the request cannot be served now; try again after `retryAfter` seconds.
    public static func unavailable(field: String?, _ message: String, retryAfter: Int) -> APIError {
        APIError(
            status: .serviceUnavailable, code: "unavailable", field: field, message: message, retryAfter: retryAfter)
    }

    /// 400: a field of the request is not valid.
    public static func badRequest(field: String, _ message: String, code: String = "invalidValue") -> APIError {
        APIError(status: .badRequest, code: code, field: field, message: message)
    }

    /// 404: what the request names does not exist.
    public static func notFound(field: String, _ message: String) -> APIError {
        APIError(status: .notFound, code: "notFound", field: field, message: message)
    }

    /// 404 for a venue id that names no venue, naming `field` (the path's `venue`, or a body's or query's).
    static func unknownVenue(_ id: String, field: String = "venue") -> APIError {
        notFound(field: field, "venue '\(id)' does not exist")
    }

    /// 413: the request is larger than the server takes.
    public static func tooLarge(field: String, _ message: String) -> APIError {
        APIError(status: .contentTooLarge, code: "tooLarge", field: field, message: message)
    }

    /// The JSON body of the error.
    struct Body: Codable {
        var status: Int
        var code: String
        var field: String?
        var message: String
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(status: status.code, code: code, field: field, message: message)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer realm=\"indoor\"" }
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        let data = try JSONEncoder.sorted.encode(body)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension JSONEncoder {
    /// Sorted keys, no escaped slashes: the same bytes for the same value.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
