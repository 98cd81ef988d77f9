import Foundation
import IndoorModel
import IndoorSession
import Logging

/// The venues the server serves, each with its `LocationSession`, and the live subscribers of its events: the one
/// door the HTTP routes, the MQTT bridge and the services go through, composed of parts of one concern each.
///
/// Every sighting goes through the venue's session (the server holds no positioning, ranging or zone rules):
/// a batch is ingested, the fixes and zone events it caused are committed to the store with the sightings in
/// one transaction, and only then handed to the stream's subscribers and returned to the caller. One venue's
/// batches are serialised (its session is one value), so its events are stored and streamed in the order they
/// arose; different venues proceed in parallel.
///
/// The parts: ``VenueRegistry`` (the venues run here, a cluster's catalog), ``IngestPipeline`` (each venue's jobs:
/// batches and their group commit, ticks, replacement), ``SubscriberTable`` (each venue's streams, and the observers
/// of every venue), ``SurveyLearning`` and ``ScanSessions``, ``VenueResume`` (a venue's session rebuilt from the
/// store), ``RetentionSweep``, ``NodeHealthBook``, and in a cluster ``ClusterOwnership``.
public final class VenueHub: Sendable {
    /// The store everything is committed to.
    public let store: any LocationStore
    /// Which sightings each venue takes by their time.
    public let timeWindow: SightingTimeWindow
    /// This instance's part in a cluster of servers sharing the store, or `nil` for a server alone: then it runs
    /// only the venues whose lease it holds (``clusterRound()``), and knows the others from the store.
    public let cluster: ClusterIdentity?
    /// Each node's health by venue: when it was last heard and what its gateway said (``NodeHealthBook``).
    public let nodeHealth: NodeHealthBook
    /// The most devices each venue's session holds at once (`SessionConfiguration.maximumDevices`): beyond it, a new
    /// device evicts the one silent longest (its open visits checked out, `lost`), so a flood of ids cannot exhaust
    /// memory.
    public let maximumDevices: Int
    let metrics: ServerMetrics
    let logger: Logger
    /// Seconds since 1970: arrivals are stamped with it, quiet venues moved on by it.
    let wallClock: @Sendable () -> Double
    /// The venues run here and, in a cluster, every stored venue.
    let registry: VenueRegistry
    /// The feeds of ``observeAll(buffer:)``.
    let observers: SubscriberTable<VenueLiveEvents>
    /// The feeds of ``subscribeErasures()``: the devices erased here or, in a cluster, on another instance.
    let erasures = SubscriberTable<DeviceErasure>()
    /// Each venue's batches, ticks and replacement, run as its jobs.
    let pipeline: IngestPipeline
    /// Each venue's session rebuilt from the store when it starts running here.
    let resumption: VenueResume
    /// Each venue's survey, learned in the background.
    let learning: SurveyLearning
    /// Each venue's scan session.
    let scans: ScanSessions
    /// In a cluster: this instance's rounds and leases.
    let ownership: ClusterOwnership?
    /// What each sighting's device is called from ingest on (``DevicePseudonyms``).
    public let pseudonyms: DevicePseudonyms
    /// The edits of a venue's persons, one at a time (each reads the venue, changes it and puts it).
    let personEdits = SerialJobs()

