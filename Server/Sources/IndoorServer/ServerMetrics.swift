import CoreMetrics
import Prometheus

/// The server's metrics, made through swift-metrics on a Prometheus registry of their own, so that two servers
/// in one process (tests) count apart; `/metrics` prints the registry in the Prometheus text format.
public struct ServerMetrics: Sendable {
    /// The registry `/metrics` prints.
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    /// Sightings accepted into a session and stored.
    let sightingsIngested: CoreMetrics.Counter
    /// Sightings refused at the edge (per-item errors).
    let sightingsRejected: CoreMetrics.Counter
    /// Ingest transactions: each commits every batch of a venue that was waiting for it.
    let ingestCommits: CoreMetrics.Counter
    /// Batches of sightings committed by those transactions.
    let ingestBatches: CoreMetrics.Counter
    /// Fixes stored and streamed.
    let fixes: CoreMetrics.Counter
    /// Zone events stored and streamed.
    let zoneEvents: CoreMetrics.Counter
    /// Occupancy events stored (`indoor_events_emitted_total{type="occupancy"}`).
    let occupancyEvents: CoreMetrics.Counter
    let personEvents: CoreMetrics.Counter
    /// Devices heard since the sessions started, over all venues.
    let devicesTracked: CoreMetrics.Gauge
    /// Venues served.
    let venues: CoreMetrics.Gauge
    /// Venues whose site survey is being learned (served without it meanwhile).
    let venuesLearning: CoreMetrics.Gauge
    /// Connections open now (``ConnectionLimiter``).
    let connectionsOpen: CoreMetrics.Gauge
    /// Connections closed at once because a cap was reached (``ConnectionLimiter``).
    let connectionsRefused: CoreMetrics.Counter
    /// Stream subscribers whose stream was ended because they fell too far behind (``ServerConfiguration/streamBuffer``).
    let streamsDropped: CoreMetrics.Counter
    /// Sightings deleted by retention.
    let sightingsPruned: CoreMetrics.Counter
    /// Events deleted by retention.
    let eventsPruned: CoreMetrics.Counter
    /// Closed visits deleted by retention.
    let visitsPruned: CoreMetrics.Counter
    /// The database's size, bytes.
    let storeBytes: CoreMetrics.Gauge
    /// When the oldest kept sighting was received, Unix seconds (0 with none).
    let oldestSighting: CoreMetrics.Gauge
    /// When the oldest kept event was stored, Unix seconds (0 with none).
    let oldestEvent: CoreMetrics.Gauge
    /// When the oldest kept closed visit was checked out, Unix seconds (0 with none).
    let oldestVisit: CoreMetrics.Gauge
    /// In a cluster: venues whose session runs in this instance.
    let venuesOwned: CoreMetrics.Gauge
    /// In a cluster: live instances, this one included.
    let clusterMembers: CoreMetrics.Gauge
    /// In a cluster: venues this instance took (at its start, from a dead instance, or handed over).
    let venuesTaken: CoreMetrics.Counter
    /// In a cluster: venues this instance stopped running because another instance took their lease.
    let leasesLost: CoreMetrics.Counter
    /// In a cluster: requests sent on to the instance that owns their venue.
    let requestsForwarded: CoreMetrics.Counter

