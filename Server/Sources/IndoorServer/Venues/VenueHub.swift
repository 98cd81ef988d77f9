import Foundation
import IndoorArchive
import IndoorGeofencing
import IndoorModel
import IndoorSession
import Logging
import Synchronization

/// The venues the server serves, each with its `LocationSession`, and the live subscribers of its events.
///
/// Every sighting goes through the venue's session (the server holds no positioning, ranging or zone rules):
/// a batch is ingested, the fixes and zone events it caused are committed to the store with the sightings in
/// one transaction, and only then handed to the stream's subscribers and returned to the caller. One venue's
/// batches are serialised (its session is one value), so its events are stored and streamed in the order they
/// arose; different venues proceed in parallel.
public final class VenueHub: Sendable {
    /// The store everything is committed to.
    public let store: any LocationStore
    /// Site surveys (sightings with truth) by venue id, given at start: the session of a venue with one, and its
    /// scans, position over what they learn from it (the default method: a particle filter over a radio map).
    ///
    /// Learning takes seconds (minutes in a debug build), so it is done in the background, one venue at a time: a
    /// venue is served from the moment it is put, without its survey, and its session takes over the learned
    /// positioning when it is ready (`LocationSession.adoptPositioning(of:replaying:)`: zone visits and rooms carry
    /// on), its scans too (``surveyState(venue:)``, ``learned(venue:)``).
    public var surveys: [String: Recording] { learning.surveys }
    let metrics: ServerMetrics
    /// The venues run here and, in a cluster, every stored venue.
    let registry: VenueRegistry
    /// Each venue's scan session.
    let scans = ScanSessions()
    /// Each venue's survey, learned in the background.
    let learning: SurveyLearning
    /// Each venue's session rebuilt from the store when it starts running here.
    let resumption: VenueResume
    /// Each venue's batches, ticks and replacement, run as its jobs.
    let pipeline: IngestPipeline
    let logger: Logger
    let wallClock: @Sendable () -> Double
    /// Each node's health by venue: when it was last heard and what its gateway said (``NodeHealthBook``).
    public let nodeHealth = NodeHealthBook()
    /// The feeds of ``observeAll()``.
    let observers = SubscriberTable<VenueLiveEvents>()
    /// Which sightings each venue takes by their time.
    public let timeWindow: SightingTimeWindow
    /// This instance's part in a cluster of servers sharing the store, or `nil` for a server alone: then it runs
    /// only the venues whose lease it holds (``clusterRound()``), and knows the others from the store.
    public let cluster: ClusterIdentity?
    /// In a cluster: the stored venues as the last round read and decoded them, so that a round decodes only the
    /// venues whose JSON changed.
    let decodedVenues = Mutex<[String: DecodedVenue]>([:])
    /// In a cluster: the live instances and the leases, as of the last round.
    let clusterView = Mutex(ClusterView())
    /// In a cluster: the rounds of ``clusterRound()``, one at a time.
    let rounds = SerialJobs()

    /// A hub over `store`, with a session for each stored venue (a restart carries on from the store).
    /// - Parameters:
    ///   - surveys: Site surveys by venue id (``surveys``); a venue learns from its survey in the background once it
    ///     starts (seconds for a few hundred surveyed points in a release build).
    ///   - logger: Where the end of each venue's learning is told (how long it took, or why it failed).
    ///   - wallClock: Seconds since 1970, used to stamp arrivals and to move quiet venues on.
    ///   - timeWindow: Which sightings each venue takes by their time.
    /// - Throws: A stored venue that no longer decodes or makes no session, or whose survey hears none of its nodes.
    public init(
        store: any LocationStore, metrics: ServerMetrics, surveys: [String: Recording] = [:],
        logger: Logger = Logger(label: "indoor.hub", factory: { _ in SwiftLogNoOpLogHandler() }),
        wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        timeWindow: SightingTimeWindow = SightingTimeWindow(), cluster: ClusterIdentity? = nil
    ) async throws {
        if cluster != nil, !(store is any ClusterStore) {
            throw StoreError("a cluster of servers needs a PostgreSQL database (--database postgres://…)")
        }
        self.timeWindow = timeWindow
        self.cluster = cluster
        self.store = store
        self.metrics = metrics
        self.logger = logger
        self.wallClock = wallClock
        var runtimes: [String: VenueRuntime] = [:]
        var catalog: [String: Venue] = [:]
        for stored in try await store.venues() {
            let venue = try Venue.decodeJSON(stored.json, file: "venue '\(stored.id)'")
            if let problem = SurveyLearning.problem(venue, surveys[venue.id]) {
                throw APIError.badRequest(field: "nodes", problem)
            }
            catalog[venue.id] = venue
            // In a cluster, a venue runs once its lease is taken (``clusterRound()``).
            if cluster == nil {
                runtimes[venue.id] = try VenueRuntime(venue: venue, learnsSurvey: surveys[venue.id] != nil)
            }
        }
        registry = VenueRegistry(clustered: cluster != nil, runtimes: runtimes, catalog: catalog)
        resumption = VenueResume(store: store, metrics: metrics, wallClock: wallClock)
        pipeline = IngestPipeline(
            store: store, registry: registry, timeWindow: timeWindow, metrics: metrics, nodeHealth: nodeHealth,
            observers: observers, logger: logger, wallClock: wallClock)
        learning = SurveyLearning(surveys: surveys, registry: registry, scans: scans, metrics: metrics, logger: logger)
        metrics.venues.record(runtimes.count)
        for id in runtimes.keys.sorted() {
            guard let runtime = runtimes[id] else { continue }
            try await resumption.resume(runtime)
            learning.learn(runtime)
        }
        learning.record()
    }

