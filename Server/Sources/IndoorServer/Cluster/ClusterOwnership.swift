import Foundation
import IndoorModel
import IndoorSession
import Logging
import Synchronization

/// This instance's ownership of venues in a cluster of servers sharing one PostgreSQL database: its rounds
/// (``round()``), which place every venue on a live instance (``VenuePlacement``) and take, renew, hand over and drop
/// the venues' leases; the venues it takes run here, rebuilt from the store (``VenueResume``). What the last round
/// saw (the live instances and the leases) answers who owns a venue (``owner(of:)``) for ``OwnerForwarder``.
final class ClusterOwnership: Sendable {
    /// This instance's id, address and lease length.
    let identity: ClusterIdentity
    /// The shared database.
    let store: any ClusterStore
    private let registry: VenueRegistry
    private let pipeline: IngestPipeline
    private let resumption: VenueResume
    private let learning: SurveyLearning
    private let scans: ScanSessions
    private let nodeHealth: NodeHealthBook
    private let metrics: ServerMetrics
    private let logger: Logger
    /// The most devices the session of each venue taken here holds at once (``VenueHub/maximumDevices``).
    private let maximumDevices: Int
    /// The stored venues as the last round read and decoded them, so that a round decodes only the venues whose JSON
    /// changed.
    private let decodedVenues = Mutex<[String: DecodedVenue]>([:])
    /// The live instances and the leases, as of the last round.
    private let view = Mutex(ClusterView())
    /// The rounds, one at a time.
    private let rounds = SerialJobs()

    /// The ownership of `identity` over `store`, running the venues it takes in the hub's parts.
    init(
        identity: ClusterIdentity, store: any ClusterStore, registry: VenueRegistry, pipeline: IngestPipeline,
        resumption: VenueResume, learning: SurveyLearning, scans: ScanSessions, nodeHealth: NodeHealthBook,
        metrics: ServerMetrics, logger: Logger, maximumDevices: Int = SessionConfiguration.defaultMaximumDevices
    ) {
        self.identity = identity
        self.store = store
        self.registry = registry
        self.pipeline = pipeline
        self.resumption = resumption
        self.learning = learning
        self.scans = scans
        self.nodeHealth = nodeHealth
        self.metrics = metrics
        self.logger = logger
        self.maximumDevices = maximumDevices
    }

    /// The live instance that owns `venue` as of the last round, or `nil`.
    func owner(of venue: String) -> ClusterMember? {
        view.withLock { $0.owner(of: venue) }
    }

    /// The cluster as of the last round.
    var state: ClusterView { view.withLock { $0 } }

    /// One round of this instance in its cluster (run every ``ClusterIdentity/roundSeconds`` and when another instance
    /// says something changed): says it is alive, reads the stored venues and the leases, places every venue on a
    /// live instance (``VenuePlacement``), renews the leases of the venues it runs and keeps placed here, hands over
    /// those placed elsewhere (a joining instance takes its share), drops those whose lease another instance took or
    /// that were deleted, runs the new version of one changed elsewhere, and takes the venues placed here that nobody
    /// holds (a dead instance's, once its lease has expired), rebuilding each one's session from the store.
    func round() async throws {
        try await rounds.run { try await self.runRound() }
    }

