import Foundation
import Hummingbird
import IndoorModel

/// The webhooks' routes, with an admin key (docs/WEBHOOKS.md): `POST /v1/webhooks` makes one, `GET /v1/webhooks`
/// lists them, `GET /v1/webhooks/{id}` shows one, `DELETE /v1/webhooks/{id}` deletes one (and its secret),
/// `GET /v1/webhooks/{id}/deliveries` lists its latest attempts.
struct WebhookRoutes: RouteArea {
    let server: LocationServer

    /// The most hooks a server keeps.
    static let maximumHooks = 100
    /// The shortest and longest secret given, characters.
    static let secretLengths = 16...256
    /// The longest URL, characters.
    static let maximumURLLength = 2048

    struct NewHookRequest: Decodable {
        var url: String
        var events: [String]
        var venues: [String]?
        var secret: String?
    }

    /// A hook as answered: never its secret, but once, when the server made it.
    struct HookInfo: Encodable {
        var id: String
        var url: String
        var events: [String]
        var venues: [String]?
        var created: Double
        var enabled: Bool
        var failingSince: Double?
        var disabledReason: String?
        /// The secret the server made, answered once by `POST`.
        var secret: String?

        init(_ hook: StoredWebhook, secret: String? = nil) {
            id = hook.id
            url = hook.url
            events = hook.events
            venues = hook.venues
            created = hook.created
            enabled = hook.disabledReason == nil
            failingSince = hook.failingSince
            disabledReason = hook.disabledReason
            self.secret = secret
        }
    }

    struct HookList: Encodable {
        var webhooks: [HookInfo]
    }

    struct DeliveryList: Encodable {
        var deliveries: [WebhookDelivery]
    }

    func collection() -> RouteCollection<IndoorRequestContext> {
        let routes = RouteCollection(context: IndoorRequestContext.self)
        let admin = group(of: routes, needing: .admin)
        admin.post("/v1/webhooks") { request, _ in try await newHook(request) }
        admin.get("/v1/webhooks") { _, _ in
            JSONResponse(HookList(webhooks: try await store.webhooks().map { HookInfo($0) }))
        }
        admin.get("/v1/webhooks/{id}") { _, context in
            JSONResponse(HookInfo(try await hook(context.parameters.require("id"))))
        }
        admin.delete("/v1/webhooks/{id}") { _, context in
            let id = try context.parameters.require("id")
            guard try await store.deleteWebhook(id: id) else { throw Self.unknown(id) }
            return Response(status: .noContent)
        }
        admin.get("/v1/webhooks/{id}/deliveries") { _, context in
            let hook = try await hook(context.parameters.require("id"))
            return JSONResponse(
                DeliveryList(
                    deliveries: try await store.webhookDeliveries(
                        id: hook.id, limit: configuration.webhooks.keptDeliveries)))
        }
        return routes
    }

    private func hook(_ id: String) async throws -> StoredWebhook {
        guard let hook = try await store.webhook(id: id) else { throw Self.unknown(id) }
        return hook
    }

    private static func unknown(_ id: String) -> APIError {
        APIError.notFound(field: "id", "no webhook has id '\(id)': see GET /v1/webhooks")
    }

    /// `POST /v1/webhooks`: 201 with the hook; it delivers the events stored from now on.
    func newHook(_ request: Request) async throws -> JSONResponse<HookInfo> {
        let body = try await request.bodyBytes(limit: configuration.maxBodyBytes)
        let wanted: NewHookRequest
        do {
            wanted = try JSONDecoder().decode(NewHookRequest.self, from: Data(buffer: body))
        } catch let error as DecodingError {
            throw APIError.badRequest(
                field: "url",
                "expected {\"url\": \"https://…\", \"events\": [\"checkIn\", …], \"venues\"?: [ids], "
                    + "\"secret\"?: text}: \(JSONFormat.describe(error))",
                code: "invalidJSON")
        }
        guard wanted.url.count <= Self.maximumURLLength else {
            throw APIError.badRequest(field: "url", "url is longer than \(Self.maximumURLLength) characters")
        }
        do {
            _ = try await WebhookTarget.check(wanted.url, allowPrivate: configuration.webhooks.allowPrivate)
        } catch let refusal as WebhookTarget.Refusal {
            throw APIError.badRequest(field: "url", refusal.message, code: refusal.code)
        }
        let known = WebhookEvents.known.sorted().joined(separator: ", ")
        guard !wanted.events.isEmpty else {
            throw APIError.badRequest(field: "events", "events must name at least one of \(known)")
        }
        if let unknown = wanted.events.first(where: { !WebhookEvents.known.contains($0) }) {
            throw APIError.badRequest(
                field: "events", "unknown event '\(unknown)'; known events: \(known)", code: "unknownEvent")
        }
        if let venues = wanted.venues {
            guard !venues.isEmpty, venues.allSatisfy({ !$0.isEmpty }) else {
                throw APIError.badRequest(
                    field: "venues", "venues must list at least one venue id; leave it out for every venue")
            }
        }
        if let secret = wanted.secret, !Self.secretLengths.contains(secret.count) {
            throw APIError.badRequest(
                field: "secret",
                "secret must be \(Self.secretLengths.lowerBound)...\(Self.secretLengths.upperBound) characters "
                    + "(128 bits or more); leave it out and the server makes one")
        }
        guard try await store.webhooks().count < Self.maximumHooks else {
            throw APIError(
                status: .conflict, code: "tooManyWebhooks", field: nil,
                message: "the server keeps at most \(Self.maximumHooks) webhooks; delete one first")
        }
        let made = wanted.secret == nil ? Self.randomHex(bytes: 32) : nil
        let hook = StoredWebhook(
            id: "wh_" + Self.randomHex(bytes: 12), url: wanted.url, events: Array(Set(wanted.events)).sorted(),
            venues: wanted.venues.map { Array(Set($0)).sorted() }, secret: wanted.secret ?? made ?? "",
            created: Date().timeIntervalSince1970, startCursor: try await store.latestEventID())
        try await store.addWebhook(hook)
        return JSONResponse(HookInfo(hook, secret: made), status: .created)
    }

    /// `bytes` random bytes from the system's generator, in lowercase hex.
    static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
