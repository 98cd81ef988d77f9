import Foundation
import Hummingbird
import IndoorModel

/// The admin routes beyond venues: `POST /v1/keys` makes a key, with an admin key.
struct AdminRoutes: RouteArea {
    let server: LocationServer

    struct NewKeyRequest: Decodable {
        var kind: KeyKind
        var label: String?
    }

    struct NewKeyResponse: Encodable {
        var key: String
        var kind: KeyKind
        var label: String
    }

    /// The routes, behind an admin key.
    func collection() -> RouteCollection<BasicRequestContext> {
        let routes = RouteCollection(context: BasicRequestContext.self)
        let admin = group(of: routes, needing: .admin)
        admin.post("/v1/keys") { request, _ in try await newKey(request) }
        return routes
    }

    /// `POST /v1/keys`: a new key of the kind asked for, with its label (the kind's name when none is given).
    func newKey(_ request: Request) async throws -> JSONResponse<NewKeyResponse> {
        let body = try await request.bodyBytes(limit: configuration.maxBodyBytes)
        let wanted: NewKeyRequest
        do {
            wanted = try JSONDecoder().decode(NewKeyRequest.self, from: Data(buffer: body))
        } catch let error as DecodingError {
            throw APIError.badRequest(
                field: "kind", "expected {\"kind\": \"admin\" | \"ingest\" | \"read\"}: \(JSONFormat.describe(error))",
                code: "invalidJSON")
        }
        let key = KeyRing.generate(kind: wanted.kind)
        let label = wanted.label ?? wanted.kind.rawValue
        try await server.keys.add(key, kind: wanted.kind, label: label)
        return JSONResponse(NewKeyResponse(key: key, kind: wanted.kind, label: label), status: .created)
    }
}
