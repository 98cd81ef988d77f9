import Foundation
import Hummingbird
import NIOCore

/// An answer of bytes as they are: `Content-Type` says what they are, `headers` add to it (in their order).
struct BytesResponse: ResponseGenerator {
    /// The body.
    var data: Data
    /// The `Content-Type`.
    var type: String
    var status: HTTPResponse.Status
    /// Further header fields, after `Content-Type`.
    var headers: HTTPFields

    /// An answer of `data`, of media type `type`, with `status` and `headers`.
    init(_ data: Data, type: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) {
        self.data = data
        self.type = type
        self.status = status
        self.headers = headers
    }

    func response(from request: Request, context: some RequestContext) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = type
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