    /// Metrics on a new registry.
    public init() {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .seconds(2.5), .seconds(5),
        ]
        self.registry = registry
        self.factory = factory
        sightingsIngested = CoreMetrics.Counter(label: "indoor_sightings_ingested_total", factory: factory)
        sightingsRejected = CoreMetrics.Counter(label: "indoor_sightings_rejected_total", factory: factory)
        ingestCommits = CoreMetrics.Counter(label: "indoor_ingest_commits_total", factory: factory)
        ingestBatches = CoreMetrics.Counter(label: "indoor_ingest_batches_total", factory: factory)
        fixes = CoreMetrics.Counter(
            label: "indoor_events_emitted_total", dimensions: [("type", "fix")], factory: factory)
        zoneEvents = CoreMetrics.Counter(
            label: "indoor_events_emitted_total", dimensions: [("type", "zone")], factory: factory)
        occupancyEvents = CoreMetrics.Counter(
            label: "indoor_events_emitted_total", dimensions: [("type", "occupancy")], factory: factory)
        personEvents = CoreMetrics.Counter(
            label: "indoor_events_emitted_total", dimensions: [("type", "person")], factory: factory)
        devicesTracked = CoreMetrics.Gauge(label: "indoor_devices_tracked", factory: factory)
        venues = CoreMetrics.Gauge(label: "indoor_venues", factory: factory)
        venuesLearning = CoreMetrics.Gauge(label: "indoor_venues_learning", factory: factory)
        connectionsOpen = CoreMetrics.Gauge(label: "indoor_connections_open", factory: factory)
        connectionsRefused = CoreMetrics.Counter(label: "indoor_connections_refused_total", factory: factory)
        streamsDropped = CoreMetrics.Counter(label: "indoor_stream_subscribers_dropped_total", factory: factory)
        sightingsPruned = CoreMetrics.Counter(label: "indoor_sightings_pruned_total", factory: factory)
        eventsPruned = CoreMetrics.Counter(label: "indoor_events_pruned_total", factory: factory)
        visitsPruned = CoreMetrics.Counter(label: "indoor_visits_pruned_total", factory: factory)
        storeBytes = CoreMetrics.Gauge(label: "indoor_store_bytes", factory: factory)
        oldestSighting = CoreMetrics.Gauge(label: "indoor_store_oldest_sighting_seconds", factory: factory)
        oldestEvent = CoreMetrics.Gauge(label: "indoor_store_oldest_event_seconds", factory: factory)
        oldestVisit = CoreMetrics.Gauge(label: "indoor_store_oldest_visit_seconds", factory: factory)
        venuesOwned = CoreMetrics.Gauge(label: "indoor_cluster_venues_owned", factory: factory)
        clusterMembers = CoreMetrics.Gauge(label: "indoor_cluster_members", factory: factory)
        venuesTaken = CoreMetrics.Counter(label: "indoor_cluster_venues_taken_total", factory: factory)
        leasesLost = CoreMetrics.Counter(label: "indoor_cluster_leases_lost_total", factory: factory)
        requestsForwarded = CoreMetrics.Counter(label: "indoor_cluster_requests_forwarded_total", factory: factory)
    }

    /// Counts one answered request and its latency.
    func recordRequest(method: String, route: String, status: Int, nanoseconds: Int64) {
        let dimensions = [("method", method), ("route", route), ("status", String(status))]
        CoreMetrics.Counter(label: "indoor_http_requests_total", dimensions: dimensions, factory: factory).increment()
        CoreMetrics.Timer(
            label: "indoor_http_request_duration_seconds", dimensions: [("method", method), ("route", route)],
            factory: factory
        ).recordNanoseconds(nanoseconds)
    }

    /// Counts the sightings of one node by another that `venue`'s session took in one batch:
    /// `indoor_node_links_total{venue, result="used"|"ignored"}`.
    /// How many devices `venue`'s session holds now (`indoor_venue_devices_held{venue}`): it falls as devices leave.
    func recordDevicesHeld(venue: String, count: Int) {
        CoreMetrics.Gauge(label: "indoor_venue_devices_held", dimensions: [("venue", venue)], factory: factory).record(
            count)
    }

    func recordNodeLinks(venue: String, used: Int, ignored: Int) {
        for (result, count) in [("used", used), ("ignored", ignored)] where count > 0 {
            CoreMetrics.Counter(
                label: "indoor_node_links_total", dimensions: [("venue", venue), ("result", result)], factory: factory
            ).increment(by: count)
        }
    }

    /// Counts the fixes, zone, occupancy and person events of `stored`, events just committed (`indoor_events_emitted_total{type}`).
    func recordStored(_ stored: [StoredEvent]) {
        guard !stored.isEmpty else { return }
        var fixes = 0
        for event in stored {
            switch event.event {
            case .fix: fixes += 1
            case .zone: zoneEvents.increment()
            case .occupancy: occupancyEvents.increment()
            case .person: personEvents.increment()
            }
        }
        self.fixes.increment(by: fixes)
    }

    /// The Prometheus text of every metric.
    public func text() -> String { registry.emitToString() }
}
