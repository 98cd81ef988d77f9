import HTTPTypes
import Hummingbird

/// Admits a request to a group of routes only with a key of the kind the group needs, or an admin key: the
/// router puts the read, ingest and admin routes each in a group with its own authenticator.
///
/// The key is taken from `Authorization: Bearer KEY` or `X-API-Key: KEY`; `?key=KEY` only on `GET /v1/stream`
/// (`EventSource` cannot set headers), since an address ends up in logs and histories. No key, an unknown or expired
/// key is answered 401, a key of another kind or limited to other venues 403, each as an ``APIError`` naming the
/// field `Authorization`. A client address with too many refused keys is answered 429 (``FailedKeyLimiter``). The
/// accepted key is written in the request's ``RequestRecord`` (for the audit log and the handlers).
struct KeyAuthenticator: RouterMiddleware {
    typealias Context = IndoorRequestContext
    /// The keys the server accepts.
    let keys: KeyRing
    /// The kind of key the group's routes need (an admin key is always admitted).
    let required: KeyKind
    /// The count of refused keys by client address.
    let failures: FailedKeyLimiter

    /// The only route that takes `?key=`.
    static let queryKeyPath = "/v1/stream"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        try await authorize(request, context: context)
        return try await next(request, context)
    }

    /// Throws the 401, 403 or 429 ``APIError`` for a request whose key is missing, unknown, expired, of the wrong
    /// kind or limited to other venues; records the accepted key.
    func authorize(_ request: Request, context: Context) async throws {
        let address = context.clientAddress
        if let address, let wait = failures.wait(for: address) {
            throw APIError(
                status: .tooManyRequests, code: "tooManyFailures", field: "Authorization",
                message: "too many refused keys from this address: try again in \(wait) s", retryAfter: wait)
        }
        guard let key = try presentedKey(request), !key.isEmpty else {
            throw APIError(
                status: .unauthorized, code: "unauthorized", field: "Authorization",
                message: "this route needs \(neededKey): send 'Authorization: Bearer KEY'")
        }
        guard let stored = await keys.authenticate(key) else {
            if let address { failures.failed(address) }
            throw APIError(
                status: .unauthorized, code: "unauthorized", field: "Authorization",
                message: "the key is not known (or was revoked or has expired)")
        }
        if let address { failures.succeeded(address) }
        context.record.key = stored
        guard stored.kind.allows(required) else {
            throw APIError(
                status: .forbidden, code: "forbidden", field: "Authorization",
                message: "this key's kind is \(stored.kind); this route needs \(neededKey)")
        }
        if let venues = stored.venues {
            let venue = context.parameters.get("venue") ?? request.uri.queryParameters.get("venue")
            if let venue {
                try Self.check(stored, venue: venue)
            } else if !Self.checksVenueItself(request) {
                throw APIError(
                    status: .forbidden, code: "forbidden", field: "Authorization",
                    message: "this key is limited to venues \(venues.joined(separator: ", ")); this route is not "
                        + "about one venue")
            }
        }
    }

    /// Throws 403 unless `key` may be used for `venue`.
    static func check(_ key: StoredKey?, venue: String) throws {
        guard let key, !key.allows(venue: venue) else { return }
        throw APIError(
            status: .forbidden, code: "forbidden", field: "Authorization",
            message: "this key is limited to venues \((key.venues ?? []).joined(separator: ", ")); not '\(venue)'")
    }

    /// The routes without a venue in their path or query that check a venue-limited key themselves: a batch of
    /// sightings (its venue is in the body) and the venue list (which lists the key's venues only).
    static func checksVenueItself(_ request: Request) -> Bool {
        (request.method == .post && request.uri.path == "/v1/sightings")
            || (request.method == .get && request.uri.path == "/v1/venues")
    }

    /// The keys the route admits, in words: "an admin key", "a read or admin key".
    var neededKey: String { required == .admin ? "an admin key" : "a \(required) or admin key" }

    /// The key a request presents: `Authorization: Bearer KEY`, `X-API-Key: KEY`, or `?key=KEY` on `GET /v1/stream`.
    /// - Throws: 401 for `?key=` on any other route, saying to send the key in a header.
    func presentedKey(_ request: Request) throws -> String? {
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { return String(parts[1]) }
        }
        if let name = HTTPField.Name("X-API-Key"), let key = request.headers[name] { return key }
        guard let key = request.uri.queryParameters.get("key") else { return nil }
        guard request.method == .get, request.uri.path == Self.queryKeyPath else {
            throw APIError(
                status: .unauthorized, code: "keyInQuery", field: "key",
                message: "a key in the address (?key=) is taken only by GET \(Self.queryKeyPath): send it in a "
                    + "header, 'Authorization: Bearer KEY' or 'X-API-Key: KEY'")
        }
        return key
    }
}
