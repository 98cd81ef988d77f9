import Foundation
import HTTPTypes
import Hummingbird
import IndoorArchive
import IndoorGeofencing
import IndoorModel
import Logging
import NIOCore
import ServiceLifecycle

/// The location server: the HTTP API, the live stream and the map over a ``VenueHub`` and a ``LocationStore``.
///
/// ```swift
/// let store = try SQLiteStore(path: "indoor.sqlite")
/// let server = try await LocationServer(store: store)
/// try await server.keys.add(adminKey, kind: .admin, label: "admin")
/// let app = Application(router: server.router())
/// ```
/// Handlers only read requests, check keys and write answers; every sighting goes through the venue's
/// `LocationSession` inside the hub.
public struct LocationServer: Sendable {
    /// The venues and their sessions.
    public let hub: VenueHub
    /// The accepted keys.
    public let keys: KeyRing
    /// Listening address and limits.
    public let configuration: ServerConfiguration
    /// The metrics `/metrics` prints.
    public let metrics: ServerMetrics
    /// The caps on open connections; give each connection its ``ConnectionLimiter/handler()``.
    public let connections: ConnectionLimiter
    /// The MQTT bridge, when the server takes gateways' messages from a broker (said in `/health`); set it before
    /// ``router()``.
    public var mqtt: MQTTBridge?
    /// In a cluster: the live streams' events, read from the store as any instance commits them.
    let relay: EventRelay?
    /// In a cluster: sends requests about venues running elsewhere to their instance.
    let forwarder: OwnerForwarder
    private let logger: Logger