    /// A hub over `store`, with a session for each stored venue (a restart carries on from the store).
    /// - Parameters:
    ///   - surveys: Site surveys by venue id (``surveys``); a venue learns from its survey in the background once it
    ///     starts (seconds for a few hundred surveyed points in a release build).
    ///   - logger: Where the end of each venue's learning is told (how long it took, or why it failed).
    ///   - wallClock: Seconds since 1970, used to stamp arrivals and to move quiet venues on.
    ///   - timeWindow: Which sightings each venue takes by their time.
    ///   - maximumDevices: The most devices each venue's session holds at once (at least 1; default 100 000).
    ///   - pseudonyms: What each sighting's device is called from ingest on (ids kept as they are by default; a
    ///     ``LocationServer`` gives the pseudonyms of its configuration).
    /// - Throws: A stored venue that no longer decodes or makes no session, or whose survey hears none of its nodes.
    public init(
        store: any LocationStore, metrics: ServerMetrics, surveys: [String: Recording] = [:],
        logger: Logger = Logger(label: "indoor.hub", factory: { _ in SwiftLogNoOpLogHandler() }),
        wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        timeWindow: SightingTimeWindow = SightingTimeWindow(), cluster: ClusterIdentity? = nil,
        maximumDevices: Int = SessionConfiguration.defaultMaximumDevices,
        pseudonyms: DevicePseudonyms = .raw()
    ) async throws {
        self.pseudonyms = pseudonyms
        let clusterStore = store as? any ClusterStore
        if cluster != nil, clusterStore == nil {
            throw StoreError("a cluster of servers needs a PostgreSQL database (--database postgres://…)")
        }
        self.timeWindow = timeWindow
        self.cluster = cluster
        self.maximumDevices = max(1, maximumDevices)
        self.store = store
        self.metrics = metrics
        self.logger = logger
        self.wallClock = wallClock
        var runtimes: [String: VenueRuntime] = [:]
        var catalog: [String: Venue] = [:]
        var venues: [Venue] = []
        for stored in try await store.venues() {
            let venue = try Venue.decodeJSON(stored.json, file: "venue '\(stored.id)'")
            if let problem = SurveyLearning.problem(venue, surveys[venue.id]) {
                throw APIError.badRequest(field: "nodes", problem)
            }
            venues.append(venue)
        }
        // The surveys given are imported into the store (replacing what they replaced at the last start; surveys
        // recorded walking stay), and each venue learns from its stored survey: the one given as it was given, when
        // it has nothing else.
        var learned: [String: Recording] = [:]
        for (id, survey) in surveys.sorted(by: { $0.key < $1.key }) {
            try await store.replaceSurvey(
                venue: id, with: SurveyImport.split(survey), storedAt: wallClock(), keepingWalks: true)
            learned[id] = survey
        }
        for venue in venues {
            let recordings = try await store.surveyRecordings(venue: venue.id)
            guard recordings.contains(where: { !$0.isOpen && $0.source == .walk }) || learned[venue.id] == nil
            else { continue }
            learned[venue.id] = try await SurveyComposition.recording(venue: venue.id, store: store)
        }
        for venue in venues {
            catalog[venue.id] = venue
            // In a cluster, a venue runs once its lease is taken (``clusterRound()``).
            if cluster == nil {
                runtimes[venue.id] = try VenueRuntime(
                    venue: venue, learnsSurvey: learned[venue.id] != nil, maximumDevices: self.maximumDevices)
            }
        }
        let registry = VenueRegistry(clustered: cluster != nil, runtimes: runtimes, catalog: catalog)
        let nodeHealth = NodeHealthBook()
        let observers = SubscriberTable<VenueLiveEvents>()
        let scans = ScanSessions()
        let pipeline = IngestPipeline(
            store: store, registry: registry, timeWindow: timeWindow, metrics: metrics, nodeHealth: nodeHealth,
            observers: observers, logger: logger, wallClock: wallClock)
        let resumption = VenueResume(store: store, metrics: metrics, wallClock: wallClock)
        let learning = SurveyLearning(
            surveys: learned, given: surveys, registry: registry, scans: scans, metrics: metrics, logger: logger)
        self.registry = registry
        self.nodeHealth = nodeHealth
        self.observers = observers
        self.scans = scans
        self.pipeline = pipeline
        self.resumption = resumption
        self.learning = learning
        if let cluster, let clusterStore {
            ownership = ClusterOwnership(
                identity: cluster, store: clusterStore, registry: registry, pipeline: pipeline, resumption: resumption,
                learning: learning, scans: scans, nodeHealth: nodeHealth, metrics: metrics, logger: logger,
                maximumDevices: self.maximumDevices)
        } else {
            ownership = nil
        }
        metrics.venues.record(runtimes.count)
        for id in runtimes.keys.sorted() {
            guard let runtime = runtimes[id] else { continue }
            try await resumption.resume(runtime)
            learning.learn(runtime)
        }
        learning.record()
    }

    /// The wall clock the hub stamps arrivals with, Unix seconds.
    public var now: Double { wallClock() }

    // MARK: Venues

    /// The ids of the served venues, sorted (in a cluster: of every stored venue, wherever it runs).
    public var venueIDs: [String] { registry.venueIDs }

    /// The ids of the venues whose session runs here, sorted: all of them for a server alone.
    public var ownedVenueIDs: [String] { registry.ownedVenueIDs }

