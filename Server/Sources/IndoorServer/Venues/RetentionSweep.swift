/// Retention: deletes the sightings, events, closed visits, latest fixes and audit entries older than a ``Retention``
/// says, by the wall clock, in rounds of a batch of rows with a pause for other work between them, so that ingest is
/// never held up for long; then records the store's size and oldest rows in the metrics.
struct RetentionSweep: Sendable {
    /// The store pruned.
    let store: any LocationStore
    let metrics: ServerMetrics
    /// Seconds since 1970: what "older than" is measured from.
    let wallClock: @Sendable () -> Double

    /// Deletes what is older than `retention` says, in rounds of `batch` rows.
    /// - Returns: How many rows of each kind were deleted.
    func prune(_ retention: Retention, batch: Int) async throws -> Retention.Pruned {
        let now = wallClock()
        var pruned = Retention.Pruned()
        pruned.sightings = try await Self.rounds(retention.sightings, now: now) {
            try await store.pruneSightings(receivedBefore: $0, limit: batch)
        }
        pruned.events = try await Self.rounds(retention.events, now: now) {
            try await store.pruneEvents(storedBefore: $0, limit: batch)
        }
        pruned.visits = try await Self.rounds(retention.visits, now: now) {
            try await store.pruneVisits(closedBefore: $0, limit: batch)
        }
        pruned.audit = try await Self.rounds(retention.audit, now: now) {
            try await store.pruneAudit(recordedBefore: $0, limit: batch)
        }
        // A latest fix goes with its venue's events (none are pruned with an infinite retention).
        if retention.events.isFinite { pruned.expiredDevices = try await store.pruneLatestFixes() }
        metrics.sightingsPruned.increment(by: pruned.sightings)
        metrics.eventsPruned.increment(by: pruned.events)
        metrics.visitsPruned.increment(by: pruned.visits)
        let storage = try await store.storage()
        metrics.storeBytes.record(storage.bytes)
        metrics.oldestSighting.record(storage.oldestSighting ?? 0)
        metrics.oldestEvent.record(storage.oldestEvent ?? 0)
        metrics.oldestVisit.record(storage.oldestVisit ?? 0)
        return pruned
    }

    /// Runs `round` with the cutoff `now − retain` until a round deletes nothing, yielding to other tasks between
    /// rounds; none for an infinite `retain`.
    /// - Returns: The rows the rounds deleted, in all.
    static func rounds(
        _ retain: Double, now: Double, _ round: (Double) async throws -> Int
    ) async throws -> Int {
        guard retain.isFinite else { return 0 }
        var deleted = 0
        var previous = -1
        while previous != 0 {
            previous = try await round(now - retain)
            deleted += previous
            await Task.yield()
        }
        return deleted
    }
}
