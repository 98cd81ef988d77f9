import Foundation
import Hummingbird

extension LocationServer {
    struct NewKeyRequest: Decodable {
        var kind: KeyKind
        var label: String?
    }

    struct NewKeyResponse: Encodable {
        var key: String
        var kind: KeyKind
        var label: String
    }

    func newKey(_ request: Request) async throws -> Response {
        let body = try await self.body(of: request)
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
        try await keys.add(key, kind: wanted.kind, label: label)
        return try Self.json(NewKeyResponse(key: key, kind: wanted.kind, label: label), status: .created)
    }
}
