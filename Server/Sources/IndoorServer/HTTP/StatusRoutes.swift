import Foundation
import Hummingbird

/// The routes that say how the server is, which need no key: `GET /health` (the database, the venues, the
/// connections, the MQTT bridge and the cluster) and `GET /metrics` (Prometheus text).
struct StatusRoutes: RouteArea {
    let server: LocationServer

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

    /// Open connections and their caps; the process's open-files limit when known.
    struct Connections: Encodable {
        var open: Int
        var refused: Int
        var limit: Int
        var perAddressLimit: Int
        var openFilesLimit: UInt64?
    }

    /// The routes.
    func collection() -> RouteCollection<BasicRequestContext> {
        let routes = RouteCollection(context: BasicRequestContext.self)
        routes.get("/health") { request, context in try await health(request, context: context) }
        routes.get("/metrics") { _, _ in AssetResponse(metrics.text(), type: "text/plain; version=0.0.4") }
        return routes
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

    /// `GET /health`: 200 when the database answers, else 503 saying why.
    func health(_ request: Request, context: some RequestContext) async throws -> Response {
        let mqtt = server.mqtt
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
