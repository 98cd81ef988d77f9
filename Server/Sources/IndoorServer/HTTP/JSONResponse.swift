import Foundation
import Hummingbird
import IndoorModel

/// A JSON answer: `value` encoded as the API encodes every document (``JSONFormat/encoder(pretty:)``), with `status`
/// and `Content-Type: application/json`.
struct JSONResponse<Value: Encodable>: ResponseGenerator {
    /// What the body encodes.
    var value: Value
    var status: HTTPResponse.Status

    /// An answer of `value` with `status`.
    init(_ value: Value, status: HTTPResponse.Status = .ok) {
        self.value = value
        self.status = status
    }

    /// - Throws: The encoder's error (a number that is not finite).
    func response(from request: Request, context: some RequestContext) throws -> Response {
        try BytesResponse(JSONFormat.encoder().encode(value), type: "application/json", status: status)
            .response(from: request, context: context)
    }
}

extension JSONResponse: Sendable where Value: Sendable {}
