extension VenueHub {
    /// Deletes what is older than `retention` says (by the wall clock), in rounds of `batch` rows with a pause for
    /// other work between them, so that ingest is never held up for long; records the store's size and oldest rows
    /// in the metrics.
    /// - Returns: How many rows of each kind were deleted.
    @discardableResult
    public func prune(_ retention: Retention, batch: Int = 2000) async throws -> Retention.Pruned {
        let now = wallClock()
        var pruned = Retention.Pruned()
        pruned.sightings = try await Self.rounds(retention.sightings, now: now) {
            try await self.store.pruneSightings(receivedBefore: $0, limit: batch)
        }
        pruned.events = try await Self.rounds(retention.events, now: now) {
            try await self.store.pruneEvents(storedBefore: $0, limit: batch)
        }
        pruned.visits = try await Self.rounds(retention.visits, now: now) {
            try await self.store.pruneVisits(closedBefore: $0, limit: batch)
        }
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

    /// Runs `round` with the cutoff `now − retain` until a round deletes fewer than it may; none for an infinite
    /// `retain`. A round deletes at most its batch, so a round shorter than that means nothing older is left.
    private static func rounds(
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