    /// Whether the session of venue `id` runs here.
    public func owns(venue id: String) -> Bool { registry.owns(venue: id) }

    /// The venue with `id` (in a cluster also one that runs elsewhere), or `nil`.
    public func venue(id: String) -> Venue? { registry.venue(id: id) }

    /// The ids of the venues that have a node `node`, sorted.
    public func venues(withNode node: String) -> [String] { registry.venues(withNode: node) }

    /// The longest id of a venue, node, zone or device the server takes, in characters.
    public static let maximumIDLength = VenueChecks.maximumIDLength

    /// Creates or replaces the venue `id` from its JSON (docs/FORMATS.md), and starts its session afresh.
    /// - Returns: The venue and whether it is new.
    /// - Throws: ``APIError`` (400) naming the field when the JSON is not a valid venue or its `id` differs.
    public func putVenue(id: String, json: Data) async throws -> (venue: Venue, created: Bool) {
        let venue = try VenueChecks.venue(json: json, id: id)
        if let problem = learning.problem(with: venue) {
            throw APIError.badRequest(field: "nodes", problem)
        }
        let current = registry.runtime(id)
        if let current, current.venue == venue {
            // The same venue again: its session, visits and streams carry on untouched.
            return (venue, false)
        }
        let runtime: VenueRuntime
        do {
            runtime = try VenueRuntime(
                venue: venue, learnsSurvey: learning.hasSurvey(venue: id), maximumDevices: maximumDevices,
                lease: current?.lease)
        } catch {
            throw APIError.badRequest(field: "venue", "the venue makes no session: \(error)")
        }
        let created = try await store.putVenue(StoredVenue(id: id, json: try venue.encodeJSON()))
        if let ownership {
            registry.catalogue(venue)
            // Its owner (this instance or another) runs the new version from its next round, which this wakes.
            if current == nil {
                try await ownership.changed(venue: id)
                return (venue, created)
            }
        }
        let old = try await pipeline.replace(venue: id, with: runtime)
        old?.subscribers.finishAll()
        // The observers announce its zones with their counts, and clear those that are gone.
        let removed = Set(old?.venue.zones.map(\.id) ?? []).subtracting(venue.zones.map(\.id)).sorted()
        let removedPersons = Set(old?.venue.persons.map(\.id) ?? []).subtracting(venue.persons.map(\.id)).sorted()
        observers.publish(
            VenueLiveEvents(
                venue: id, events: [], zones: runtime.zoneStates, removedZones: removed,
                persons: runtime.personUpdates, removedPersons: removedPersons))
        scans.forget(venue: id)
        metrics.venues.record(venueIDs.count)
        learning.learn(runtime)
        learning.record()
        return (venue, created)
    }

    /// Replaces the venue `id`'s map from an IMDF archive (a zip) (``VenueChecks/venue(imdf:id:current:)``: its nodes,
    /// SDK geofences and anchor stay as they are).
    /// - Returns: The venue, whether it is new, and the import's report (what the venue does not hold of the archive).
    /// - Throws: ``APIError`` (400, field `body`) with the words `indoor venue import` would print for a bad archive;
    ///   (400, field `nodes`) when there is no venue `id` with nodes to keep.
    public func putVenue(id: String, imdf zip: Data) async throws -> (venue: Venue, created: Bool, report: IMDFReport) {
        let imported = try VenueChecks.venue(imdf: zip, id: id, current: registry.runtime(id)?.venue)
        let (venue, created) = try await putVenue(id: id, json: try imported.venue.encodeJSON())
        return (venue, created, imported.report)
    }

    /// Deletes the venue `id`; its activity stays in the store.
    /// - Returns: Whether there was such a venue.
    public func deleteVenue(id: String) async throws -> Bool {
        let deleted = try await store.deleteVenue(id: id)
        registry.uncatalogue(venue: id)
        let old = registry.removeRuntime(venue: id)
        if let ownership {
            if let lease = old?.lease { try? await ownership.store.releaseLease(lease) }
            try await ownership.changed(venue: id)
        }
        scans.forget(venue: id)
        // The store deleted its survey with it.
        openSurveys.forget(venue: id)
        learning.update(venue: id, survey: nil)
        old?.subscribers.finishAll()
        nodeHealth.forget(venue: id)
        metrics.venues.record(venueIDs.count)
        learning.record()
        return deleted || old != nil
    }

