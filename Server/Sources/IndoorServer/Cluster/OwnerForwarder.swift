import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// In a cluster: sends a request about a venue whose session runs on another instance to that instance, and answers
/// with what it answered (its status, type and body, and `Indoor-Served-By` naming it). The owner audits the request
/// (``AuditMiddleware``), with the client's address the forwarding instance gives (`Indoor-Forwarded-For`); the
/// forwarding instance does not: a forwarded request is in the audit log once.
///
/// A venue that is moving (its owner died or handed it over; nobody holds its lease) is waited for up to
/// ``ownerWait`` seconds; then the answer is 503 with `Retry-After`. A request that was already forwarded once is
/// never forwarded again (no loops while instances disagree for a moment): it gets the same 503.
struct OwnerForwarder: Sendable {
    /// The header a forwarded request carries: the id of the instance that forwarded it.
    static let forwardedBy = HTTPField.Name("Indoor-Forwarded-By")
    /// The header a forwarded request carries: the address of the client that sent it to the forwarding instance
    /// (for the owner's audit log, ``AuditMiddleware``).
    static let forwardedFor = HTTPField.Name("Indoor-Forwarded-For")
    /// The header of a forwarded answer: the id of the instance that served it.
    static let servedBy = HTTPField.Name("Indoor-Served-By")
    /// How long a request waits for a moving venue to have an owner, seconds.
    static let ownerWait = 5.0
    /// The largest answer taken from the owner, bytes.
    static let maximumAnswer = 64 << 20

    /// Headers that belong to one connection, not to the request: never sent on.
    static let hopByHop: Set<String> = [
        "host", "content-length", "connection", "transfer-encoding", "keep-alive", "te", "upgrade", "expect",
        "proxy-authorization", "indoor-forwarded-by", "indoor-forwarded-for",
    ]

    /// The client requests are forwarded with, one per process: a connection that cannot be made fails the request
    /// within a second (a dead owner answers nothing; the client is told at once to try again), an answer may take
    /// up to 30 s.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(1), read: .seconds(30)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    let hub: VenueHub
    let metrics: ServerMetrics

    /// In a cluster, the answer of the instance running `venue` when that is not this one
    /// (``forward(_:body:venue:client:)``, with the address `context`'s request came from, which the owner's audit log
    /// records); `nil` when the request is served here: a server alone, a venue run here, or one nobody knows.
    func answerElsewhere(
        _ request: Request, _ context: IndoorRequestContext, venue: String, body: ByteBuffer? = nil
    ) async throws -> Response? {
        guard hub.cluster != nil, !hub.owns(venue: venue), hub.venue(id: venue) != nil else { return nil }
        return try await forward(request, body: body, venue: venue, client: context.clientAddress)
    }

    /// Where a request about `venue` is served: `nil` when here (the venue runs here now), else the owner's answer.
    /// - Throws: ``APIError`` 503 when the venue has no owner within ``ownerWait`` or the owner does not answer.
    func forward(
        _ request: Request, body: ByteBuffer?, venue: String, client: String? = nil
    ) async throws -> Response? {
        guard let cluster = hub.cluster else { return nil }
        if let by = Self.forwardedBy.flatMap({ request.headers[$0] }) {
            guard !hub.owns(venue: venue) else { return nil }
            throw APIError.unavailable(
                field: "venue",
                "venue '\(venue)' is moving between instances (instance '\(by)' sent this request here, where it "
                    + "does not run now); try again in a second", retryAfter: 1)
        }
        let deadline = ContinuousClock.now + .milliseconds(Int(Self.ownerWait * 1000))
        var owner: ClusterMember?
        while true {
            if hub.owns(venue: venue) { return nil }
            if let found = hub.owner(of: venue), found.id != cluster.instance {
                owner = found
                break
            }
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        guard let owner else {
            throw APIError.unavailable(
                field: "venue",
                "venue '\(venue)' has no running instance at the moment (its owner stopped or handed it over; another "
                    + "instance takes it within \(Int(cluster.leaseSeconds.rounded(.up)) + 2) s); try again",
                retryAfter: 1)
        }
        var outgoing = HTTPClientRequest(url: owner.url + request.uri.description)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers where !Self.hopByHop.contains(field.name.canonicalName) {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        outgoing.headers.add(name: "Indoor-Forwarded-By", value: cluster.instance)
        if let client { outgoing.headers.add(name: "Indoor-Forwarded-For", value: client) }
        if let body { outgoing.body = .bytes(body) }
        metrics.requestsForwarded.increment()
        do {
            let answer = try await Self.client.execute(outgoing, timeout: .seconds(30))
            let bytes = try await answer.body.collect(upTo: Self.maximumAnswer)
            var headers = HTTPFields()
            for name in ["Content-Type", "Retry-After", "Cache-Control"] {
                if let value = answer.headers.first(name: name), let field = HTTPField.Name(name) {
                    headers[field] = value
                }
            }
            if let servedBy = Self.servedBy { headers[servedBy] = owner.id }
            return Response(
                status: HTTPResponse.Status(code: Int(answer.status.code)), headers: headers,
                body: ResponseBody(byteBuffer: bytes))
        } catch {
            throw APIError.unavailable(
                field: "venue",
                "venue '\(venue)' runs on instance '\(owner.id)' (\(owner.url)), which did not answer (\(error)); if it "
                    + "stopped, another instance takes its venues within \(Int(cluster.leaseSeconds.rounded(.up)) + 2) "
                    + "s: try again", retryAfter: 1)
        }
    }
}
