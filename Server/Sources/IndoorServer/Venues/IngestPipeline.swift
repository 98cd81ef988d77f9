import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorSession
import Logging

/// What runs as a venue's jobs (``VenueRuntime/jobs``, one at a time): its batches of sightings through the session,
/// committed, streamed and answered; the ticks that move a quiet venue on; the replacement of its runtime by one of
/// its new version. No lock is held while the store commits.
///
/// Batches that wait for the venue while a commit is under way are taken together by the next job (group commit):
/// each through the session in turn (``PreparedBatch``), then all committed in one transaction
/// (``LocationStore/commit(batches:)``), then each answered and streamed in turn. So a venue's throughput is not
/// bounded by one commit's latency per batch, and each batch is still answered only once it is committed. In a
/// cluster (a venue held under a lease) each batch commits alone: grouped, the cluster's ingest measured slower
/// (docs/notes/group-commit.md).
struct IngestPipeline: Sendable {
    /// The store every batch is committed to.
    let store: any LocationStore
    /// Where each venue's runtime is found.
    let registry: VenueRegistry
    /// Which sightings each venue takes by their time.
    let timeWindow: SightingTimeWindow
    let metrics: ServerMetrics
    /// Told of each node heard.
    let nodeHealth: NodeHealthBook
    /// Fed every venue's stored events, a batch at a time (``VenueHub/observeAll(buffer:)``).
    let observers: SubscriberTable<VenueLiveEvents>
    /// Where a lease lost at a commit is told.
    let logger: Logger
    /// Seconds since 1970: when batches arrive, and how long a venue has been quiet.
    let wallClock: @Sendable () -> Double
    /// The survey recordings running now, which the sightings of their devices are copied to.
    var surveys = OpenSurveyRecordings()