    private func runRound() async throws {
        let members = try await store.heartbeat(
            instance: identity.instance, url: identity.url, within: identity.leaseSeconds)
        // Only a venue whose stored JSON changed since the last round is decoded again.
        let known = decodedVenues.withLock { $0 }
        var decoded: [String: DecodedVenue] = [:]
        for stored in try await store.venues() {
            if let previous = known[stored.id], previous.json == stored.json {
                decoded[stored.id] = previous
                continue
            }
            do {
                let venue = try Venue.decodeJSON(stored.json, file: "venue '\(stored.id)'")
                decoded[stored.id] = DecodedVenue(json: stored.json, venue: venue)
            } catch {
                logger.error("stored venue '\(stored.id)' does not decode; not served", metadata: ["error": "\(error)"])
            }
        }
        decodedVenues.withLock { $0 = decoded }
        let venues = decoded.mapValues(\.venue)
        registry.replaceCatalog(venues)
        let leases = try await store.leases()
        view.withLock { $0 = ClusterView(members: members, leases: leases) }
        let placement = VenuePlacement.owners(venues: Array(venues.keys), members: members.map(\.id))
        var handedOver = false
        for runtime in registry.all {
            let id = runtime.venue.id
            guard let venue = venues[id] else {
                await drop(id, release: true, because: "it was deleted")
                continue
            }
            if let placed = placement[id], placed != identity.instance {
                await drop(id, release: true, because: "it moves to instance '\(placed)'")
                handedOver = true
                continue
            }
            guard let lease = runtime.lease, try await store.renewLease(lease, seconds: identity.leaseSeconds)
            else {
                metrics.leasesLost.increment()
                await drop(id, release: false, because: "another instance took its lease")
                continue
            }
            if venue != runtime.venue { try await rerun(venue, replacing: runtime) }
        }
        for (id, placed) in placement.sorted(by: { $0.key < $1.key })
        where placed == identity.instance && !registry.owns(venue: id) {
            guard let venue = venues[id] else { continue }
            if let lease = leases[id], !lease.expired, lease.owner != identity.instance { continue }
            guard
                let lease = try await store.acquireLease(
                    venue: id, owner: identity.instance, seconds: identity.leaseSeconds)
            else { continue }
            do {
                try await take(venue, lease: lease)
            } catch {
                try? await store.releaseLease(lease)
                logger.error("could not take venue '\(id)'", metadata: ["error": "\(error)"])
            }
        }
        if handedOver { try? await store.notifyCluster("released") }
        let final = try await store.leases()
        view.withLock { $0.leases = final }
        metrics.venuesOwned.record(registry.ownedVenueIDs.count)
        metrics.clusterMembers.record(members.count)
        metrics.venues.record(venues.count)
    }

    /// Runs `venue` here under `lease`: its session is rebuilt from the store (``VenueResume/resume(_:)``) before any batch can
    /// reach it, then it learns its survey (as stored now) if it has one.
    private func take(_ venue: Venue, lease: VenueLease) async throws {
        // Its survey as stored now (recorded or put through its owner before), its open recordings read afresh.
        learning.update(venue: venue.id, survey: try await SurveyComposition.recording(venue: venue.id, store: store))
        pipeline.surveys.forget(venue: venue.id)
        let runtime = try VenueRuntime(
            venue: venue, learnsSurvey: learning.hasSurvey(venue: venue.id), maximumDevices: maximumDevices,
            lease: lease)
        try await resumption.resume(runtime)
        registry.run(runtime)
        metrics.venuesTaken.increment()
        logger.info("instance '\(lease.owner)' runs venue '\(venue.id)' (lease epoch \(lease.epoch))")
        learning.learn(runtime)
        learning.record()
    }

    /// Runs the new version `venue` (changed by another instance) in place of `runtime`, carrying its visits over.
    private func rerun(_ venue: Venue, replacing runtime: VenueRuntime) async throws {
        let new = try VenueRuntime(
            venue: venue, learnsSurvey: learning.hasSurvey(venue: venue.id), maximumDevices: maximumDevices,
            lease: runtime.lease)
        let old = try await pipeline.replace(venue: venue.id, with: new)
        old?.subscribers.finishAll()
        scans.forget(venue: venue.id)
        learning.learn(new)
        learning.record()
    }

    /// Stops running venue `id` here, after the batch it is committing; with `release`, gives its lease up so the
    /// instance it is placed on takes it at once.
    private func drop(_ id: String, release: Bool, because reason: String) async {
        guard let runtime = registry.runtime(id) else { return }
        _ = try? await runtime.jobs.run { runtime.locked { $0.retired = true } }
        registry.remove(runtime)
        runtime.subscribers.finishAll()
        nodeHealth.forget(venue: id)
        if release, let lease = runtime.lease { try? await store.releaseLease(lease) }
        logger.info("venue '\(id)' no longer runs here: \(reason)")
    }

    /// After venue `id` was put or deleted here: tells the other instances, and runs a round now, so a new venue is
    /// placed and taken before the answer.
    func changed(venue id: String) async throws {
        try await store.notifyCluster("venue:\(id)")
        try await round()
    }

    /// Gives up the leases of every venue running here (at shutdown), after each one's batch in progress, and tells
    /// the other instances, which take them over at once.
    func leave() async {
        for id in registry.ownedVenueIDs { await drop(id, release: true, because: "this instance stops") }
        try? await store.notifyCluster("released")
    }
}

/// A stored venue's JSON and the venue decoded from it.
private struct DecodedVenue: Sendable {
    var json: Data
    var venue: Venue
}
