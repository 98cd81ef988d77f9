import Foundation
import Hummingbird

/// Records in the audit log (``AuditLog``) each answered request that reads about people or changes the server:
/// every read of devices, activity, exports and the stream, the key and audit lists, and every request of another
/// method than `GET` but ingest (`POST /v1/sightings`, `POST /v1/scans`), refused ones included: who (the key's id
/// and label, when one was accepted), what (method, route, path, venue and device named in the path or query), when,
/// from where and the answer's status. Put outside ``ErrorMiddleware``, so an error is recorded with the status it is
/// answered with.
///
/// In a cluster a request is recorded once, by the instance that served it: an instance that forwarded a request to
/// the venue's owner (its answer carries `Indoor-Served-By`, ``OwnerForwarder``) records nothing, and the owner records
/// the address as `CLIENT via INSTANCE (PEER)`: the client's address the forwarding instance gave
/// (`Indoor-Forwarded-For`), that instance's id and the address the request came from. A client that sends these
/// headers itself is still recorded, with the address it connected from.
///
/// The device is recorded as its keyed hash (``DevicePseudonyms/auditName(_:)``, the same one for the same id), in
/// the device field and in the path, never as the id asked for: who read about a device stays accountable (an
/// operator asked about a device computes its hash), and erasing a device leaves no copy of its id in the log.
struct AuditMiddleware: RouterMiddleware {
    typealias Context = IndoorRequestContext
    let log: AuditLog
    /// Hashes the devices named.
    let pseudonyms: DevicePseudonyms

    /// The `GET` routes audited: reads of where people are and were, and of who may read.
    static let auditedReads: Set<String> = [
        "/v1/venues/{venue}/devices", "/v1/venues/{venue}/devices/{device}", "/v1/venues/{venue}/occupancy",
        "/v1/venues/{venue}/history", "/v1/venues/{venue}/reports/zones", "/v1/activity", "/v1/stream", "/v1/keys",
        "/v1/audit", "/v1/venues/{venue}/survey", "/v1/venues/{venue}/persons", "/v1/venues/{venue}/persons/{person}",
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
        // Forwarded to the owner, which recorded it.
        if let servedBy = OwnerForwarder.servedBy, response.headers[servedBy] != nil { return response }
        var named = Self.parameters(route: route, path: request.uri.path)
        let query = request.uri.queryParameters
        let key = context.record.key
        let device = (named["device"] ?? query.get("device")).map(pseudonyms.auditName)
        var path = request.uri.path
        if let hashed = device, named["device"] != nil {
            named["device"] = hashed
            path = Self.path(route: route, values: named)
        }
        log.record(
            AuditEntry(
                time: Date().timeIntervalSince1970, keyId: key?.id, keyLabel: key?.label,
                method: request.method.rawValue, route: route, path: path,
                venue: named["venue"] ?? query.get("venue"), device: device,
                address: Self.address(request, context: context), status: response.status.code))
        return response
    }

    /// Where the request came from: the connection's address, or for a request another instance forwarded,
    /// `CLIENT via INSTANCE (PEER)`.
    static func address(_ request: Request, context: Context) -> String? {
        guard let by = OwnerForwarder.forwardedBy.flatMap({ request.headers[$0] }) else { return context.clientAddress }
        let client = OwnerForwarder.forwardedFor.flatMap { request.headers[$0] } ?? "unknown"
        return "\(client) via \(by) (\(context.clientAddress ?? "unknown"))"
    }

    /// Whether requests to `route` with `method` are audited.
    static func isAudited(method: HTTPRequest.Method, route: String) -> Bool {
        if ingest.contains(route) { return false }
        if method != .get && method != .head { return true }
        return auditedReads.contains(route) || route.hasPrefix("/v1/devices") || route.contains("export")
    }

    /// `route` with each `{name}` segment replaced by its value in `values` (percent-encoded as a path segment).
    static func path(route: String, values: [String: String]) -> String {
        let segments = route.split(separator: "/", omittingEmptySubsequences: true).map { pattern -> String in
            guard pattern.hasPrefix("{"), pattern.hasSuffix("}"),
                let value = values[String(pattern.dropFirst().dropLast())]
            else { return String(pattern) }
            return value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value
        }
        return "/" + segments.joined(separator: "/")
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
