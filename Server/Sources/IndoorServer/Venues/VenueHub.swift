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
    public let surveys: [String: Recording]
    let metrics: ServerMetrics
    let runtimes: Mutex<[String: VenueRuntime]>
    /// Each venue's scan session before any sighting (``IndoorSession/IndoorScan/session(venue:options:)``), made at
    /// its first scan for the venue as it then was, and copied for every scan: what it learns is learned once. Until a
    /// venue's survey is learned, its scans run without it.
    let scanSessions = Mutex<[String: (venue: Venue, session: LocationSession, learned: Bool)]>([:])
    private let learning = LearningQueue()
    let logger: Logger
    let wallClock: @Sendable () -> Double
    /// Each node's health by venue: when it was last heard and what its gateway said (``NodeHealthBook``).
    public let nodeHealth = NodeHealthBook()
    /// The feeds of ``observeAll()``.
    private let observers = Mutex<(next: Int, all: [Int: AsyncStream<VenueLiveEvents>.Continuation])>((0, [:]))
    /// Which sightings each venue takes by their time.
    public let timeWindow: SightingTimeWindow
    /// This instance's part in a cluster of servers sharing the store, or `nil` for a server alone: then it runs
    /// only the venues whose lease it holds (``clusterRound()``), and knows the others from the store.
    public let cluster: ClusterIdentity?
    /// In a cluster: every stored venue by id (those owned elsewhere too), as of the last round or change.
    let catalog = Mutex<[String: Venue]>([:])
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
        self.surveys = surveys
        self.logger = logger
        self.wallClock = wallClock
        var runtimes: [String: VenueRuntime] = [:]
        var catalog: [String: Venue] = [:]
        for stored in try await store.venues() {
            let venue = try Venue.decodeJSON(stored.json, file: "venue '\(stored.id)'")
            if let problem = Self.surveyProblem(venue, surveys[venue.id]) {
                throw APIError.badRequest(field: "nodes", problem)
            }
            catalog[venue.id] = venue
            // In a cluster, a venue runs once its lease is taken (``clusterRound()``).
            if cluster == nil {
                runtimes[venue.id] = try VenueRuntime(venue: venue, learnsSurvey: surveys[venue.id] != nil)
            }
        }
        self.runtimes = Mutex(runtimes)
        self.catalog.withLock { $0 = catalog }
        metrics.venues.record(runtimes.count)
        for id in runtimes.keys.sorted() {
            guard let runtime = runtimes[id] else { continue }
            try await resume(runtime)
            learnSurvey(runtime)
        }
        recordLearning()
    }

    /// The ids of the served venues, sorted (in a cluster: of every stored venue, wherever it runs).
    public var venueIDs: [String] {
        if cluster != nil { return catalog.withLock { $0.keys.sorted() } }
        return runtimes.withLock { $0.keys.sorted() }
    }

    /// The ids of the venues whose session runs here, sorted: all of them for a server alone.
    public var ownedVenueIDs: [String] { runtimes.withLock { $0.keys.sorted() } }

    /// Whether the session of venue `id` runs here.
    public func owns(venue id: String) -> Bool { runtimes.withLock { $0[id] != nil } }

    /// The venue with `id` (in a cluster also one that runs elsewhere), or `nil`.
    public func venue(id: String) -> Venue? {
        if let venue = runtimes.withLock({ $0[id]?.venue }) { return venue }
        guard cluster != nil else { return nil }
        return catalog.withLock { $0[id] }
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
        if let problem = Self.surveyProblem(venue, surveys[id]) {
            throw APIError.badRequest(field: "nodes", problem)
        }
        let current = runtimes.withLock({ $0[id] })
        if let current, current.venue == venue {
            // The same venue again: its session, visits and streams carry on untouched.
            return (venue, false)
        }
        let runtime: VenueRuntime
        do {
            runtime = try VenueRuntime(venue: venue, learnsSurvey: surveys[id] != nil, lease: current?.lease)
        } catch {
            throw APIError.badRequest(field: "venue", "the venue makes no session: \(error)")
        }
        let created = try await store.putVenue(StoredVenue(id: id, json: try venue.encodeJSON()))
        if cluster != nil {
            catalog.withLock { $0[id] = venue }
            // Its owner (this instance or another) runs the new version from its next round, which this wakes.
            if current == nil {
                try await clusterChanged(venue: id)
                return (venue, created)
            }
        }
        let old = try await replaceRuntime(id: id, with: runtime)
        old?.finishSubscribers()
        scanSessions.withLock { _ = $0.removeValue(forKey: id) }
        metrics.venues.record(venueIDs.count)
        learnSurvey(runtime)
        recordLearning()
        return (venue, created)
    }

    /// Replaces the venue `id`'s map from an IMDF archive (a zip): name, floors, rooms (zones), walls and
    /// connections come from the archive; its nodes and SDK geofences stay as they are, and so does its anchor, which
    /// places the archive in the frame the nodes are in (a venue without one takes the IMDF venue's display point).
    /// - Returns: The venue and whether it is new.
    /// - Throws: ``APIError`` (400, field `body`) with the words `indoor venue import` would print for a bad archive;
    ///   (400, field `nodes`) when there is no venue `id` with nodes to keep.
    public func putVenue(id: String, imdf zip: Data) async throws -> (venue: Venue, created: Bool) {
        let current = runtimes.withLock { $0[id]?.venue }
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

    /// Puts `runtime` in place of venue `id`'s, carrying the old session's open visits over
    /// (``IndoorSession/LocationSession/carryVisits(from:)``): visits in zones that keep their id go on, those of
    /// zones that are gone are checked out (`zoneRemoved`), stored and streamed to the old runtime's subscribers.
    /// The old runtime is locked throughout, so no batch reaches either session in between.
    /// - Returns: The runtime replaced, if any.
    func replaceRuntime(id: String, with runtime: VenueRuntime) async throws -> VenueRuntime? {
        while true {
            guard let old = runtimes.withLock({ $0[id] }) else {
                runtimes.withLock { $0[id] = runtime }
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
                        state.devices = previous.devices
                        return Self.serverEvents(state.session.carryVisits(from: previous.session))
                    }
                }
                // Replaced by another PUT meanwhile: carry over from that one.
                guard let events else { return false }
                self.runtimes.withLock { $0[id] = runtime }
                guard !events.isEmpty else { return true }
                let stored = try await self.store.commit(
                    IngestBatch(
                        venue: id, sightings: [], events: events, receivedAt: self.wallClock(), lease: runtime.lease))
                old.publish(stored.map { LiveEvent(stored: $0) })
                self.record(stored)
                return true
            }
            if replaced { return old }
        }
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

    /// Whether `venue`'s survey is learned: `none` (no survey given, or no such venue), `learning` (its session and
    /// scans run without it meanwhile), `learned`, or `failed` (the log says why; they run without it).
    public func surveyState(venue id: String) -> String {
        guard let runtime = runtimes.withLock({ $0[id] }) else { return "none" }
        return runtime.locked { $0.survey.rawValue }
    }

    /// Returns once `venue`'s survey is learned (or its learning failed), and at once for a venue without one.
    public func learned(venue id: String) async {
        await learning.finished(id)
    }

    /// For a venue with a survey, learns it in the background (after any other venue's learning): the venue's
    /// session takes over the learned positioning, then its scans' session is made with the survey. Skipped when
    /// the runtime has been replaced or deleted by then.
    func learnSurvey(_ runtime: VenueRuntime) {
        let venue = runtime.venue
        guard let survey = surveys[venue.id] else { return }
        learning.schedule(key: venue.id) { [self] in
            guard isCurrent(runtime) else { return }
            let start = ContinuousClock.now
            var adopted = false
            do {
                let learned = try LocationSession(SessionConfiguration(venue: venue, survey: survey))
                try runtime.locked { state in
                    try state.session.adoptPositioning(of: learned, replaying: state.recent?.sightings ?? [])
                    state.recent = nil
                }
                adopted = true
                guard isCurrent(runtime) else { return }
                let options = IndoorScan.Options(surveys: [venue.id: survey])
                let scans = try IndoorScan.session(venue: venue, options: options)
                if isCurrent(runtime) { scanSessions.withLock { $0[venue.id] = (venue, scans, true) } }
                runtime.locked { $0.survey = .learned }
                recordLearning()
                let seconds = (ContinuousClock.now - start) / .milliseconds(1) / 1000
                let what = "\(survey.truth.count) truth rows, \(survey.sightings.count) sightings"
                let message =
                    "venue '\(venue.id)' learned its survey (\(what)) in \(String(format: "%.1f", seconds)) s: its "
                    + "fixes and scans now come from the radio map"
                logger.info(Logger.Message(stringLiteral: message))
            } catch {
                runtime.locked { state in
                    state.recent = nil
                    state.survey = .failed
                }
                recordLearning()
                let what = adopted ? "its fixes come from its survey, its scans run without it" : "it runs without it"
                logger.error(
                    "venue '\(venue.id)' could not learn its survey; \(what)", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Sets `indoor_venues_learning`: the venues served whose survey is being learned.
    func recordLearning() {
        let count = runtimes.withLock { runtimes in
            runtimes.values.reduce(0) { $0 + ($1.locked { $0.survey == .learning } ? 1 : 0) }
        }
        metrics.venuesLearning.record(count)
    }

    /// Whether `runtime` still serves its venue (not replaced or deleted since).
    private func isCurrent(_ runtime: VenueRuntime) -> Bool {
        runtimes.withLock { $0[runtime.venue.id] === runtime }
    }

    /// Why `survey` cannot serve `venue` (it hears none of its nodes), or `nil`.
    static func surveyProblem(_ venue: Venue, _ survey: Recording?) -> String? {
        guard let survey, !survey.hearsAny(of: venue.nodes) else { return nil }
        return "the survey given for venue '\(venue.id)' at the server's start hears none of its \(venue.nodes.count) "
            + "nodes; give the venue the nodes the survey heard, or start the server with its own survey"
    }

    /// The session a scan of `venue` starts from, with the default options, over the venue's survey once it is
    /// learned (``surveys``, ``surveyState(venue:)``; the device a scan locates does not change its session): made
    /// once per venue and copied for each scan; made afresh when the venue was replaced since.
    /// - Throws: ``IndoorSession/ScanError`` when the session cannot start.
    public func scanSession(venue: Venue) throws -> LocationSession {
        if let cached = scanSessions.withLock({ $0[venue.id] }), cached.venue == venue { return cached.session }
        let session = try IndoorScan.session(venue: venue, options: IndoorScan.Options())
        scanSessions.withLock { cached in
            // A learned session stored meanwhile stays.
            if let learned = cached[venue.id], learned.venue == venue, learned.learned { return }
            cached[venue.id] = (venue, session, false)
        }
        return session
    }

    /// Deletes the venue `id`; its activity stays in the store.
    /// - Returns: Whether there was such a venue.
    public func deleteVenue(id: String) async throws -> Bool {
        let deleted = try await store.deleteVenue(id: id)
        catalog.withLock { _ = $0.removeValue(forKey: id) }
        let old = runtimes.withLock { $0.removeValue(forKey: id) }
        if cluster != nil {
            if let lease = old?.lease { try? await (store as? any ClusterStore)?.releaseLease(lease) }
            try await clusterChanged(venue: id)
        }
        scanSessions.withLock { _ = $0.removeValue(forKey: id) }
        old?.finishSubscribers()
        nodeHealth.forget(venue: id)
        metrics.venues.record(venueIDs.count)
        recordLearning()
        return deleted || old != nil
    }

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
            guard let runtime = runtimes.withLock({ $0[venue] }) else {
                if cluster != nil, catalog.withLock({ $0[venue] != nil }) { throw VenueElsewhereError(venue: venue) }
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
            let events = Self.serverEvents(state.session.ingest(taken))
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
        runtime.publish(live)
        notifyObservers(venue: runtime.venue.id, live)
        var heard: [String: Int] = [:]
        for sighting in batch.taken {
            if case .node(let node) = sighting.source { heard[node, default: 0] += 1 }
        }
        for (node, count) in heard { nodeHealth.heard(venue: runtime.venue.id, node: node, count: count, at: now) }
        metrics.sightingsIngested.increment(by: batch.taken.count)
        metrics.recordNodeLinks(venue: runtime.venue.id, used: batch.links.used, ignored: batch.links.ignored)
        metrics.devicesTracked.record(runtimes.withLock { $0.values.reduce(0) { $0 + $1.deviceCount } })
        record(stored)
    }

    /// Moves every venue that has been quiet for `quiet` seconds on in data time by the wall-clock time since its
    /// last sighting, so that devices no longer heard check out (`lost`); stores and streams what falls due.
    public func tick(quiet: Double = 1) async throws {
        let now = wallClock()
        let all = runtimes.withLock { Array($0.values) }
        for runtime in all {
            let stored = try await runtime.jobs.run { () async throws -> [StoredEvent] in
                let events = runtime.locked { state -> [ServerEvent] in
                    guard !state.retired, let lastData = state.lastDataTime, let lastArrival = state.lastArrival,
                        now - lastArrival >= quiet
                    else { return [] }
                    return Self.serverEvents(state.session.advance(to: lastData + (now - lastArrival)))
                }
                guard !events.isEmpty else { return [] }
                let stored = try await self.commitOwned(
                    IngestBatch(
                        venue: runtime.venue.id, sightings: [], events: events, receivedAt: now, lease: runtime.lease),
                    runtime: runtime)
                let live = stored.map { LiveEvent(stored: $0) }
                runtime.publish(live)
                self.notifyObservers(venue: runtime.venue.id, live)
                return stored
            }
            record(stored)
        }
    }

    /// The room `device` is in as `venue`'s session holds it (`LocationSession.room(of:)`), in the API's form.
    ///
    /// `nil` for an unknown venue, a venue without rooms (zones with polygon fences), and a device the session
    /// has had no fix of in the last hour of data time (or none since the server started or the venue was put).
    public func room(venue: String, device: String) -> DeviceRoom? {
        guard let runtime = runtimes.withLock({ $0[venue] }) else { return nil }
        return runtime.locked { state in runtime.room(of: device, session: state.session) }
    }

    /// A live feed of `venue`'s stored events, from now on, each fix with its device's room when it is the
    /// device's latest of its batch (``LiveEvent``); `nil` for an unknown venue.
    /// The stream finishes when the venue is replaced or deleted, or on ``finishSubscribers()``.
    public func subscribe(venue: String) -> AsyncStream<LiveEvent>? {
        guard let runtime = runtimes.withLock({ $0[venue] }) else { return nil }
        return runtime.subscribe()
    }

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

    /// Ends every live feed (at shutdown).
    public func finishSubscribers() {
        for runtime in runtimes.withLock({ Array($0.values) }) { runtime.finishSubscribers() }
        let all = observers.withLock { observers in
            defer { observers.all = [:] }
            return Array(observers.all.values)
        }
        for continuation in all { continuation.finish() }
    }

    /// Every venue's stored events as they are stored, a batch at a time, for publishing them elsewhere (MQTT).
    ///
    /// At most `buffer` batches wait for the reader; beyond that the oldest waiting are dropped (a reader that
    /// publishes states loses only superseded ones). Ends at ``finishSubscribers()``.
    public func observeAll(buffer: Int = 1000) -> AsyncStream<VenueLiveEvents> {
        let (stream, continuation) = AsyncStream<VenueLiveEvents>.makeStream(bufferingPolicy: .bufferingNewest(buffer))
        let token = observers.withLock { observers in
            defer { observers.next += 1 }
            observers.all[observers.next] = continuation
            return observers.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.observers.withLock { $0.all.removeValue(forKey: token) }
        }
        return stream
    }

    private func notifyObservers(venue: String, _ events: [LiveEvent]) {
        guard !events.isEmpty else { return }
        let all = observers.withLock { Array($0.all.values) }
        for continuation in all { continuation.yield(VenueLiveEvents(venue: venue, events: events)) }
    }

    /// The ids of the venues that have a node `node`, sorted.
    public func venues(withNode node: String) -> [String] {
        runtimes.withLock { runtimes in runtimes.values.filter { $0.nodeIDs.contains(node) }.map(\.venue.id) }.sorted()
    }

    /// The wall clock the hub stamps arrivals with, Unix seconds.
    public var now: Double { wallClock() }

    /// The health of each node of `venue` (``NodeHealthBook/health(venue:nodes:at:)``), in the venue's order, with
    /// what the venue's self-calibration fitted for it; `nil` for an unknown venue.
    public func nodes(venue: String) -> [NodeHealth]? {
        nodeList(venue: venue)?.nodes
    }

    /// `GET /v1/venues/{id}/nodes` of `venue`: each node's health (``NodeHealthBook/health(venue:nodes:at:)``) and
    /// what the session's self-calibration fitted, read from the session at one moment (`LocationSession.selfCalibration`,
    /// `selfCalibrationTime` and its node-link counts); `nil` for an unknown venue.
    public func nodeList(venue: String) -> NodeList? {
        guard let runtime = runtimes.withLock({ $0[venue] }) else { return nil }
        let (fit, time, statistics) = runtime.locked { state in
            (state.session.selfCalibration, state.session.selfCalibrationTime, state.session.statistics)
        }
        var nodes = nodeHealth.health(venue: venue, nodes: runtime.venue.nodes.map(\.id), at: wallClock())
        let venueFit = fit.flatMap { fit in time.flatMap { VenueSelfCalibration(fit, at: $0) } }
        if let fit, venueFit != nil {
            // A node with a calibration of its own in the venue keeps it: the fit is not its level.
            let own = Set(runtime.venue.nodes.filter { $0.calibration != nil }.map(\.id))
            let fitted = Dictionary(
                fit.nodes.filter { !own.contains($0.id) }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for index in nodes.indices {
                nodes[index].selfCalibration = fitted[nodes[index].id].flatMap(NodeSelfCalibration.init)
            }
        }
        return NodeList(
            venue: venue, silentAfter: nodeHealth.silentAfter, nodes: nodes,
            nodeLinks: NodeList.NodeLinks(used: statistics.nodeLinks, ignored: statistics.ignoredNodeLinks),
            selfCalibration: venueFit)
    }

    func record(_ stored: [StoredEvent]) {
        guard !stored.isEmpty else { return }
        var fixes = 0
        for event in stored {
            switch event.event {
            case .fix: fixes += 1
            case .zone: metrics.zoneEvents.increment()
            }
        }
        metrics.fixes.increment(by: fixes)
    }

    /// The session's events that the server stores and streams: its fixes and zone events, in order.
    package static func serverEvents(_ events: [SessionEvent]) -> [ServerEvent] {
        events.compactMap { event in
            switch event {
            case .fix(let fix): .fix(fix)
            case .zone(let zone): .zone(zone)
            case .monitor, .peer: nil
            }
        }
    }
}

/// One venue's session and subscribers.
final class VenueRuntime: Sendable {
    /// How far a venue's survey is learned (``VenueHub/surveyState(venue:)``).
    enum SurveyState: String, Sendable {
        case none, learning, learned, failed
    }

    struct State: Sendable {
        var session: LocationSession
        /// The venue's survey, learned in the background.
        var survey: SurveyState
        /// While the survey is learned: the sightings of twice the positioning window before the latest, which the
        /// learned positioning hears before it takes over.
        var recent: RecentSightings?
        /// The latest data time seen, seconds.
        var lastDataTime: Double?
        /// Wall-clock time of the latest sighting, seconds since 1970.
        var lastArrival: Double?
        /// What the venue's times count, set by the first sighting it takes.
        var timeBase: SightingTimeWindow.Base?
        /// Replaced by a runtime of the venue's new version, which carried this one's visits over: takes nothing more.
        var retired = false
        /// The devices heard since the session started.
        var devices: Set<String> = []
    }

    let venue: Venue
    /// The venue's batches, ticks and replacement, one at a time.
    let jobs = SerialJobs()
    /// The ids of the venue's nodes.
    let nodeIDs: Set<String>
    /// In a cluster, the lease under which this instance runs the venue (every commit is fenced by it).
    let lease: VenueLease?
    private let state: Mutex<State>
    private let subscribers = Mutex<(next: Int, all: [Int: AsyncStream<LiveEvent>.Continuation])>((0, [:]))
    /// Batches given to ``VenueHub/admit(venue:sightings:)`` that no ingest job has taken yet, in the order given.
    private let waiting = Mutex<[WaitingBatch]>([])

    /// A batch of sightings waiting for the venue's next ingest job, and its answer once a job has taken it.
    final class WaitingBatch: Sendable {
        let sightings: [Sighting]
        private let result = Mutex<Result<VenueHub.Admission?, any Error>?>(nil)

        init(_ sightings: [Sighting]) { self.sightings = sightings }

        /// What the job that took the batch answered (`nil` until one has): the admission, `nil` when the venue's
        /// runtime was retired, or the commit's error.
        var answer: Result<VenueHub.Admission?, any Error>? {
            get { result.withLock { $0 } }
            set { result.withLock { $0 = newValue } }
        }
    }

    /// How many batches wait for the venue's next ingest job.
    var waitingCount: Int { waiting.withLock { $0.count } }

    /// Puts `batch` in line for the venue's next ingest job.
    func wait(_ batch: WaitingBatch) { waiting.withLock { $0.append(batch) } }

    /// Every batch waiting, in the order given; none wait after this.
    func takeWaiting() -> [WaitingBatch] {
        waiting.withLock { waiting in
            defer { waiting.removeAll() }
            return waiting
        }
    }

    /// A runtime over `venue`, its session without a survey; with `learnsSurvey`, it keeps the recent sightings
    /// until the hub hands it the positioning learned from the venue's survey.
    init(venue: Venue, learnsSurvey: Bool, lease: VenueLease? = nil) throws {
        self.venue = venue
        self.lease = lease
        nodeIDs = Set(venue.nodes.map(\.id))
        let session = try LocationSession(SessionConfiguration(venue: venue))
        state = Mutex(
            State(
                session: session, survey: learnsSurvey ? .learning : .none,
                recent: learnsSurvey ? RecentSightings(window: 2 * session.configuration.positioning.window) : nil))
    }

    var deviceCount: Int { state.withLock { $0.devices.count } }

    /// Why the venue cannot take `sighting` whatever its time: a node it does not have, a device id longer than
    /// ``VenueHub/maximumIDLength``; `nil` when it can.
    func problem(with sighting: Sighting) -> (field: String, message: String)? {
        if sighting.device.count > VenueHub.maximumIDLength {
            return (
                "device",
                "the device id is \(sighting.device.count) characters long; ids have at most \(VenueHub.maximumIDLength)"
            )
        }
        if case .node(let node) = sighting.source, !nodeIDs.contains(node) {
            let known = venue.nodes.prefix(10).map(\.id).joined(separator: ", ")
            let more = venue.nodes.count > 10 ? ", …" : ""
            return ("node", "node '\(node)' is not a node of venue '\(venue.id)' (its nodes: \(known)\(more))")
        }
        return nil
    }

    func locked<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try state.withLock { try body(&$0) }
    }

    /// The room `device` is in as `session` holds it, in the API's form (`nil`: none, or a venue without rooms).
    func room(of device: String, session: LocationSession) -> DeviceRoom? {
        session.room(of: device).flatMap { DeviceRoom($0, zones: venue.zones) }
    }

    /// `stored` as live events: each device's last fix of the batch carries the device's room from `rooms`, taken
    /// right after the batch went through the session (the session's room of a device changes only with its fixes,
    /// so that is the room after that fix).
    func live(_ stored: [StoredEvent], rooms: [String: DeviceRoom]) -> [LiveEvent] {
        let lastFix = LiveEvent.lastFixIndices(stored)
        return stored.enumerated().map { index, event in
            guard case .fix(let fix) = event.event, lastFix[fix.device] == index else {
                return LiveEvent(stored: event)
            }
            return LiveEvent(stored: event, room: rooms[fix.device])
        }
    }

    /// Hands `events` to every subscriber. Called under the venue's state lock (so events go out in the order
    /// they were stored), but never under the subscribers' lock: a yield resumes a task, which takes the task's
    /// own lock, while a cancelled task holds that lock when it calls `onTermination`, which takes the
    /// subscribers' lock; yielding under it would deadlock.
    func publish(_ events: [LiveEvent]) {
        guard !events.isEmpty else { return }
        let continuations = subscribers.withLock { Array($0.all.values) }
        for continuation in continuations {
            for event in events { continuation.yield(event) }
        }
    }

    func subscribe() -> AsyncStream<LiveEvent> {
        // Drained at once by the stream's own bounded buffer (``ServerConfiguration/streamBuffer``); the bound here
        // only keeps a subscriber that is not drained from holding more.
        let (stream, continuation) = AsyncStream<LiveEvent>.makeStream(bufferingPolicy: .bufferingOldest(100_000))
        let token = subscribers.withLock { subscribers in
            let token = subscribers.next
            subscribers.next += 1
            subscribers.all[token] = continuation
            return token
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.all.removeValue(forKey: token) }
        }
        return stream
    }

    func finishSubscribers() {
        let all = subscribers.withLock { subscribers in
            let all = Array(subscribers.all.values)
            subscribers.all = [:]
            return all
        }
        for continuation in all { continuation.finish() }
    }
}
