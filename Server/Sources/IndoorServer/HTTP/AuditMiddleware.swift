import Foundation
import Hummingbird

/// Records in the audit log (``AuditLog``) each answered request that reads about people or changes the server:
/// every read of devices, activity, exports and the stream, the key and audit lists, and every request of another
/// method than `GET` but ingest (`POST /v1/sightings`, `POST /v1/scans`), refused ones included: who (the key's id
/// and label, when one was accepted), what (method, route, path, venue and device named in the path or query), when,
/// from where and the answer's status. Put outside ``ErrorMiddleware``, so an error is recorded with the status it is
/// answered with.
struct AuditMiddleware: RouterMiddleware {
    typealias Context = IndoorRequestContext
    let log: AuditLog

    /// The `GET` routes audited: reads of where people are and were, and of who may read.
    static let auditedReads: Set<String> = [
        "/v1/venues/{venue}/devices", "/v1/venues/{venue}/devices/{device}", "/v1/activity", "/v1/stream", "/v1/keys",
        "/v1/audit",
    ]
    /// The routes never audited: ingest, which is the gateways' traffic, not a person's read.
    static let ingest: Set<String> = ["/v1/sightings", "/v1/scans"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let response = try await next(request, context)
        guard let route = context.endpointPath, Self.isAudited(method: request.method, route: route) else {
            return response
        }
        let named = Self.parameters(route: route, path: request.uri.path)
        let query = request.uri.queryParameters
        let key = context.record.key
        log.record(
            AuditEntry(
                time: Date().timeIntervalSince1970, keyId: key?.id, keyLabel: key?.label,
                method: request.method.rawValue, route: route, path: request.uri.path,
                venue: named["venue"] ?? query.get("venue"), device: named["device"] ?? query.get("device"),
                address: context.clientAddress, status: response.status.code))
        return response
    }

    /// Whether requests to `route` with `method` are audited.
    static func isAudited(method: HTTPRequest.Method, route: String) -> Bool {
        if ingest.contains(route) { return false }
        if method != .get && method != .head { return true }
        return auditedReads.contains(route) || route.hasPrefix("/v1/devices") || route.contains("export")
    }

    /// The values of the route's `{name}` segments in `path`, by name (percent-decoded).
    static func parameters(route: String, path: String) -> [String: String] {
        let patterns = route.split(separator: "/", omittingEmptySubsequences: true)
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard patterns.count == segments.count else { return [:] }
        var values: [String: String] = [:]
        for (pattern, segment) in zip(patterns, segments) where pattern.hasPrefix("{") && pattern.hasSuffix("}") {
            let name = String(pattern.dropFirst().dropLast())
            values[name] = String(segment).removingPercentEncoding ?? String(segment)
        }
        return values
    }
}