    /// The ids of the served venues, sorted (in a cluster: of every stored venue, wherever it runs).
    public var venueIDs: [String] {
        registry.venueIDs
    }

    /// The ids of the venues whose session runs here, sorted: all of them for a server alone.
    public var ownedVenueIDs: [String] { registry.ownedVenueIDs }

    /// Whether the session of venue `id` runs here.
    public func owns(venue id: String) -> Bool { registry.owns(venue: id) }

    /// The venue with `id` (in a cluster also one that runs elsewhere), or `nil`.
    public func venue(id: String) -> Venue? {
        registry.venue(id: id)
    }

    /// Creates or replaces the venue `id` from its JSON (docs/FORMATS.md), and starts its session afresh.
    /// - Returns: The venue and whether it is new.
    /// - Throws: ``APIError`` (400) naming the field when the JSON is not a valid venue or its `id` differs.
    public func putVenue(id: String, json: Data) async throws -> (venue: Venue, created: Bool) {
        let venue: Venue
        do {
            venue = try Venue.decodeJSON(json, file: "venue")
        } catch let error as FormatError {
            throw APIError.badRequest(field: error.field ?? "venue", error.message)
        }
        guard venue.id == id else {
            throw APIError.badRequest(
                field: "id", "id '\(venue.id)' differs from the path's venue id '\(id)'; they must be equal")
        }
        if let problem = Self.idProblem(venue) { throw APIError.badRequest(field: problem.field, problem.message) }
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
            runtime = try VenueRuntime(venue: venue, learnsSurvey: learning.hasSurvey(venue: id), lease: current?.lease)
        } catch {
            throw APIError.badRequest(field: "venue", "the venue makes no session: \(error)")
        }
        let created = try await store.putVenue(StoredVenue(id: id, json: try venue.encodeJSON()))
        if cluster != nil {
            registry.catalogue(venue)
            // Its owner (this instance or another) runs the new version from its next round, which this wakes.
            if current == nil {
                try await clusterChanged(venue: id)
                return (venue, created)
            }
        }
        let old = try await pipeline.replace(venue: id, with: runtime)
        old?.subscribers.finishAll()
        scans.forget(venue: id)
        metrics.venues.record(venueIDs.count)
        learning.learn(runtime)
        learning.record()
        return (venue, created)
    }

    /// Replaces the venue `id`'s map from an IMDF archive (a zip): name, floors, rooms (zones), walls and
    /// connections come from the archive; its nodes and SDK geofences stay as they are, and so does its anchor, which
    /// places the archive in the frame the nodes are in (a venue without one takes the IMDF venue's display point).
    /// - Returns: The venue and whether it is new.
    /// - Throws: ``APIError`` (400, field `body`) with the words `indoor venue import` would print for a bad archive;
    ///   (400, field `nodes`) when there is no venue `id` with nodes to keep.
    public func putVenue(id: String, imdf zip: Data) async throws -> (venue: Venue, created: Bool) {
        let current = registry.runtime(id)?.venue
        let imported: IMDFImport
        do {
            imported = try IMDFArchive.venue(zip: zip, id: id, anchor: current?.anchor)
        } catch let error as ZipError {
            throw APIError.badRequest(field: "body", error.description)
        } catch let error as IMDFError {
            throw APIError.badRequest(field: "body", error.description)
        }
        guard let current, !current.nodes.isEmpty else {
            throw APIError.badRequest(
                field: "nodes",
                "an IMDF archive has no nodes: PUT venue '\(id)' as JSON with its nodes first (or run `indoor venue "
                    + "import` and add them to the file); a zip body then replaces its floors, rooms, walls and "
                    + "connections and keeps its nodes")
        }
        var venue = imported.venue
        venue.nodes = current.nodes
        venue.geofences = current.geofences
        return try await putVenue(id: id, json: try venue.encodeJSON())
    }

    /// The longest id of a venue, node, zone or device the server takes, in characters.
    public static let maximumIDLength = 128

    /// What makes `venue` one the server does not take, beyond what ``Venue/decodeJSON(_:file:)`` checks: no nodes
    /// (nothing could ever be located), an id longer than ``maximumIDLength``.
    static func idProblem(_ venue: Venue) -> (field: String, message: String)? {
        func tooLong(_ id: String) -> Bool { id.count > maximumIDLength }
        if tooLong(venue.id) {
            return ("id", "the venue id is \(venue.id.count) characters long; ids have at most \(maximumIDLength)")
        }
        guard !venue.nodes.isEmpty else {
            return (
                "nodes",
                "the venue has no nodes: list where each beacon or gateway is (\"nodes\": [{\"id\": \"n1\", \"x\": 0, "
                    + "\"y\": 0}]), or nothing can be located"
            )
        }
        if let index = venue.nodes.firstIndex(where: { tooLong($0.id) }) {
            return ("nodes[\(index)].id", "node ids have at most \(maximumIDLength) characters")
        }
        if let index = venue.zones.firstIndex(where: { tooLong($0.id) }) {
            return ("zones[\(index)].id", "zone ids have at most \(maximumIDLength) characters")
        }
        return nil
    }

    /// Deletes the venue `id`; its activity stays in the store.
    /// - Returns: Whether there was such a venue.
    public func deleteVenue(id: String) async throws -> Bool {
        let deleted = try await store.deleteVenue(id: id)
        registry.uncatalogue(venue: id)
        let old = registry.removeRuntime(venue: id)
        if cluster != nil {
            if let lease = old?.lease { try? await (store as? any ClusterStore)?.releaseLease(lease) }
            try await clusterChanged(venue: id)
        }
        scans.forget(venue: id)
        old?.subscribers.finishAll()
        nodeHealth.forget(venue: id)
        metrics.venues.record(venueIDs.count)
        learning.record()
        return deleted || old != nil
    }

    /// The room `device` is in as `venue`'s session holds it (`LocationSession.room(of:)`), in the API's form.
    ///
    /// `nil` for an unknown venue, a venue without rooms (zones with polygon fences), and a device the session
    /// has had no fix of in the last hour of data time (or none since the server started or the venue was put).
    public func room(venue: String, device: String) -> DeviceRoom? {
        guard let runtime = registry.runtime(venue) else { return nil }
        return runtime.locked { state in runtime.room(of: device, session: state.session) }
    }

    /// The wall clock the hub stamps arrivals with, Unix seconds.
    public var now: Double { wallClock() }

    /// Deletes what is older than `retention` says (``RetentionSweep``), in rounds of `batch` rows with a pause for
    /// other work between them, so that ingest is never held up for long; records the store's size and oldest rows
    /// in the metrics.
    /// - Returns: How many rows of each kind were deleted.
    @discardableResult
    public func prune(_ retention: Retention, batch: Int = 2000) async throws -> Retention.Pruned {
        try await RetentionSweep(store: store, metrics: metrics, wallClock: wallClock).prune(retention, batch: batch)
    }

    /// Ingests `sightings` for `venue` (``admit(venue:sightings:)``), answering the stored events only.
    public func ingest(venue: String, sightings: [Sighting]) async throws -> [StoredEvent] {
        try await admit(venue: venue, sightings: sightings).stored
    }

    /// Ingests the sightings of `sightings` that the venue can take: the session, then the store, then the
    /// subscribers, one batch of a venue at a time, the batches that wait meanwhile committed together
    /// (``IngestPipeline``). Refused, each with why: a time outside the venue's window (``timeWindow``), a node the
    /// venue does not have, a device id longer than ``maximumIDLength``.
    /// - Throws: ``APIError`` (404) for an unknown venue; the store's error when the commit fails (for every batch
    ///   committed with it).
    public func admit(venue: String, sightings: [Sighting]) async throws -> Admission {
        try await pipeline.admit(venue: venue, sightings: sightings)
    }

    /// Moves every venue that has been quiet for `quiet` seconds on in data time by the wall-clock time since its
    /// last sighting, so that devices no longer heard check out (`lost`); stores and streams what falls due.
    public func tick(quiet: Double = 1) async throws {
        try await pipeline.tick(quiet: quiet)
    }

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
}
