import Foundation
import Hummingbird
import IndoorModel

/// The admin routes beyond venues, with an admin key: keys (`POST /v1/keys` makes one, `GET /v1/keys` lists them,
/// `DELETE /v1/keys/{id}` revokes one) and the audit log (`GET /v1/audit`).
struct AdminRoutes: RouteArea {
    let server: LocationServer

    /// The longest `expiresIn`, seconds (ten years).
    static let maximumExpiresIn: Double = 10 * 365 * 86400
    /// The most entries of one `GET /v1/audit` page.
    static let maximumAuditLimit = 1000

    struct NewKeyRequest: Decodable {
        var kind: KeyKind
        var label: String?
        /// Seconds until the key expires; none: never.
        var expiresIn: Double?
        /// The venues the key is limited to; none: every venue.
        var venues: [String]?
    }

    struct NewKeyResponse: Encodable {
        var key: String
        var id: String
        var kind: KeyKind
        var label: String
        var expires: Double?
        var venues: [String]?
    }

    /// A key as listed: never the key or its hash.
    struct KeyInfo: Encodable {
        var id: String
        var kind: KeyKind
        var label: String
        var origin: KeyOrigin
        var created: Double
        var lastUsed: Double?
        var expires: Double?
        var expired: Bool
        var venues: [String]?

        init(_ key: StoredKey, now: Double) {
            id = key.id
            kind = key.kind
            label = key.label
            origin = key.origin
            created = key.created
            lastUsed = key.lastUsed
            expires = key.expires
            expired = key.isExpired(at: now)
            venues = key.venues
        }
    }

    struct KeyList: Encodable {
        var keys: [KeyInfo]
    }

    struct AuditPage: Encodable {
        var entries: [AuditEntry]
        /// The `before` of the next page, when there may be more.
        var nextBefore: Int64?
    }

    /// The routes, behind an admin key.
    func collection() -> RouteCollection<IndoorRequestContext> {
        let routes = RouteCollection(context: IndoorRequestContext.self)
        let admin = group(of: routes, needing: .admin)
        admin.post("/v1/keys") { request, _ in try await newKey(request) }
        admin.get("/v1/keys") { _, _ in try await listKeys() }
        admin.delete("/v1/keys/{id}") { _, context in try await revokeKey(context.parameters.require("id")) }
        admin.get("/v1/audit") { request, _ in try await audit(request) }
        return routes
    }

    /// `POST /v1/keys`: a new key of the kind asked for, with its label (the kind's name when none is given), its
    /// expiry (`expiresIn` seconds from now) and the venues it is limited to, when given.
    func newKey(_ request: Request) async throws -> JSONResponse<NewKeyResponse> {
        let body = try await request.bodyBytes(limit: configuration.maxBodyBytes)
        let wanted: NewKeyRequest
        do {
            wanted = try JSONDecoder().decode(NewKeyRequest.self, from: Data(buffer: body))
        } catch let error as DecodingError {
            throw APIError.badRequest(
                field: "kind",
                "expected {\"kind\": \"admin\" | \"ingest\" | \"read\", \"label\"?, \"expiresIn\"?: seconds, "
                    + "\"venues\"?: [ids]}: \(JSONFormat.describe(error))",
                code: "invalidJSON")
        }
        var expires: Double?
        if let seconds = wanted.expiresIn {
            guard seconds.isFinite, seconds >= 1, seconds <= Self.maximumExpiresIn else {
                throw APIError.badRequest(
                    field: "expiresIn", "expiresIn must be 1...\(Int(Self.maximumExpiresIn)) seconds, got \(seconds)")
            }
            expires = Date().timeIntervalSince1970 + seconds
        }
        if let venues = wanted.venues {
            guard !venues.isEmpty, venues.allSatisfy({ !$0.isEmpty }) else {
                throw APIError.badRequest(
                    field: "venues", "venues must list at least one venue id; leave it out for every venue")
            }
        }
        let key = KeyRing.generate(kind: wanted.kind)
        let label = wanted.label ?? wanted.kind.rawValue
        let stored = try await server.keys.add(
            key, kind: wanted.kind, label: label, expires: expires,
            venues: wanted.venues.map { Array(Set($0)).sorted() })
        return JSONResponse(
            NewKeyResponse(
                key: key, id: stored.id, kind: stored.kind, label: stored.label, expires: stored.expires,
                venues: stored.venues),
            status: .created)
    }

    /// `GET /v1/keys`: every stored key, oldest first, without the key or its hash.
    func listKeys() async throws -> JSONResponse<KeyList> {
        let now = Date().timeIntervalSince1970
        return JSONResponse(KeyList(keys: try await server.keys.list().map { KeyInfo($0, now: now) }))
    }

    /// `DELETE /v1/keys/{id}`: 204 once the key is deleted (refused on every instance within
    /// ``KeyRing/refreshSeconds``), 404 when no key has that id.
    func revokeKey(_ id: String) async throws -> Response {
        guard try await server.keys.revoke(id: id) else {
            throw APIError.notFound(field: "id", "no key has id '\(id)': see GET /v1/keys")
        }
        return Response(status: .noContent)
    }

    /// `GET /v1/audit?from=&to=&before=&limit=`: audit entries, newest first (every entry recorded before the request
    /// is written first).
    func audit(_ request: Request) async throws -> JSONResponse<AuditPage> {
        let parameters = request.uri.queryParameters
        func number(_ name: String) throws -> Double? {
            guard let text = parameters.get(name) else { return nil }
            guard let value = Double(text), value.isFinite else {
                throw APIError.badRequest(field: name, "\(name) must be a time in Unix seconds, got '\(text)'")
            }
            return value
        }
        var limit = 100
        if let text = parameters.get("limit") {
            guard let value = Int(text), (1...Self.maximumAuditLimit).contains(value) else {
                throw APIError.badRequest(field: "limit", "limit must be 1...\(Self.maximumAuditLimit), got '\(text)'")
            }
            limit = value
        }
        var before: Int64?
        if let text = parameters.get("before") {
            guard let value = Int64(text), value > 0 else {
                throw APIError.badRequest(
                    field: "before", "before must be an entry id (a positive integer), got '\(text)'")
            }
            before = value
        }
        let query = AuditQuery(from: try number("from"), to: try number("to"), before: before, limit: limit + 1)
        await server.audit.flush()
        let entries = try await store.audit(query)
        let page = Array(entries.prefix(limit))
        return JSONResponse(AuditPage(entries: page, nextBefore: entries.count > limit ? page.last?.id : nil))
    }
}
