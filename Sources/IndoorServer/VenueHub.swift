import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorSession
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
    public let surveys: [String: Recording]
    let metrics: ServerMetrics
    private let runtimes: Mutex<[String: VenueRuntime]>
    /// Each venue's scan session before any sighting (``IndoorSession/IndoorScan/session(venue:options:)``), made at
    /// its first scan for the venue as it then was, and copied for every scan: what it learns is learned once.
    private let scanSessions = Mutex<[String: (venue: Venue, session: LocationSession)]>([:])
    private let wallClock: @Sendable () -> Double

    /// A hub over `store`, with a session for each stored venue (a restart carries on from the store).
    /// - Parameters:
    ///   - surveys: Site surveys by venue id (``surveys``); a venue's session learns from its survey when it starts
    ///     (seconds for a few hundred surveyed points).
    ///   - wallClock: Seconds since 1970, used to stamp arrivals and to move quiet venues on.
    /// - Throws: A stored venue that no longer decodes or makes no session, or whose survey hears none of its nodes.
    public init(
        store: any LocationStore, metrics: ServerMetrics, surveys: [String: Recording] = [:],
        wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) throws {
        self.store = store
        self.metrics = metrics
        self.surveys = surveys
        self.wallClock = wallClock
        var runtimes: [String: VenueRuntime] = [:]
        for stored in try store.venues() {
            let venue = try Venue.decodeJSON(stored.json, file: "venue '\(stored.id)'")
            if let problem = Self.surveyProblem(venue, surveys[venue.id]) {
                throw APIError.badRequest(field: "nodes", problem)
            }
            runtimes[venue.id] = try VenueRuntime(venue: venue, survey: surveys[venue.id])
        }
        self.runtimes = Mutex(runtimes)
        metrics.venues.record(runtimes.count)
        for runtime in runtimes.values { prepareScans(runtime.venue) }
    }

    /// The ids of the served venues, sorted.
    public var venueIDs: [String] { runtimes.withLock { $0.keys.sorted() } }

    /// The venue with `id`, or `nil`.
    public func venue(id: String) -> Venue? { runtimes.withLock { $0[id]?.venue } }

    /// Creates or replaces the venue `id` from its JSON (docs/FORMATS.md), and starts its session afresh.
    /// - Returns: The venue and whether it is new.
    /// - Throws: ``APIError`` (400) naming the field when the JSON is not a valid venue or its `id` differs.
    public func putVenue(id: String, json: Data) throws -> (venue: Venue, created: Bool) {
        let venue: Venue
        do {
            venue = try Venue.decodeJSON(json, file: "venue")
        } catch let error as FormatError {
            throw APIError.badRequest(field: Self.field(of: error.message), error.message)
        }
        guard venue.id == id else {
            throw APIError.badRequest(
                field: "id", "id '\(venue.id)' differs from the path's venue id '\(id)'; they must be equal")
        }
        if let problem = Self.surveyProblem(venue, surveys[id]) {
            throw APIError.badRequest(field: "nodes", problem)
        }
        let runtime: VenueRuntime
        do {
            runtime = try VenueRuntime(venue: venue, survey: surveys[id])
        } catch {
            throw APIError.badRequest(field: "venue", "the venue makes no session: \(error)")
        }
        let created = try store.putVenue(StoredVenue(id: id, json: try venue.encodeJSON()))
        let old = runtimes.withLock { runtimes in
            let old = runtimes[id]
            runtimes[id] = runtime
            return old
        }
        old?.finishSubscribers()
        scanSessions.withLock { _ = $0.removeValue(forKey: id) }
        metrics.venues.record(venueIDs.count)
        prepareScans(venue)
        return (venue, created)
    }

    /// For a venue with a survey, makes its scan session in the background now, so that its first scan does not wait
    /// seconds for the learning (a scan that comes first makes one itself).
    private func prepareScans(_ venue: Venue) {
        guard surveys[venue.id] != nil else { return }
        Task.detached(priority: .background) { [self] in
            _ = try? scanSession(venue: venue)
        }
    }

    /// Why `survey` cannot serve `venue` (it hears none of its nodes), or `nil`.
    static func surveyProblem(_ venue: Venue, _ survey: Recording?) -> String? {
        guard let survey, !survey.hearsAny(of: venue.nodes) else { return nil }
        return "the survey given for venue '\(venue.id)' at the server's start hears none of its \(venue.nodes.count) "
            + "nodes; give the venue the nodes the survey heard, or start the server with its own survey"
    }

    /// The session a scan of `venue` starts from, with the default options and the venue's survey (``surveys``; the
    /// device a scan locates does not change its session): made once per venue and copied for each scan; made afresh
    /// when the venue was replaced since.
    /// - Throws: ``IndoorSession/ScanError`` when the session cannot start.
    public func scanSession(venue: Venue) throws -> LocationSession {
        if let cached = scanSessions.withLock({ $0[venue.id] }), cached.venue == venue { return cached.session }
        let options = IndoorScan.Options(surveys: surveys[venue.id].map { [venue.id: $0] } ?? [:])
        let session = try IndoorScan.session(venue: venue, options: options)
        scanSessions.withLock { $0[venue.id] = (venue, session) }
        return session
    }

    /// Deletes the venue `id`; its activity stays in the store.
    /// - Returns: Whether there was such a venue.
    public func deleteVenue(id: String) throws -> Bool {
        let deleted = try store.deleteVenue(id: id)
        let old = runtimes.withLock { $0.removeValue(forKey: id) }
        scanSessions.withLock { _ = $0.removeValue(forKey: id) }
        old?.finishSubscribers()
        metrics.venues.record(venueIDs.count)
        return deleted || old != nil
    }

    /// Ingests `sightings` for `venue`: the session, then the store, then the subscribers.
    /// - Returns: The stored events the batch caused, in time order.
    /// - Throws: ``APIError`` (404) for an unknown venue; the store's error when the commit fails.
    public func ingest(venue: String, sightings: [Sighting]) throws -> [StoredEvent] {
        guard let runtime = runtimes.withLock({ $0[venue] }) else {
            throw APIError.notFound(
                field: "venue", "venue '\(venue)' does not exist; create it with PUT /v1/venues/\(venue)")
        }
        let now = wallClock()
        let stored = try runtime.locked { state in
            let events = state.session.ingest(sightings)
            if let last = sightings.map(\.time).max() {
                state.lastDataTime = max(state.lastDataTime ?? last, last)
                state.lastArrival = now
            }
            let serverEvents = Self.serverEvents(events)
            let stored = try store.commit(
                IngestBatch(venue: venue, sightings: sightings, events: serverEvents, receivedAt: now))
            for sighting in sightings { state.devices.insert(sighting.device) }
            runtime.publish(runtime.live(stored, session: state.session))
            return stored
        }
        metrics.sightingsIngested.increment(by: sightings.count)
        metrics.devicesTracked.record(runtimes.withLock { $0.values.reduce(0) { $0 + $1.deviceCount } })
        record(stored)
        return stored
    }

    /// Moves every venue that has been quiet for `quiet` seconds on in data time by the wall-clock time since its
    /// last sighting, so that devices no longer heard check out (`lost`); stores and streams what falls due.
    public func tick(quiet: Double = 1) throws {
        let now = wallClock()
        let all = runtimes.withLock { Array($0.values) }
        for runtime in all {
            let stored = try runtime.locked { state -> [StoredEvent] in
                guard let lastData = state.lastDataTime, let lastArrival = state.lastArrival,
                    now - lastArrival >= quiet
                else { return [] }
                let events = Self.serverEvents(state.session.advance(to: lastData + (now - lastArrival)))
                guard !events.isEmpty else { return [] }
                let stored = try store.commit(
                    IngestBatch(venue: runtime.venue.id, sightings: [], events: events, receivedAt: now))
                runtime.publish(stored.map { LiveEvent(stored: $0) })
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
        return runtime.locked { state in
            state.session.room(of: device).flatMap { DeviceRoom($0, zones: runtime.venue.zones) }
        }
    }

    /// A live feed of `venue`'s stored events, from now on, each fix with its device's room when it is the
    /// device's latest of its batch (``LiveEvent``); `nil` for an unknown venue.
    /// The stream finishes when the venue is replaced or deleted, or on ``finishSubscribers()``.
    public func subscribe(venue: String) -> AsyncStream<LiveEvent>? {
        guard let runtime = runtimes.withLock({ $0[venue] }) else { return nil }
        return runtime.subscribe()
    }

    /// Ends every live feed (at shutdown).
    public func finishSubscribers() {
        for runtime in runtimes.withLock({ Array($0.values) }) { runtime.finishSubscribers() }
    }

    private func record(_ stored: [StoredEvent]) {
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

    private static func serverEvents(_ events: [SessionEvent]) -> [ServerEvent] {
        events.compactMap { event in
            switch event {
            case .fix(let fix): .fix(fix)
            case .zone(let zone): .zone(zone)
            case .monitor, .peer: nil
            }
        }
    }

    /// `nodes[2].x` from `nodes[2].x: expected a number`; `venue` when the message names no field.
    static func field(of message: String) -> String {
        guard let colon = message.range(of: ": ") else { return "venue" }
        let head = message[..<colon.lowerBound]
        guard !head.contains(" ") else { return "venue" }
        return String(head)
    }
}

/// One venue's session and subscribers.
final class VenueRuntime: Sendable {
    struct State: Sendable {
        var session: LocationSession
        /// The latest data time seen, seconds.
        var lastDataTime: Double?
        /// Wall-clock time of the latest sighting, seconds since 1970.
        var lastArrival: Double?
        /// The devices heard since the session started.
        var devices: Set<String> = []
    }

    let venue: Venue
    private let state: Mutex<State>
    private let subscribers = Mutex<(next: Int, all: [Int: AsyncStream<LiveEvent>.Continuation])>((0, [:]))

    init(venue: Venue, survey: Recording?) throws {
        self.venue = venue
        state = Mutex(State(session: try LocationSession(SessionConfiguration(venue: venue, survey: survey))))
    }

    var deviceCount: Int { state.withLock { $0.devices.count } }

    func locked<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try state.withLock { try body(&$0) }
    }

    /// `stored` as live events: each device's last fix of the batch carries the device's room as `session` holds
    /// it now, which is the room after that fix (the session's room of a device changes only with its fixes).
    func live(_ stored: [StoredEvent], session: LocationSession) -> [LiveEvent] {
        var lastFix: [String: Int] = [:]
        for (index, event) in stored.enumerated() {
            if case .fix(let fix) = event.event { lastFix[fix.device] = index }
        }
        return stored.enumerated().map { index, event in
            guard case .fix(let fix) = event.event, lastFix[fix.device] == index else {
                return LiveEvent(stored: event)
            }
            let room = session.room(of: fix.device).flatMap { DeviceRoom($0, zones: venue.zones) }
            return LiveEvent(stored: event, room: room)
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
        let (stream, continuation) = AsyncStream<LiveEvent>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
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
