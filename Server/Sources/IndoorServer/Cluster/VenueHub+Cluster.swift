import Foundation
import IndoorModel
import Logging

extension VenueHub {
    /// The store as a ``ClusterStore`` (checked at the hub's start when it runs in a cluster).
    var clusterStore: (any ClusterStore)? { store as? any ClusterStore }

    /// The live instance that owns `venue` as of the last round, or `nil`.
    public func owner(of venue: String) -> ClusterMember? {
        clusterView.withLock { $0.owner(of: venue) }
    }

    /// The cluster as of the last round.
    public var clusterState: ClusterView { clusterView.withLock { $0 } }

    /// One round of this instance in its cluster (run every ``ClusterIdentity/roundSeconds`` and when another instance
    /// says something changed): says it is alive, reads the stored venues and the leases, places every venue on a
    /// live instance (``VenuePlacement``), renews the leases of the venues it runs and keeps placed here, hands over
    /// those placed elsewhere (a joining instance takes its share), drops those whose lease another instance took or
    /// that were deleted, runs the new version of one changed elsewhere, and takes the venues placed here that nobody
    /// holds (a dead instance's, once its lease has expired), rebuilding each one's session from the store.
    public func clusterRound() async throws {
        try await rounds.run { try await self.round() }
    }

    private func round() async throws {
        guard let cluster, let clusterStore else { return }
        let members = try await clusterStore.heartbeat(
            instance: cluster.instance, url: cluster.url, within: cluster.leaseSeconds)
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
        let leases = try await clusterStore.leases()
        clusterView.withLock { $0 = ClusterView(members: members, leases: leases) }
        let placement = VenuePlacement.owners(venues: Array(venues.keys), members: members.map(\.id))
        var handedOver = false
        for runtime in registry.all {
            let id = runtime.venue.id
            guard let venue = venues[id] else {
                await drop(id, release: true, because: "it was deleted")
                continue
            }
            if let placed = placement[id], placed != cluster.instance {
                await drop(id, release: true, because: "it moves to instance '\(placed)'")
                handedOver = true
                continue
            }
            guard let lease = runtime.lease, try await clusterStore.renewLease(lease, seconds: cluster.leaseSeconds)
            else {
                metrics.leasesLost.increment()
                await drop(id, release: false, because: "another instance took its lease")
                continue
            }
            if venue != runtime.venue { try await rerun(venue, replacing: runtime) }
        }
        for (id, placed) in placement.sorted(by: { $0.key < $1.key })
        where placed == cluster.instance && !owns(venue: id) {
            guard let venue = venues[id] else { continue }
            if let lease = leases[id], !lease.expired, lease.owner != cluster.instance { continue }
            guard
                let lease = try await clusterStore.acquireLease(
                    venue: id, owner: cluster.instance, seconds: cluster.leaseSeconds)
            else { continue }
            do {
                try await take(venue, lease: lease)
            } catch {
                try? await clusterStore.releaseLease(lease)
                logger.error("could not take venue '\(id)'", metadata: ["error": "\(error)"])
            }
        }
        if handedOver { try? await clusterStore.notifyCluster("released") }
        let final = try await clusterStore.leases()
        clusterView.withLock { $0.leases = final }
        metrics.venuesOwned.record(ownedVenueIDs.count)
        metrics.clusterMembers.record(members.count)
        metrics.venues.record(venues.count)
    }

    /// Runs `venue` here under `lease`: its session is rebuilt from the store (``VenueResume/resume(_:)``) before any batch can
    /// reach it, then it learns its survey if it has one.
    private func take(_ venue: Venue, lease: VenueLease) async throws {
        let runtime = try VenueRuntime(venue: venue, learnsSurvey: learning.hasSurvey(venue: venue.id), lease: lease)
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
            venue: venue, learnsSurvey: learning.hasSurvey(venue: venue.id), lease: runtime.lease)
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
        if release, let lease = runtime.lease { try? await clusterStore?.releaseLease(lease) }
        logger.info("venue '\(id)' no longer runs here: \(reason)")
    }

    /// After venue `id` was put or deleted here: tells the other instances, and runs a round now, so a new venue is
    /// placed and taken before the answer.
    func clusterChanged(venue id: String) async throws {
        try await clusterStore?.notifyCluster("venue:\(id)")
        try await clusterRound()
    }
}

extension VenueHub {
    /// Gives up the leases of every venue running here (at shutdown), after each one's batch in progress, and tells
    /// the other instances, which take them over at once.
    func leaveCluster() async {
        for id in ownedVenueIDs { await drop(id, release: true, because: "this instance stops") }
        try? await clusterStore?.notifyCluster("released")
    }
}

/// A stored venue's JSON and the venue decoded from it.
struct DecodedVenue: Sendable {
    var json: Data
    var venue: Venue
}