    // MARK: Ingest

    /// Ingests `sightings` for `venue` (``admit(venue:sightings:)``), answering the stored events only.
    public func ingest(venue: String, sightings: [Sighting]) async throws -> [StoredEvent] {
        try await admit(venue: venue, sightings: sightings).stored
    }

    /// Ingests the sightings of `sightings` that the venue can take: the session, then the store, then the
    /// subscribers, one batch of a venue at a time, each device id as ``pseudonyms`` names it, the batches that wait meanwhile committed together
    /// (``IngestPipeline``). Refused, each with why: a time outside the venue's window (``timeWindow``), a node the
    /// venue does not have, a device id longer than ``maximumIDLength``.
    /// - Throws: ``APIError`` (404) for an unknown venue; the store's error when the commit fails (for every batch
    ///   committed with it).
    public func admit(venue: String, sightings: [Sighting]) async throws -> Admission {
        // Gateway-derived ids are replaced before the session, the store, the streams and the topics see them.
        let nodes = registry.runtime(venue)?.nodeIDs ?? []
        return try await pipeline.admit(venue: venue, sightings: pseudonyms.apply(sightings, nodes: nodes))
    }

    /// Moves every venue that has been quiet for `quiet` seconds on in data time by the wall-clock time since its
    /// last sighting, so that devices no longer heard check out (`lost`); stores and streams what falls due.
    public func tick(quiet: Double = 1) async throws {
        try await pipeline.tick(quiet: quiet)
    }

    // MARK: Reading the sessions

    /// The room `device` is in as `venue`'s session holds it (`LocationSession.room(of:)`), in the API's form.
    ///
    /// How many devices `venue`'s session holds now (`LocationSession.heldDevices`: it falls as devices leave);
    /// `nil` for a venue not run here.
    public func heldDevices(venue: String) -> Int? {
        registry.runtime(venue)?.deviceCount
    }

    /// How many visits `venue`'s session keeps in its activity log now (`LocationSession.activity`): none once a
    /// batch or a tick is done, since the store has them; `nil` for a venue not run here. For tests of memory.
    package func loggedVisits(venue: String) -> Int? {
        guard let runtime = registry.runtime(venue) else { return nil }
        return runtime.locked { $0.session.activity.visits.count }
    }

    /// `nil` for an unknown venue, a venue without rooms (zones with polygon fences), and a device the session
    /// holds no fix of (none since the server started or the venue was put, or let go after its silence).
    public func room(venue: String, device: String) -> DeviceRoom? {
        guard let runtime = registry.runtime(venue) else { return nil }
        return runtime.locked { state in runtime.room(of: device, session: state.session) }
    }

    /// The health of each node of `venue` (``NodeHealthBook/health(venue:nodes:at:)``), in the venue's order, with
    /// what the venue's self-calibration fitted for it; `nil` for an unknown venue.
    public func nodes(venue: String) -> [NodeHealth]? {
        nodeList(venue: venue)?.nodes
    }

    /// `GET /v1/venues/{id}/nodes` of `venue` (``NodeList/init(runtime:health:at:)``); `nil` for an unknown venue.
    public func nodeList(venue: String) -> NodeList? {
        guard let runtime = registry.runtime(venue) else { return nil }
        return NodeList(runtime: runtime, health: nodeHealth, at: wallClock())
    }

    // MARK: Live feeds

    /// A live feed of `venue`'s stored events, from now on, each fix with its device's room when it is the
    /// device's latest of its batch (``LiveEvent``); `nil` for an unknown venue.
    /// The stream finishes when the venue is replaced or deleted, or on ``finishSubscribers()``.
    public func subscribe(venue: String) -> AsyncStream<LiveEvent>? {
        guard let runtime = registry.runtime(venue) else { return nil }
        // Drained at once by the stream's own bounded buffer (``ServerConfiguration/streamBuffer``); the bound here
        // only keeps a subscriber that is not drained from holding more.
        return runtime.subscribers.subscribe(bufferingPolicy: .bufferingOldest(100_000))
    }

