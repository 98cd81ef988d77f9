import Foundation
import HTTPTypes
import Hummingbird

/// The routes that say how the server is: `GET /health` (whether it is up; with a read key, or with
/// ``ServerConfiguration/publicMetrics``, also the database, the venues, the connections, the MQTT bridge and the
/// cluster) and `GET /metrics` (Prometheus text; with a read key unless ``ServerConfiguration/publicMetrics``). Without a
/// key `/health` says nothing of who is in the building.
struct StatusRoutes: RouteArea {
    let server: LocationServer

    struct Health: Encodable {
        var status: String
        /// The rest is absent from the bare answer (no key).
        var database: String?
        /// The kind of database: `sqlite` or `postgres`.
        var store: String?
        var venues: Int?
        /// The store's size and oldest sighting; absent when the database cannot be read.
        var storage: StoreStorage?
        var connections: Connections?
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

    /// Open connections and their caps; the process's open-files limit when known.
    struct Connections: Encodable {
        var open: Int
        var refused: Int
        var limit: Int
        var perAddressLimit: Int
        var openFilesLimit: UInt64?
    }

    /// The routes.
    func collection() -> RouteCollection<IndoorRequestContext> {
        let routes = RouteCollection(context: IndoorRequestContext.self)
        routes.get("/health") { request, context in try await health(request, context: context) }
        routes.get("/metrics") { request, context in
            if !configuration.publicMetrics { try await readKey.authorize(request, context: context) }
            return AssetResponse(metrics.text(), type: "text/plain; version=0.0.4")
        }
        return routes
    }

    /// The check of a read key, for the details.
    var readKey: KeyAuthenticator {
        KeyAuthenticator(keys: server.keys, required: .read, failures: server.failedKeys)
    }

    /// Whether `request` is answered the details: with ``ServerConfiguration/publicMetrics``, or with a key in a
    /// header (checked: a wrong one is refused).
    func detailed(_ request: Request, context: IndoorRequestContext) async throws -> Bool {
        if configuration.publicMetrics { return true }
        let presents =
            request.headers[.authorization] != nil
            || HTTPField.Name("X-API-Key").map { request.headers[$0] != nil } == true
        guard presents else { return false }
        try await readKey.authorize(request, context: context)
        return true
    }

    /// This instance in its cluster, with `--cluster`.
    var clusterHealth: ClusterHealth? {
        guard let cluster = hub.cluster else { return nil }
        let view = hub.clusterState
        return ClusterHealth(
            instance: cluster.instance, url: cluster.url, owned: hub.ownedVenueIDs, members: view.members,
            leaseSeconds: cluster.leaseSeconds,
            leases: view.leases.values.filter { $0.owner == cluster.instance }.sorted { $0.venue < $1.venue })
    }

    /// The open connections now.
    var connectionHealth: Connections {
        let connections = server.connections
        let counts = connections.counts
        return Connections(
            open: counts.open, refused: counts.refused, limit: connections.maximum,
            perAddressLimit: connections.maximumPerAddress, openFilesLimit: configuration.openFilesLimit)
    }

    /// `GET /health`: 200 when the database answers, else 503 (saying why with the details).
    func health(_ request: Request, context: IndoorRequestContext) async throws -> Response {
        let mqtt = server.mqtt
        guard try await detailed(request, context: context) else {
            let up = (try? await store.ping()) != nil
            return try JSONResponse(
                Health(status: up ? "ok" : "unavailable"), status: up ? .ok : .serviceUnavailable
            ).response(from: request, context: context)
        }
        do {
            try await store.ping()
            return try JSONResponse(
                Health(
                    status: "ok", database: "ok", store: store.kind, venues: hub.venueIDs.count,
                    storage: try await store.storage(),
                    connections: connectionHealth, mqtt: mqtt?.health, cluster: clusterHealth)
            ).response(from: request, context: context)
        } catch {
            return try JSONResponse(
                Health(
                    status: "unavailable", database: "\(error)", store: store.kind, venues: hub.venueIDs.count,
                    connections: connectionHealth, mqtt: mqtt?.health, cluster: clusterHealth),
                status: .serviceUnavailable
            ).response(from: request, context: context)
        }
    }
}
