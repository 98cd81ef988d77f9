import Foundation
import IndoorModel
import IndoorSession

extension VenueHub {
    /// Ingests `sightings` for `venue` (``admit(venue:sightings:)``), answering the stored events only.
    public func ingest(venue: String, sightings: [Sighting]) async throws -> [StoredEvent] {
        try await admit(venue: venue, sightings: sightings).stored
    }

    /// What ``admit(venue:sightings:)`` did with a batch.
    public struct Admission: Sendable {
        /// The stored events the batch caused, in time order.
        public var stored: [StoredEvent]
        /// The sightings refused: their index in the batch given, the field that was wrong (`t`, `node`, `device`)
        /// and why.
        public var refused: [(index: Int, field: String, message: String)]
        /// Each stored event's JSON as the store keeps it (``ServerEvent/json(_:)``), in the order of `stored`.
        public var eventJSON: [Data] = []
    }

    /// Ingests the sightings of `sightings` that the venue can take: the session, then the store, then the
    /// subscribers, one batch of a venue at a time (``SerialJobs``); no lock is held while the store commits.
    /// Batches that wait for the venue while a commit is under way are taken together by the next job: each through
    /// the session in turn, then all committed in one transaction (``LocationStore/commit(batches:)``), then each
    /// answered and streamed in turn. So a venue's throughput is not bounded by one commit's latency per batch, and
    /// each batch is still answered only once it is committed. In a cluster (a venue held under a lease) each batch
    /// commits alone: grouped, the cluster's ingest measured slower (docs/notes/group-commit.md).
    /// Refused, each with why: a time outside the venue's window (``timeWindow``), a node the venue does not have, a
    /// device id longer than ``maximumIDLength``.
    /// - Throws: ``APIError`` (404) for an unknown venue; the store's error when the commit fails (for every batch
    ///   committed with it).
    public func admit(venue: String, sightings: [Sighting]) async throws -> Admission {
        while true {
            guard let runtime = registry.runtime(venue) else {
                if registry.clustered, registry.catalogued(venue: venue) { throw VenueElsewhereError(venue: venue) }
                throw APIError.notFound(
                    field: "venue", "venue '\(venue)' does not exist; create it with PUT /v1/venues/\(venue)")
            }
            let waiting = VenueRuntime.WaitingBatch(sightings)
            if runtime.lease == nil {
                runtime.wait(waiting)
                // This job, or one given before it, takes every batch waiting by then (this one among them).
                try await runtime.jobs.run { await self.admit(runtime.takeWaiting(), runtime: runtime) }
            } else {
                // In a cluster each batch commits alone (docs/notes/group-commit.md).
                try await runtime.jobs.run { await self.admit([waiting], runtime: runtime) }
            }
            guard let answer = waiting.answer else {
                throw StoreError("the batch was not taken by its venue's ingest job")
            }
            // nil when the runtime was replaced while this batch waited for it: then the new one takes it.
            if let admission = try answer.get() { return admission }
        }
    }

    /// A batch through the session, before its commit.
    private struct PreparedBatch {
        var taken: [Sighting]
        var events: [ServerEvent]
        var refused: [(index: Int, field: String, message: String)]
        /// Node-to-node sightings the session took: used, ignored.
        var links: (used: Int, ignored: Int)
        /// The room, right after this batch, of each device with a fix in it (``VenueRuntime/room(of:session:)``).
        var rooms: [String: DeviceRoom]
    }

    /// As one of `runtime`'s jobs: the batches of `group` (those waiting for it), through the session one after
    /// another, committed in one transaction, then each answered, counted and streamed in turn.
    private func admit(_ group: [VenueRuntime.WaitingBatch], runtime: VenueRuntime) async {
        guard !group.isEmpty else { return }
        let now = wallClock()
        var prepared: [PreparedBatch] = []
        prepared.reserveCapacity(group.count)
        for waiting in group {
            guard let batch = prepare(waiting.sightings, runtime: runtime, now: now) else {
                // Retired: every batch of the group looks the venue up again.
                for waiting in group { waiting.answer = .success(nil) }
                return
            }
            prepared.append(batch)
        }
        // Encoded once, here: the store keeps these bytes and the ingest route answers with them.
        let encoder = JSONFormat.encoder()
        do {
            let batches = try prepared.filter { !$0.taken.isEmpty }.map { batch in
                IngestBatch(
                    venue: runtime.venue.id, sightings: batch.taken, events: batch.events, receivedAt: now,
                    lease: runtime.lease, eventJSON: try batch.events.map { try $0.json(encoder) })
            }
            var committed = zip(batches, try await commitOwned(batches, runtime: runtime)).makeIterator()
            if !batches.isEmpty {
                metrics.ingestCommits.increment()
                metrics.ingestBatches.increment(by: batches.count)
            }
            for (waiting, batch) in zip(group, prepared) {
                guard !batch.taken.isEmpty, let (ingest, stored) = committed.next() else {
                    waiting.answer = .success(Admission(stored: [], refused: batch.refused))
                    continue
                }
                admitted(batch, stored: stored, runtime: runtime, now: now)
                waiting.answer = .success(
                    Admission(stored: stored, refused: batch.refused, eventJSON: ingest.eventJSON ?? []))
            }
        } catch {
            for (waiting, batch) in zip(group, prepared) {
                waiting.answer =
                    batch.taken.isEmpty ? .success(Admission(stored: [], refused: batch.refused)) : .failure(error)
            }
        }
    }