    /// A live feed of the devices erased from now on (``eraseDevice(_:venue:)``, here or on another instance of a
    /// cluster), for the streams to tell their clients (`event: device-erased`). Ends at ``finishSubscribers()``.
    func subscribeErasures() -> AsyncStream<DeviceErasure> {
        erasures.subscribe(bufferingPolicy: .bufferingOldest(10_000))
    }

    /// Every venue's stored events as they are stored, a batch at a time, for publishing them elsewhere (MQTT).
    ///
    /// At most `buffer` batches wait for the reader; beyond that the oldest waiting are dropped (a reader that
    /// publishes states loses only superseded ones). Ends at ``finishSubscribers()``.
    public func observeAll(buffer: Int = 1000) -> AsyncStream<VenueLiveEvents> {
        observers.subscribe(bufferingPolicy: .bufferingNewest(buffer))
    }

    /// Ends every live feed (at shutdown).
    public func finishSubscribers() {
        for runtime in registry.all { runtime.subscribers.finishAll() }
        erasures.finishAll()
        observers.finishAll()
    }

    // MARK: Surveys and scans

    /// Site surveys (sightings with truth) by venue id, given at start: the session of a venue with one, and its
    /// scans, position over what they learn from it (the default method: a particle filter over a radio map).
    ///
    /// Learning takes seconds (minutes in a debug build), so it is done in the background, one venue at a time: a
    /// venue is served from the moment it is put, without its survey, and its session takes over the learned
    /// positioning when it is ready (`LocationSession.adoptPositioning(of:replaying:)`: zone visits and rooms carry
    /// on), its scans too (``surveyState(venue:)``, ``learned(venue:)``).
    public var surveys: [String: Recording] { learning.surveys }

    /// Whether `venue`'s survey is learned (``SurveyState``): `none` also for a venue that does not run here.
    public func surveyState(venue id: String) -> SurveyState {
        learning.state(venue: id)
    }

    /// Returns once `venue`'s survey is learned (or its learning failed), and at once for a venue without one.
    public func learned(venue id: String) async {
        await learning.finished(venue: id)
    }

    /// The session a scan of `venue` starts from (``ScanSessions/session(venue:)``), over the venue's survey once it
    /// is learned (``surveys``, ``surveyState(venue:)``).
    /// - Throws: ``IndoorSession/ScanError`` when the session cannot start.
    public func scanSession(venue: Venue) throws -> LocationSession {
        try scans.session(venue: venue)
    }

    // MARK: Retention

    /// Deletes what is older than `retention` says (``RetentionSweep``), in rounds of `batch` rows with a pause for
    /// other work between them, so that ingest is never held up for long; records the store's size and oldest rows
    /// in the metrics; the observers are told the devices whose latest fix expired, as erased
    /// (``VenueLiveEvents/erased``: the MQTT publisher empties their retained topics).
    /// - Returns: How many rows of each kind were deleted.
    @discardableResult
    public func prune(_ retention: Retention, batch: Int = 2000) async throws -> Retention.Pruned {
        var pruned = try await RetentionSweep(store: store, metrics: metrics, wallClock: wallClock)
            .prune(retention, batch: batch)
        pruned.closedVisits = try await closeStaleVisits(after: retention.openVisits)
        // The observers clear what they published of the devices whose data expired (their retained topics).
        for (venue, expired) in Dictionary(grouping: pruned.expiredDevices, by: \.venue) {
            observers.publish(VenueLiveEvents(venue: venue, events: [], erased: expired.map(\.device)))
        }
        return pruned
    }

    // MARK: Cluster

    /// The store as a ``ClusterStore``, in a cluster.
    var clusterStore: (any ClusterStore)? { ownership?.store }

    /// The live instance that owns `venue` as of the last round, or `nil` (always for a server alone).
    public func owner(of venue: String) -> ClusterMember? {
        ownership?.owner(of: venue)
    }

    /// The cluster as of the last round (empty for a server alone).
    public var clusterState: ClusterView { ownership?.state ?? ClusterView() }

    /// One round of this instance in its cluster (``ClusterOwnership/round()``); nothing for a server alone.
    public func clusterRound() async throws {
        try await ownership?.round()
    }

    /// Gives up the leases of every venue running here (at shutdown) and tells the other instances
    /// (``ClusterOwnership/leave()``); nothing for a server alone.
    func leaveCluster() async {
        await ownership?.leave()
    }
}
