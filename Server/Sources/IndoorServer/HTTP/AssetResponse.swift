import Hummingbird
import NIOCore

/// A file the server serves from its binary (the map, the OpenAPI document) or a text it makes (`/metrics`): `text` of
/// media type `type`, never cached without asking again (`Cache-Control: no-cache`).
struct AssetResponse: ResponseGenerator {
    /// The body.
    var text: String
    /// The `Content-Type`.
    var type: String

    /// An answer of `text` of media type `type`.
    init(_ text: String, type: String) {
        self.text = text
        self.type = type
    }

    func response(from request: Request, context: some RequestContext) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
