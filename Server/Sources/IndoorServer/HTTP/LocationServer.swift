import Foundation
import Hummingbird
import IndoorModel
import Logging
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
    /// The count of refused keys by client address (``FailedKeyLimiter``); set it before ``router()``.
    public var failedKeys: FailedKeyLimiter
    /// Who read what: the audit log's writer.
    public let audit: AuditLog
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
                recordingLead: configuration.maxLateness), cluster: configuration.cluster,
            maximumDevices: configuration.maxDevices,
            pseudonyms: try await DevicePseudonyms.of(configuration.deviceIDs, store: store))
        keys = try await KeyRing(store: store)
        failedKeys = FailedKeyLimiter()
        audit = AuditLog(store: store, logger: logger)
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

    /// The webhooks' deliverer (``WebhookDispatcher``) to run beside the HTTP server in its service group; in a
    /// cluster, each hook is delivered by one instance.
    public func webhookService(logger: Logger) -> WebhookDispatcher {
        let hub = hub
        let clustered = configuration.cluster != nil
        return WebhookDispatcher(
            store: store, settings: configuration.webhooks, instance: configuration.cluster?.instance ?? "local",
            members: { clustered ? hub.clusterState.members.map(\.id) : nil }, logger: logger,
            metrics: WebhookMetrics(factory: hub.metrics.factory))
    }

    /// The router with every route of the API (the OpenAPI document lists the same), a collection of routes per area:
    /// the map (``MapRoutes``), the server's status (``StatusRoutes``), venues (``VenueRoutes``), reads
    /// (``ReadRoutes``), ingest (``IngestRoutes``), admin (``AdminRoutes``), a person's data (``DeviceRoutes``) and site surveys (``SurveyRoutes``).
    /// Every route but the map's and the status's needs a key (``KeyAuthenticator``); an admin key is admitted
    /// everywhere. Every request is counted (``MetricsMiddleware``), every answer carries the browser's protections
    /// (``SecurityHeadersMiddleware``), reads about people and admin actions are audited (``AuditMiddleware``) and
    /// every error is answered as JSON (``ErrorMiddleware``).
    public func router() -> Router<IndoorRequestContext> {
        let router = Router(context: IndoorRequestContext.self)
        let methods = RouteMethods()
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: SecurityHeadersMiddleware(tls: configuration.tls))
        router.add(middleware: AuditMiddleware(log: audit, pseudonyms: hub.pseudonyms))
        router.add(middleware: ErrorMiddleware(routes: methods))
        let areas: [any RouteArea] = [
            MapRoutes(server: self), StatusRoutes(server: self), VenueRoutes(server: self), ReadRoutes(server: self),
            IngestRoutes(server: self), AdminRoutes(server: self), DeviceRoutes(server: self),
            SurveyRoutes(server: self),
            HistoryRoutes(server: self), WebhookRoutes(server: self), PersonRoutes(server: self),
        ]
        for area in areas { router.addRoutes(area.collection()) }
        methods.record(router.routes.map { (path: $0.path.description, method: $0.method.rawValue) })
        return router
    }
}
