import IndoorModel

/// Receives the monitor's events one callback at a time, in order, on the observer's actor; every method has an
/// empty default, so a delegate implements only those it needs. Times are seconds.
public protocol BeaconObserverDelegate: AnyObject, Sendable {
    /// Observation started for `conditions` at `time` seconds.
    func didStartObserving(_ conditions: [BeaconCondition], at time: Double)
    /// Observation stopped: on request (``ObservationStop/Reason/requested``) or because the user revoked location
    /// authorisation (``ObservationStop/Reason/authorizationRevoked``).
    func didStopObserving(_ stop: ObservationStop)
    /// `condition` became satisfied at `time` seconds: `beacon` matched it.
    func didEnterArea(_ condition: BeaconCondition, beacon: BeaconID, at time: Double)
    /// A ranging update of a beacon under a satisfied condition (never with unknown proximity).
    func didFindBeacon(_ found: FoundBeacon)
    /// A condition became unsatisfied; one call per beacon that had been heard under it.
    func didLeaveArea(_ exit: AreaExit)
}

extension BeaconObserverDelegate {
    public func didStartObserving(_ conditions: [BeaconCondition], at time: Double) {}
    public func didStopObserving(_ stop: ObservationStop) {}
    public func didEnterArea(_ condition: BeaconCondition, beacon: BeaconID, at time: Double) {}
    public func didFindBeacon(_ found: FoundBeacon) {}
    public func didLeaveArea(_ exit: AreaExit) {}
}

/// The observer API over a ``BeaconMonitor``: its events as an `AsyncSequence` and through a delegate.
///
/// An adapter (CoreLocation, an HCI scanner, a replay) feeds sightings and clock ticks in; the events the
/// state machine returns go, in order, to ``events`` and to the ``delegate``. The observer adds no timing
/// of its own: call ``advance(to:)`` periodically so that exits are noticed when nothing is heard.
public actor BeaconObserver<Ranger: BeaconRanger> {
    private var monitor: BeaconMonitor<Ranger>
    private let continuation: AsyncStream<MonitorEvent>.Continuation
    /// Every event, in order. The stream ends when ``finish()`` is called.
    public nonisolated let events: AsyncStream<MonitorEvent>
    /// Receives every event too; held weakly.
    public weak var delegate: (any BeaconObserverDelegate)?

    /// An observer driving `monitor`; it observes nothing until ``start(_:at:capabilities:)``.
    /// - Parameters:
    ///   - monitor: The state machine to drive (``BeaconMonitor/init(exitDelay:)`` for the default ranger).
    ///   - bufferingPolicy: What the event stream keeps when no one reads it. Default: everything.
    public init(
        monitor: BeaconMonitor<Ranger>,
        bufferingPolicy: AsyncStream<MonitorEvent>.Continuation.BufferingPolicy = .unbounded
    ) {
        self.monitor = monitor
        let (stream, continuation) = AsyncStream.makeStream(of: MonitorEvent.self, bufferingPolicy: bufferingPolicy)
        self.events = stream
        self.continuation = continuation
    }

    deinit {
        continuation.finish()
    }

    /// Sets the delegate, held weakly, from outside the actor (`await observer.setDelegate(self)`); it receives the
    /// events delivered after this call.
    public func setDelegate(_ delegate: (any BeaconObserverDelegate)?) {
        self.delegate = delegate
    }

    /// Whether an observation is in progress.
    public var isObserving: Bool { monitor.isObserving }

    /// Starts observing `conditions`. See ``BeaconMonitor/start(_:at:capabilities:)``.
    /// - Throws: ``MonitorError`` (empty list, observation in progress, a missing capability).
    public func start(
        _ conditions: [BeaconCondition], at time: Double, capabilities: MonitorCapabilities = .all
    ) throws {
        deliver(try monitor.start(conditions, at: time, capabilities: capabilities))
    }

    /// Stops observing (nothing happens when not observing).
    public func stop(at time: Double) {
        deliver(monitor.stop(at: time))
    }

    /// The user revoked location authorisation at `time` seconds: observation stops with
    /// ``MonitorEvent/didStopObserving(_:)``, reason ``ObservationStop/Reason/authorizationRevoked``, naming the
    /// conditions and the beacons that were being ranged (nothing happens when not observing). An adapter calls it
    /// when the platform reports the revocation; start again once authorised.
    public func revokeAuthorization(at time: Double) {
        deliver(monitor.revokeAuthorization(at: time))
    }

    /// Feeds one sighting.
    public func ingest(_ sighting: Sighting) {
        deliver(monitor.ingest(sighting))
    }

    /// Moves time on, so that exits are noticed while nothing is heard.
    public func advance(to time: Double) {
        deliver(monitor.advance(to: time))
    }

    /// Ends the event stream.
    public func finish() {
        continuation.finish()
    }

    private func deliver(_ events: [MonitorEvent]) {
        for event in events {
            continuation.yield(event)
            guard let delegate else { continue }
            switch event {
            case .didStartObserving(let conditions, let time): delegate.didStartObserving(conditions, at: time)
            case .didStopObserving(let stop): delegate.didStopObserving(stop)
            case .didEnterArea(let condition, let beacon, let time):
                delegate.didEnterArea(condition, beacon: beacon, at: time)
            case .didFindBeacon(let found): delegate.didFindBeacon(found)
            case .didLeaveArea(let exit): delegate.didLeaveArea(exit)
            }
        }
    }
}