    /// `sightings` through `runtime`'s session: what it took and refused, and the events it made; `nil` when the
    /// runtime is retired.
    private func prepare(_ sightings: [Sighting], runtime: VenueRuntime, now: Double) -> PreparedBatch? {
        let window = timeWindow
        return runtime.locked { state -> PreparedBatch? in
            guard !state.retired else { return nil }
            var refused: [(index: Int, field: String, message: String)] = []
            let base = state.timeBase ?? SightingTimeWindow.base(of: sightings.first?.time ?? 0)
            // The venue's present in its own time, moved on by each sighting taken.
            var present = state.lastDataTime.map { $0 + max(0, now - (state.lastArrival ?? now)) }
            var taken: [Sighting] = []
            taken.reserveCapacity(sightings.count)
            for (index, sighting) in sightings.enumerated() {
                if let problem = runtime.problem(with: sighting) {
                    refused.append((index, problem.field, problem.message))
                    continue
                }
                let range = window.range(base: base, present: present, wallClock: now)
                if range.contains(sighting.time) {
                    taken.append(sighting)
                    present = max(present ?? sighting.time, sighting.time)
                } else {
                    refused.append((index, "t", SightingTimeWindow.refusal(sighting.time, base: base, range: range)))
                }
            }
            guard !taken.isEmpty else {
                return PreparedBatch(taken: [], events: [], refused: refused, links: (0, 0), rooms: [:])
            }
            state.timeBase = base
            let linksBefore = (state.session.statistics.nodeLinks, state.session.statistics.ignoredNodeLinks)
            let events = ServerEvent.stored(from: state.session.ingest(taken))
            let links = (
                state.session.statistics.nodeLinks - linksBefore.0,
                state.session.statistics.ignoredNodeLinks - linksBefore.1
            )
            state.recent?.append(contentsOf: taken)
            if let last = taken.map(\.time).max() {
                state.lastDataTime = max(state.lastDataTime ?? last, last)
                state.lastArrival = now
            }
            // A node heard by another is no device.
            for sighting in taken where !state.session.isNodeLink(sighting.device) {
                state.devices.insert(sighting.device)
            }
            var rooms: [String: DeviceRoom] = [:]
            for event in events {
                guard case .fix(let fix) = event, rooms[fix.device] == nil,
                    let room = runtime.room(of: fix.device, session: state.session)
                else { continue }
                rooms[fix.device] = room
            }
            return PreparedBatch(taken: taken, events: events, refused: refused, links: links, rooms: rooms)
        }
    }

    /// After `batch` was committed as `stored`: streams it, and counts its sightings, nodes heard and devices.
    private func admitted(_ batch: PreparedBatch, stored: [StoredEvent], runtime: VenueRuntime, now: Double) {
        let live = runtime.live(stored, rooms: batch.rooms)
        runtime.subscribers.publish(live)
        notifyObservers(venue: runtime.venue.id, live)
        var heard: [String: Int] = [:]
        for sighting in batch.taken {
            if case .node(let node) = sighting.source { heard[node, default: 0] += 1 }
        }
        for (node, count) in heard { nodeHealth.heard(venue: runtime.venue.id, node: node, count: count, at: now) }
        metrics.sightingsIngested.increment(by: batch.taken.count)
        metrics.recordNodeLinks(venue: runtime.venue.id, used: batch.links.used, ignored: batch.links.ignored)
        metrics.devicesTracked.record(registry.deviceCount)
        metrics.recordStored(stored)
    }

    /// Moves every venue that has been quiet for `quiet` seconds on in data time by the wall-clock time since its
    /// last sighting, so that devices no longer heard check out (`lost`); stores and streams what falls due.
    public func tick(quiet: Double = 1) async throws {
        let now = wallClock()
        let all = registry.all
        for runtime in all {
            let stored = try await runtime.jobs.run { () async throws -> [StoredEvent] in
                let events = runtime.locked { state -> [ServerEvent] in
                    guard !state.retired, let lastData = state.lastDataTime, let lastArrival = state.lastArrival,
                        now - lastArrival >= quiet
                    else { return [] }
                    return ServerEvent.stored(from: state.session.advance(to: lastData + (now - lastArrival)))
                }
                guard !events.isEmpty else { return [] }
                let stored = try await self.commitOwned(
                    IngestBatch(
                        venue: runtime.venue.id, sightings: [], events: events, receivedAt: now, lease: runtime.lease),
                    runtime: runtime)
                let live = stored.map { LiveEvent(stored: $0) }
                runtime.subscribers.publish(live)
                self.notifyObservers(venue: runtime.venue.id, live)
                return stored
            }
            metrics.recordStored(stored)
        }
    }
}
