import Foundation
import IndoorGeofencing
import IndoorModel

/// A ``LocationSession`` for live input: consumes any `AsyncSequence` of sightings and publishes the session's
/// events as an `AsyncStream`.
///
/// ```swift
/// let runner = LocationSessionRunner(try LocationSession(SessionConfiguration(venue: venue)))
/// Task { try await runner.run(sightings) }          // any AsyncSequence of Sighting
/// for await event in runner.events {                // fixes, zone, monitoring and peer events
///     if case .zone(let zone) = event { print(zone.kind, zone.zone) }
/// }
/// ```
///
/// Time still comes from the data. The injected clock is used for one thing only: when the input goes quiet
/// for ``tick`` or longer, the session is moved on (``LocationSession/advance(to:)``) to the last sighting's
/// time plus the clock time elapsed since it arrived, so that a device that stops being heard still checks out
/// and monitored regions are still left. A test injects a manual clock and gets the same events every run.
public actor LocationSessionRunner<C: Clock> where C.Duration == Duration {
    /// The session's events, in the order the session reported them; finishes when ``run(_:)`` ends.
    public nonisolated let events: AsyncStream<SessionEvent>
    /// How often the clock is checked for quiet input; also the least quiet time that advances the session.
    public nonisolated let tick: Duration
    private let continuation: AsyncStream<SessionEvent>.Continuation
    private let clock: C
    private var session: LocationSession
    /// The data time of the newest input, seconds, and the clock instant at which it arrived.
    private var lastInput: (time: Double, instant: C.Instant)?
    /// The data time the session was last moved on to by the clock.
    private var advancedTo = -Double.infinity
    /// While ``learn(survey:)`` learns: the last sightings, which the learned positioning hears before it takes over.
    private var recent: RecentSightings?

    /// - Parameters:
    ///   - session: The session to run.
    ///   - clock: Measures how long the input has been quiet.
    ///   - tick: How often to check for quiet input (default 1 s).
    public init(_ session: LocationSession, clock: C, tick: Duration = .seconds(1)) {
        self.session = session
        self.clock = clock
        self.tick = tick > .zero ? tick : .seconds(1)
        (events, continuation) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .unbounded)
    }

    /// What the session has done so far.
    public var statistics: SessionStatistics { session.statistics }

    /// The session's settings (its survey once ``learn(survey:)`` has switched to it).
    public var configuration: SessionConfiguration { session.configuration }

    /// Learns `survey` (the venue's site survey) off the runner, while sightings keep flowing through the session as
    /// it is, then switches the session's positioning to what was learned
    /// (``LocationSession/adoptPositioning(of:replaying:)``: zone visits, rooms and monitors carry on; the learned
    /// positioning first hears the last 10 s of sightings). Learning takes seconds for a survey of a few hundred
    /// points; call it from a task of its own.
    ///
    /// ```swift
    /// let runner = LocationSessionRunner(try LocationSession(SessionConfiguration(venue: venue)))  // serves at once
    /// Task { try await runner.run(radio.sightings()) }
    /// Task(priority: .utility) { try await runner.learn(survey: survey) }  // then tracks over its radio map
    /// ```
    /// - Throws: What ``LocationSession/init(_:)`` throws for the session's settings with `survey`, or
    ///   ``SessionError`` when a survey is being learned already; the session then carries on as it was.
    public func learn(survey: Recording) async throws {
        guard recent == nil else {
            throw SessionError("the runner is learning a survey already; wait for it before learning another")
        }
        var configuration = session.configuration
        configuration.survey = survey
        recent = RecentSightings(window: 2 * configuration.positioning.window)
        defer { recent = nil }
        let learned = try await Task.detached(priority: .utility) { [configuration] in
            try LocationSession(configuration)
        }.value
        try session.adoptPositioning(of: learned, replaying: recent?.sightings ?? [])
    }

    /// The zone visits open now.
    public var openVisits: [ZoneVisit] { session.openVisits }

    /// Feeds `sightings` to the session until the sequence ends (or throws), publishing every event on
    /// ``events``; while the input is quiet, moves the session on by the clock. Finishes ``events`` at the end.
    /// - Throws: What the sequence throws, or `CancellationError` when the calling task is cancelled.
    public func run<S: AsyncSequence & Sendable>(_ sightings: S) async throws where S.Element == Sighting {
        let ticker = Task { [clock, tick] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: tick)
                } catch {
                    return
                }
                self.quietTick()
            }
        }
        defer {
            ticker.cancel()
            continuation.finish()
        }
        for try await sighting in sightings {
            try Task.checkCancellation()
            publish(session.ingest(sighting))
            recent?.append(sighting)
            if sighting.time.isFinite, sighting.time >= (lastInput?.time ?? -.infinity) {
                lastInput = (sighting.time, clock.now)
            }
        }
    }

    /// Session data about a peer (display name, picture) arrived at data time `time` seconds.
    public func updatePeer(_ key: PeerKey, displayName: String? = nil, picture: Data? = nil, at time: Double) {
        publish(session.updatePeer(key, displayName: displayName, picture: picture, at: time))
    }

    /// A peer left the session at data time `time` seconds (``LocationSession/peerLeft(_:at:)``), publishing its
    /// `left` event.
    public func peerLeft(_ key: PeerKey, at time: Double) {
        publish(session.peerLeft(key, at: time))
    }

    /// Enables or disables the zone with id `id` from now on (``LocationSession/setZone(_:enabled:)``); positioning
    /// and the open visits carry on.
    /// - Returns: Whether the venue has such a zone.
    @discardableResult
    public func setZone(_ id: String, enabled: Bool) -> Bool {
        session.setZone(id, enabled: enabled)
    }

    /// The user revoked location authorisation at data time `time` seconds
    /// (``LocationSession/revokeAuthorization(at:)``): publishes each device's monitoring stop, reason
    /// `authorizationRevoked`.
    public func revokeAuthorization(at time: Double) {
        publish(session.revokeAuthorization(at: time))
    }

    /// Moves the session on to data time `time` seconds, publishing what was due.
    public func advance(to time: Double) {
        publish(session.advance(to: time))
    }

    /// If the input has been quiet for at least a tick, moves data time on by the quiet clock time.
    private func quietTick() {
        guard let lastInput else { return }
        let quiet = lastInput.instant.duration(to: clock.now)
        guard quiet >= tick else { return }
        let time = lastInput.time + Self.seconds(quiet)
        guard time > advancedTo else { return }
        advancedTo = time
        publish(session.advance(to: time))
    }

    private func publish(_ events: [SessionEvent]) {
        for event in events {
            continuation.yield(event)
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}

extension LocationSessionRunner where C == ContinuousClock {
    /// A runner that measures quiet input with the system's continuous clock.
    public init(_ session: LocationSession, tick: Duration = .seconds(1)) {
        self.init(session, clock: ContinuousClock(), tick: tick)
    }
}