    /// Ingests the sightings of `sightings` that the venue can take: the session, then the store, then the
    /// subscribers, with the batches waiting for the venue meanwhile (see the type's discussion). Refused, each with
    /// why: a time outside the venue's window (``timeWindow``), a node the venue does not have, a device id longer than
    /// ``VenueHub/maximumIDLength``.
    /// - Throws: ``APIError`` (404) for an unknown venue; ``VenueElsewhereError`` for a venue that runs on another
    ///   instance of the cluster; the store's error when the commit fails (for every batch committed with it).
    func admit(venue: String, sightings: [Sighting]) async throws -> VenueHub.Admission {
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

    /// As one of `runtime`'s jobs: the batches of `group` (those waiting for it), through the session one after
    /// another, committed in one transaction, then each answered, counted and streamed in turn.
    private func admit(_ group: [VenueRuntime.WaitingBatch], runtime: VenueRuntime) async {
        guard !group.isEmpty else { return }
        let now = wallClock()
        var prepared: [PreparedBatch] = []
        prepared.reserveCapacity(group.count)
        for waiting in group {
            guard let batch = PreparedBatch(waiting.sightings, runtime: runtime, window: timeWindow, now: now) else {
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
            var committed = zip(batches, try await commit(batches, runtime: runtime)).makeIterator()
            if !batches.isEmpty {
                metrics.ingestCommits.increment()
                metrics.ingestBatches.increment(by: batches.count)
            }
            for (waiting, batch) in zip(group, prepared) {
                guard !batch.taken.isEmpty, let (ingest, stored) = committed.next() else {
                    waiting.answer = .success(VenueHub.Admission(stored: [], refused: batch.refused))
                    continue
                }
                admitted(batch, stored: stored, runtime: runtime, now: now)
                waiting.answer = .success(
                    VenueHub.Admission(stored: stored, refused: batch.refused, eventJSON: ingest.eventJSON ?? []))
            }
            await copyToSurveys(batches.flatMap(\.sightings), venue: runtime.venue.id)
        } catch {
            for (waiting, batch) in zip(group, prepared) {
                waiting.answer =
                    batch.taken.isEmpty
                    ? .success(VenueHub.Admission(stored: [], refused: batch.refused)) : .failure(error)
            }
        }
    }

    /// After a commit: copies the sightings of devices whose survey recording runs in `venue` to their recording
    /// (``LocationStore/addSurveySightings(_:recording:)``, bounded by ``SurveyLimits/maximumSightings``). The batch is
    /// stored and answered either way: a copy that fails is logged, and the recording misses those sightings.
    private func copyToSurveys(_ sightings: [Sighting], venue: String) async {
        guard !sightings.isEmpty else { return }
        do {
            let open = try await surveys.open(venue: venue, store: store)
            guard !open.isEmpty else { return }
            var copies: [Int64: [Sighting]] = [:]
            for sighting in sightings {
                if let recording = open[sighting.device] { copies[recording, default: []].append(sighting) }
            }
            for (recording, sightings) in copies.sorted(by: { $0.key < $1.key }) {
                try await store.addSurveySightings(sightings, recording: recording)
            }
        } catch {
            logger.error(
                "the sightings of a survey recording of venue '\(venue)' could not be kept",
                metadata: ["error": "\(error)"])
        }
    }

    /// After `batch` was committed as `stored`: streams it, and counts its sightings, nodes heard and devices.
    private func admitted(_ batch: PreparedBatch, stored: [StoredEvent], runtime: VenueRuntime, now: Double) {
        let live = runtime.live(stored, rooms: batch.rooms)
        publish(live, runtime: runtime, persons: runtime.followPersons(stored))
        var heard: [String: Int] = [:]
        for sighting in batch.taken {
            if case .node(let node) = sighting.source { heard[node, default: 0] += 1 }
        }
        for (node, count) in heard { nodeHealth.heard(venue: runtime.venue.id, node: node, count: count, at: now) }
        metrics.sightingsIngested.increment(by: batch.taken.count)
        metrics.recordNodeLinks(venue: runtime.venue.id, used: batch.links.used, ignored: batch.links.ignored)
        metrics.recordStored(stored)
        letGoOfForgottenDevices(runtime)
    }

    /// After a batch or a tick: the devices the venue's session let go (silent, or evicted beyond its cap) are told to
    /// the observers of every venue (the MQTT publisher drops their trackers), and the venue's count of devices
    /// held is recorded (`indoor_devices_tracked`, and per venue `indoor_venue_devices_held`).
    ///
    /// The session's activity log (`LocationSession.drainActivity()`) is emptied here too: the store already has
    /// every visit from the zone events, and a log never drained grows by a visit per check-in for as long as the
    /// server runs (some 130 bytes each: the slope left in docs/notes/device-churn-memory.md).
    private func letGoOfForgottenDevices(_ runtime: VenueRuntime) {
        let (forgotten, held) = runtime.locked { state in
            _ = state.session.drainActivity()
            return (state.session.drainForgottenDevices(), state.session.heldDevices)
        }
        if !forgotten.isEmpty {
            observers.publish(
                VenueLiveEvents(
                    venue: runtime.venue.id, events: [], forgotten: forgotten,
                    persons: runtime.followPersons([], forgotten: forgotten)))
        }
        metrics.recordDevicesHeld(venue: runtime.venue.id, count: held)
        metrics.devicesTracked.record(registry.deviceCount)
    }

    /// Hands `live` to the venue's stream subscribers, and with the `persons` whose location changed to the
    /// observers of every venue.
    private func publish(_ live: [LiveEvent], runtime: VenueRuntime, persons: [PersonUpdate] = []) {
        runtime.subscribers.publish(live)
        guard !live.isEmpty || !persons.isEmpty else { return }
        observers.publish(VenueLiveEvents(venue: runtime.venue.id, events: live, persons: persons))
    }

    /// Moves every venue that has been quiet for `quiet` seconds on in data time by the wall-clock time since its
    /// last sighting, so that devices no longer heard check out (`lost`); stores and streams what falls due.
    func tick(quiet: Double) async throws {
        let now = wallClock()
        let all = registry.all
        for runtime in all {
            let stored = try await runtime.jobs.run { () async throws -> [StoredEvent] in
                let (events, rooms) = runtime.locked { state -> ([ServerEvent], [String: DeviceRoom]) in
                    guard !state.retired, let lastData = state.lastDataTime, let lastArrival = state.lastArrival,
                        now - lastArrival >= quiet
                    else { return ([], [:]) }
                    // The rooms of the devices with an open visit, before the advance: a device the advance checks out
                    // as lost and lets go at once (its device memory and the zone's lost timeout run out together)
                    // has no room after it, and its check-out carries the room it was held in.
                    var held: [String: DeviceRoom] = [:]
                    for visit in state.session.openVisits where held[visit.device] == nil {
                        held[visit.device] = runtime.room(of: visit.device, session: state.session)
                    }
                    let events = state.occupancy.interleave(
                        ServerEvent.stored(from: state.session.advance(to: lastData + (now - lastArrival))),
                        runtime: runtime)
                    let rooms = Self.rooms(of: events, runtime: runtime, session: state.session)
                    return (events, rooms.merging(held) { after, _ in after })
                }
                guard !events.isEmpty else {
                    self.letGoOfForgottenDevices(runtime)
                    return []
                }
                let stored = try await self.commit(
                    IngestBatch(
                        venue: runtime.venue.id, sightings: [], events: events, receivedAt: now, lease: runtime.lease),
                    runtime: runtime)
                self.publish(
                    runtime.live(stored, rooms: rooms), runtime: runtime, persons: runtime.followPersons(stored))
                self.letGoOfForgottenDevices(runtime)
                return stored
            }
            metrics.recordStored(stored)
        }
    }

    /// The room each device with a fix or a zone event among `events` is in, as `session` holds it right after them
    /// (a tick's events, like a batch's, carry their device's held room, so that Home Assistant's state follows it).
    static func rooms(of events: [ServerEvent], runtime: VenueRuntime, session: LocationSession) -> [String: DeviceRoom]
    {
        var rooms: [String: DeviceRoom] = [:]
        for event in events {
            let device: String
            switch event {
            case .fix(let fix): device = fix.device
            case .zone(let zone): device = zone.device
            case .occupancy, .person: continue  // a zone's count, of no device; a person's, not a device's
            }
            guard rooms[device] == nil, let room = runtime.room(of: device, session: session) else { continue }
            rooms[device] = room
        }
        return rooms
    }

    /// Puts `runtime` in place of venue `id`'s, carrying the old session's open visits over
    /// (``IndoorSession/LocationSession/carryVisits(from:)``): visits in zones that keep their id go on, those of
    /// zones that are gone are checked out (`zoneRemoved`), stored and streamed to the old runtime's subscribers.
    /// The old runtime is locked throughout, so no batch reaches either session in between.
    /// - Returns: The runtime replaced, if any.
    func replace(venue id: String, with runtime: VenueRuntime) async throws -> VenueRuntime? {
        while true {
            guard let old = registry.runtime(id) else {
                registry.run(runtime)
                return nil
            }
            // As a job of the old runtime's, after the batches it has taken: the old one is retired and the new one put
            // in its place, so a batch that reaches the old one after this looks the venue up again.
            let replaced = try await old.jobs.run { () async throws -> Bool in
                let events = old.locked { previous -> [ServerEvent]? in
                    guard !previous.retired else { return nil }
                    previous.retired = true
                    return runtime.locked { state in
                        state.lastDataTime = previous.lastDataTime
                        state.lastArrival = previous.lastArrival
                        state.timeBase = previous.timeBase
                        // The venue's persons may have changed: the same devices in the same zones, grouped anew.
                        let persons = runtime.venue.personOfDevice
                        state.occupancy = previous.occupancy.regrouped(persons: persons)
                        state.persons = previous.persons.regrouped(persons: persons)
                        let present = previous.lastDataTime ?? 0
                        let regrouped = previous.occupancy.changes(to: state.occupancy, at: present).map {
                            ServerEvent.occupancy(
                                OccupancyEvent($0, venue: id, zoneName: runtime.zoneNames[$0.zone] ?? $0.zone))
                        }
                        return regrouped
                            + state.occupancy.interleave(
                                ServerEvent.stored(from: state.session.carryVisits(from: previous.session)),
                                runtime: runtime)
                    }
                }
                // Replaced by another PUT meanwhile: carry over from that one.
                guard let events else { return false }
                self.registry.run(runtime)
                guard !events.isEmpty else { return true }
                let stored = try await self.store.commit(
                    IngestBatch(
                        venue: id, sightings: [], events: events, receivedAt: self.wallClock(), lease: runtime.lease))
                old.subscribers.publish(stored.map { LiveEvent(stored: $0) })
                self.metrics.recordStored(stored)
                return true
            }
            if replaced { return old }
        }
    }

    /// Brings `runtime`'s occupancy back to the store's open visits of its venue, as one of its jobs, after something
    /// changed them outside a commit (an erasure, stale visits closed as `lost`): each zone whose count changed gets
    /// its occupancy event at the venue's present, committed and streamed as a batch's events are.
    func reconcileOccupancy(_ runtime: VenueRuntime) async throws {
        let venue = runtime.venue.id
        let stored = try await runtime.jobs.run { () async throws -> [StoredEvent] in
            let open = try await VenueResume.openVisits(venue: venue, store: self.store)
            let now = self.wallClock()
            let events = runtime.locked { state -> [ServerEvent] in
                guard !state.retired else { return [] }
                let target = ZoneOccupancy(openVisits: open, persons: state.occupancy.persons)
                let present = state.lastDataTime.map { $0 + max(0, now - (state.lastArrival ?? now)) } ?? 0
                let changes = state.occupancy.changes(to: target, at: present)
                state.occupancy = target
                let names = runtime.zoneNames
                return changes.map { .occupancy(OccupancyEvent($0, venue: venue, zoneName: names[$0.zone] ?? $0.zone)) }
            }
            guard !events.isEmpty else { return [] }
            let stored = try await self.commit(
                IngestBatch(venue: venue, sightings: [], events: events, receivedAt: now, lease: runtime.lease),
                runtime: runtime)
            self.publish(runtime.live(stored, rooms: [:]), runtime: runtime)
            return stored
        }
        metrics.recordStored(stored)
    }

    /// Commits `batch` of `runtime`'s; when the runtime's lease was taken by another instance meanwhile, stops running
    /// the venue here and throws ``VenueElsewhereError`` (nothing of the batch was stored).
    func commit(_ batch: IngestBatch, runtime: VenueRuntime) async throws -> [StoredEvent] {
        guard let stored = try await commit([batch], runtime: runtime).first else {
            throw StoreError("the store answered no events for the batch it committed")
        }
        return stored
    }

    /// Commits `batches` of `runtime`'s in one transaction (none when empty), as the commit of one batch does.
    func commit(_ batches: [IngestBatch], runtime: VenueRuntime) async throws -> [[StoredEvent]] {
        guard !batches.isEmpty else { return [] }
        do {
            return try await store.commit(batches: batches)
        } catch let error as LeaseLostError {
            // Called as one of the runtime's jobs: retired here, not through its queue.
            let venue = runtime.venue.id
            runtime.locked { $0.retired = true }
            registry.remove(runtime)
            runtime.subscribers.finishAll()
            metrics.leasesLost.increment()
            logger.warning("\(error)")
            throw VenueElsewhereError(venue: venue)
        }
    }
}
