import HTTPTypes
import Hummingbird

/// Admits a request to a group of routes only with a key of the kind the group needs, or an admin key: the
/// router puts the read, ingest and admin routes each in a group with its own authenticator.
///
/// The key is taken from `Authorization: Bearer KEY`, `X-API-Key: KEY` or `?key=KEY` (for the map and
/// `EventSource`, which cannot set headers). No key or an unknown key is answered 401, a key of another kind 403,
/// each as an ``APIError`` naming the field `Authorization`.
struct KeyAuthenticator<Context: RequestContext>: RouterMiddleware {
    /// The keys the server accepts.
    let keys: KeyRing
    /// The kind of key the group's routes need (an admin key is always admitted).
    let required: KeyKind

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        try authorize(request)
        return try await next(request, context)
    }

    /// Throws the 401 or 403 ``APIError`` for a request whose key is missing, unknown or of the wrong kind.
    func authorize(_ request: Request) throws {
        guard let key = Self.presentedKey(request), !key.isEmpty else {
            throw APIError(
                status: .unauthorized, code: "unauthorized", field: "Authorization",
                message: "this route needs \(neededKey): send 'Authorization: Bearer KEY'")
        }
        guard let kind = keys.kind(of: key) else {
            throw APIError(
                status: .unauthorized, code: "unauthorized", field: "Authorization", message: "the key is not known")
        }
        guard kind.allows(required) else {
            throw APIError(
                status: .forbidden, code: "forbidden", field: "Authorization",
                message: "this key's kind is \(kind); this route needs \(neededKey)")
        }
    }

    /// The keys the route admits, in words: "an admin key", "a read or admin key".
    var neededKey: String { required == .admin ? "an admin key" : "a \(required) or admin key" }

    /// The key a request presents: `Authorization: Bearer KEY`, `X-API-Key: KEY` or `?key=KEY`.
    static func presentedKey(_ request: Request) -> String? {
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { return String(parts[1]) }
        }
        if let name = HTTPField.Name("X-API-Key"), let key = request.headers[name] { return key }
        return request.uri.queryParameters.get("key")
    }
}