    /// A server over `store`, with the venues it holds.
    /// - Parameters:
    ///   - surveys: Site surveys by venue id (``VenueHub/surveys``), learned in the background.
    ///   - logger: Where the end of each venue's learning is told.
    public init(
        store: any LocationStore, configuration: ServerConfiguration = ServerConfiguration(),
        surveys: [String: Recording] = [:],
        logger: Logger = Logger(label: "indoor.hub", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws {
        let metrics = ServerMetrics()
        self.metrics = metrics
        self.configuration = configuration
        connections = ConnectionLimiter(
            maximum: configuration.maxConnections, maximumPerAddress: configuration.maxConnectionsPerAddress,
            metrics: metrics)
        hub = try await VenueHub(
            store: store, metrics: metrics, surveys: surveys, logger: logger,
            timeWindow: SightingTimeWindow(
                lateness: configuration.maxLateness, skew: configuration.maxClockSkew,
                recordingLead: configuration.maxLateness), cluster: configuration.cluster)
        keys = try await KeyRing(store: store)
        relay = configuration.cluster == nil ? nil : EventRelay(hub: hub)
        forwarder = OwnerForwarder(hub: hub, metrics: metrics)
        self.logger = logger
    }

    /// In a cluster, the instance's cluster work (rounds, leases, the streams' relay) to run beside the HTTP server in
    /// its service group; `nil` for a server alone.
    public var clusterService: (any Service)? {
        guard let relay else { return nil }
        return ClusterService(hub: hub, relay: relay, keys: keys, logger: logger)
    }

    var store: any LocationStore { hub.store }

    /// The router with every route of the API (the OpenAPI document lists the same).
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        let methods = RouteMethods()
        router.add(middleware: APIMiddleware(metrics: metrics, routes: methods))
        router.get("/") { _, _ in Self.asset(MapAssets.html, type: "text/html; charset=utf-8") }
        router.get("/assets/map.js") { _, _ in Self.asset(MapAssets.script, type: "text/javascript; charset=utf-8") }
        router.get("/assets/map.css") { _, _ in Self.asset(MapAssets.style, type: "text/css; charset=utf-8") }
        router.get("/openapi.json") { _, _ in Self.asset(OpenAPIDocument.json, type: "application/json") }
        router.get("/health") { _, _ in try await self.health() }
        router.get("/metrics") { _, _ in Self.asset(self.metrics.text(), type: "text/plain; version=0.0.4") }

        // Every route below needs a key: read (the GET routes, the stream), ingest (sightings, scans) or admin
        // (venues, keys); an admin key is admitted everywhere.
        let read = router.group().add(middleware: KeyAuthenticator(keys: keys, required: .read))
        let ingest = router.group().add(middleware: KeyAuthenticator(keys: keys, required: .ingest))
        let admin = router.group().add(middleware: KeyAuthenticator(keys: keys, required: .admin))
        read.get("/v1/venues") { _, _ in
            try Self.json(VenueList(venues: try await self.store.venues().map { try self.summary($0) }))
        }
        read.get("/v1/venues/{venue}") { _, context in
            let id = try context.parameters.require("venue")
            guard let stored = try await self.store.venue(id: id) else { throw Self.unknownVenue(id) }
            return Self.raw(stored.json, type: "application/json")
        }
        read.get("/v1/venues/{venue}/devices") { request, context in
            let venue = try context.parameters.require("venue")
            if let elsewhere = try await self.elsewhere(request, venue: venue) { return elsewhere }
            return try await self.activeDevices(request, venue: venue)
        }
        read.get("/v1/venues/{venue}/devices/{device}") { request, context in
            let venue = try context.parameters.require("venue")
            let device = try context.parameters.require("device")
            guard self.hub.venue(id: venue) != nil else { throw Self.unknownVenue(venue) }
            if let elsewhere = try await self.elsewhere(request, venue: venue) { return elsewhere }
            guard let fix = try await self.store.latestFix(venue: venue, device: device) else {
                throw APIError.notFound(field: "device", "device '\(device)' has no fix in venue '\(venue)'")
            }
            return try Self.json(DeviceFix(fix: fix, room: self.hub.room(venue: venue, device: device)))
        }
        read.get("/v1/venues/{venue}/nodes") { request, context in
            let venue = try context.parameters.require("venue")
            if let elsewhere = try await self.elsewhere(request, venue: venue) { return elsewhere }
            guard let nodes = self.hub.nodeList(venue: venue) else { throw Self.unknownVenue(venue) }
            return try Self.json(nodes)
        }
        read.get("/v1/activity") { request, _ in
            try await self.activity(request)
        }
        read.get("/v1/stream") { request, _ in
            try await self.stream(request)
        }
        ingest.post("/v1/sightings") { request, _ in
            try await self.ingest(request)
        }
        ingest.post("/v1/scans") { request, _ in
            try await self.scan(request)
        }
        admin.put("/v1/venues/{venue}") { request, context in
            let id = try context.parameters.require("venue")
            let body = Data(buffer: try await self.body(of: request))
            // A zip body is an IMDF archive (docs/SERVER.md); anything else is the venue's JSON, as before.
            if !Self.isZip(request), IMDFArchive.looksLikeZip(body) {
                throw APIError.badRequest(
                    field: "body",
                    "the body is a zip archive, not venue JSON: send an IMDF archive with Content-Type: application/zip"
                )
            }
            let (venue, created) =
                Self.isZip(request)
                ? try await self.hub.putVenue(id: id, imdf: body) : try await self.hub.putVenue(id: id, json: body)
            return Self.raw(try venue.encodeJSON(), type: "application/json", status: created ? .created : .ok)
        }
        read.get("/v1/venues/{venue}/floors/{level}/image") { _, context in
            try await self.getFloorImage(context: context)
        }
        read.get("/v1/venues/{venue}/floors/{level}/image/placement") { _, context in
            try await self.floorImageInfo(context: context)
        }
        admin.put("/v1/venues/{venue}/floors/{level}/image") { request, context in
            try await self.putFloorImage(request, context: context)
        }
        admin.delete("/v1/venues/{venue}/floors/{level}/image") { _, context in
            try await self.deleteFloorImage(context: context)
        }
        admin.put("/v1/venues/{venue}/floors/{level}/image/placement") { request, context in
            try await self.placeFloorImage(request, context: context)
        }
        admin.delete("/v1/venues/{venue}") { _, context in
            let id = try context.parameters.require("venue")
            guard try await self.hub.deleteVenue(id: id) else { throw Self.unknownVenue(id) }
            return Response(status: .noContent)
        }
        admin.post("/v1/keys") { request, _ in
            try await self.newKey(request)
        }
        methods.record(router.routes.map { (path: $0.path.description, method: $0.method.rawValue) })
        return router
    }

    /// In a cluster, the answer of the instance running `venue` when that is not this one (``OwnerForwarder``);
    /// `nil` when the request is served here.
    func elsewhere(_ request: Request, venue: String, body: ByteBuffer? = nil) async throws -> Response? {
        guard hub.cluster != nil, !hub.owns(venue: venue), hub.venue(id: venue) != nil else { return nil }
        return try await forwarder.forward(request, body: body, venue: venue)
    }

    // MARK: Helpers

    /// The request body, up to the configured limit (413 naming `body` beyond it).
    func body(of request: Request) async throws -> ByteBuffer {
        var request = request
        do {
            return try await request.collectBody(upTo: configuration.maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge(
                field: "body", "the body is larger than the limit of \(configuration.maxBodyBytes) bytes")
        }
    }

    /// Whether the request's `Content-Type` is a zip archive's (``IndoorArchive/IMDFArchive/mediaTypes``).
    static func isZip(_ request: Request) -> Bool {
        guard let type = request.headers[.contentType] else { return false }
        let media = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return media.map { IMDFArchive.mediaTypes.contains($0) } ?? false
    }

    static func number(_ request: Request, _ name: String) throws -> Double? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw APIError.badRequest(field: name, "\(name) '\(text)' is not a finite number")
        }
        return value
    }

    static func unknownVenue(_ id: String, field: String = "venue") -> APIError {
        APIError.notFound(field: field, "venue '\(id)' does not exist")
    }

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        raw(try JSONFormat.encoder().encode(value), type: "application/json", status: status)
    }

    static func raw(_ data: Data, type: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func asset(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
