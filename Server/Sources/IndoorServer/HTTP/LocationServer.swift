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
        router.get("/assets/{file}") { _, context in try MapAssets.response(for: context.parameters.require("file")) }
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

    // MARK: Keys

    struct NewKeyRequest: Decodable {
        var kind: KeyKind
        var label: String?
    }

    struct NewKeyResponse: Encodable {
        var key: String
        var kind: KeyKind
        var label: String
    }

    private func newKey(_ request: Request) async throws -> Response {
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

    // MARK: Handlers

    struct Health: Encodable {
        var status: String
        var database: String
        /// The kind of database: `sqlite` or `postgres`.
        var store: String
        var venues: Int
        /// The store's size and oldest sighting; absent when the database cannot be read.
        var storage: StoreStorage?
        var connections: Connections
        /// The broker connection, with `--mqtt`.
        var mqtt: MQTTHealth?
        /// This instance in its cluster, with `--cluster`.
        var cluster: ClusterHealth?
    }

    /// An instance's view of its cluster.
    struct ClusterHealth: Encodable {
        /// This instance's id and address.
        var instance: String
        var url: String
        /// The venues whose session runs here.
        var owned: [String]
        /// The live instances, this one among them.
        var members: [ClusterMember]
        /// How long a lease lasts, seconds.
        var leaseSeconds: Double
        /// Each lease this instance holds: its venue, epoch and expiry (Unix seconds, the database's clock).
        var leases: [VenueLease]
    }

    private var clusterHealth: ClusterHealth? {
        guard let cluster = hub.cluster else { return nil }
        let view = hub.clusterState
        return ClusterHealth(
            instance: cluster.instance, url: cluster.url, owned: hub.ownedVenueIDs, members: view.members,
            leaseSeconds: cluster.leaseSeconds,
            leases: view.leases.values.filter { $0.owner == cluster.instance }.sorted { $0.venue < $1.venue })
    }

    /// Open connections and their caps; the process's open-files limit when known.
    struct Connections: Encodable {
        var open: Int
        var refused: Int
        var limit: Int
        var perAddressLimit: Int
        var openFilesLimit: UInt64?
    }

    private var connectionHealth: Connections {
        let counts = connections.counts
        return Connections(
            open: counts.open, refused: counts.refused, limit: connections.maximum,
            perAddressLimit: connections.maximumPerAddress, openFilesLimit: configuration.openFilesLimit)
    }

    private func health() async throws -> Response {
        do {
            try await store.ping()
            return try Self.json(
                Health(
                    status: "ok", database: "ok", store: store.kind, venues: hub.venueIDs.count,
                    storage: try await store.storage(),
                    connections: connectionHealth, mqtt: mqtt?.health, cluster: clusterHealth))
        } catch {
            return try Self.json(
                Health(
                    status: "unavailable", database: "\(error)", store: store.kind, venues: hub.venueIDs.count,
                    connections: connectionHealth, mqtt: mqtt?.health, cluster: clusterHealth),
                status: .serviceUnavailable)
        }
    }

    struct VenueSummary: Encodable {
        var id: String
        var name: String
        var floors: [Int]
        var nodes: Int
        var zones: Int
        /// Whether the venue's site survey is learned (``VenueHub/surveyState(venue:)``).
        var survey: String
        /// In a cluster: the id of the instance its session runs on; absent while it moves (and for a server alone).
        var owner: String?
    }

    struct VenueList: Encodable {
        var venues: [VenueSummary]
    }

    private func summary(_ stored: StoredVenue) throws -> VenueSummary {
        let venue = try Venue.decodeJSON(stored.json)
        return VenueSummary(
            id: venue.id, name: venue.name, floors: venue.floors.map(\.level), nodes: venue.nodes.count,
            zones: venue.zones.count, survey: hub.surveyState(venue: venue.id),
            owner: hub.cluster == nil ? nil : hub.owner(of: venue.id)?.id)
    }

    struct DeviceList: Encodable {
        var venue: String
        var devices: [DeviceFix]
    }

    private func activeDevices(_ request: Request, venue: String) async throws -> Response {
        guard hub.venue(id: venue) != nil else { throw Self.unknownVenue(venue) }
        let window = try Self.number(request, "within") ?? configuration.activeWindow
        guard window >= 0 else { throw APIError.badRequest(field: "within", "within must be a number of seconds ≥ 0") }
        let all = try await store.devices(venue: venue, since: -Double.greatestFiniteMagnitude)
        let newest = all.map(\.time).max() ?? 0
        let active = all.filter { $0.time >= newest - window }
        return try Self.json(
            DeviceList(
                venue: venue,
                devices: active.map { DeviceFix(fix: $0, room: hub.room(venue: venue, device: $0.device)) }
            ))
    }

    private func ingest(_ request: Request) async throws -> Response {
        let body = try await self.body(of: request)
        let batch: SightingBatchReader.Batch
        do {
            batch = try body.withUnsafeReadableBytes { try SightingBatchReader.read($0) }
        } catch let error as BatchBodyError {
            throw APIError.badRequest(field: error.field, error.message, code: "invalidJSON")
        }
        guard batch.count <= configuration.maxBatch else {
            throw APIError.tooLarge(
                field: "sightings",
                "\(batch.count) sightings in one batch; the limit is \(configuration.maxBatch): split the batch")
        }
        guard hub.venue(id: batch.venue) != nil else { throw Self.unknownVenue(batch.venue, field: "venue") }
        if let elsewhere = try await self.elsewhere(request, venue: batch.venue, body: body) { return elsewhere }
        let sightings = batch.sightings
        /// The batch index of each sighting read.
        let indices = batch.indices
        var errors = batch.errors
        let admission: VenueHub.Admission
        do {
            admission = try await hub.admit(venue: batch.venue, sightings: sightings)
        } catch is VenueElsewhereError {
            // The venue moved while the batch waited: nothing of it was stored; its new owner takes it.
            if let elsewhere = try await self.elsewhere(request, venue: batch.venue, body: body) { return elsewhere }
            admission = try await hub.admit(venue: batch.venue, sightings: sightings)
        }
        for refused in admission.refused {
            let index = indices[refused.index]
            errors.append(
                ItemError(index: index, field: "sightings[\(index)].\(refused.field)", message: refused.message))
        }
        errors.sort { $0.index < $1.index }
        metrics.sightingsRejected.increment(by: errors.count)
        // Nothing taken (every item unreadable or refused): 400 with the first problem.
        if admission.refused.count == sightings.count, let first = errors.first {
            throw APIError.badRequest(field: first.field, first.message + errorsSuffix(errors.count - 1))
        }
        let answer = try IngestResponse.json(
            venue: batch.venue, accepted: sightings.count - admission.refused.count, rejected: errors.count,
            stored: admission.stored, eventJSON: admission.eventJSON, errors: errors)
        return Self.raw(answer, type: "application/json")
    }

    /// `POST /v1/scans`: the indoor provider's scan over the sightings of the request (``ScanRequest``), answered
    /// with the provider's result JSON (docs/SCAN.md). Nothing is stored: a scan is a question, not an ingest.
    private func scan(_ request: Request) async throws -> Response {
        let body = try await self.body(of: request)
        let scan =
            try body.withUnsafeReadableBytes { ScanRequestReader.read($0) } ?? ScanRequest.decode(Data(buffer: body))
        guard scan.items.count <= configuration.maxBatch else {
            throw APIError.tooLarge(
                field: "sightings",
                "\(scan.items.count) sightings in one scan; the limit is \(configuration.maxBatch)")
        }
        let venues = hub.venueIDs.compactMap { hub.venue(id: $0) }
        let result = try scan.run(venues: venues) { venue in try hub.scanSession(venue: venue) }
        return Self.raw(Data(result.json().utf8), type: "application/json")
    }

    /// In a cluster, the answer of the instance running `venue` when that is not this one (``OwnerForwarder``);
    /// `nil` when the request is served here.
    private func elsewhere(_ request: Request, venue: String, body: ByteBuffer? = nil) async throws -> Response? {
        guard hub.cluster != nil, !hub.owns(venue: venue), hub.venue(id: venue) != nil else { return nil }
        return try await forwarder.forward(request, body: body, venue: venue)
    }

    private func errorsSuffix(_ more: Int) -> String {
        more > 0 ? " (and \(more) more bad sightings; none was accepted)" : ""
    }

    struct ActivityPage: Encodable {
        var visits: [Visit]
        var nextCursor: String?
    }

    private func activity(_ request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters
        guard let venue = parameters.get("venue"), !venue.isEmpty else {
            throw APIError.badRequest(field: "venue", "the query needs venue=ID")
        }
        var known = hub.venue(id: venue) != nil
        if !known { known = try await store.venue(id: venue) != nil }
        guard known else { throw Self.unknownVenue(venue, field: "venue") }
        let limit = try Self.number(request, "limit").map(Int.init) ?? 100
        guard (1...1000).contains(limit) else { throw APIError.badRequest(field: "limit", "limit must be 1…1000") }
        var before: Int64?
        if let cursor = parameters.get("cursor") {
            guard let id = ActivityCursor.decode(cursor) else {
                throw APIError.badRequest(field: "cursor", "cursor '\(cursor)' is not one this server gave out")
            }
            before = id
        }
        let page = try await store.visits(
            VisitQuery(
                venue: venue, zone: parameters.get("zone"), device: parameters.get("device"),
                from: try Self.number(request, "from"), to: try Self.number(request, "to"), limit: limit,
                before: before))
        return try Self.json(ActivityPage(visits: page.visits, nextCursor: page.nextBefore.map(ActivityCursor.encode)))
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

/// The opaque activity cursor: base64url of `v1:<visit id>`.
enum ActivityCursor {
    static func encode(_ id: Int64) -> String {
        Data("v1:\(id)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ cursor: String) -> Int64? {
        var text = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text), let plain = String(data: data, encoding: .utf8),
            plain.hasPrefix("v1:")
        else { return nil }
        return Int64(plain.dropFirst(3))
    }
}
