import IndoorModel

/// Region monitoring and ranging of beacons as a pure state machine.
///
/// The monitor holds beacon conditions with wildcards (``BeaconCondition``). A condition becomes
/// satisfied when a matching beacon is heard and unsatisfied only once no matching beacon has been
/// heard for ``exitDelay`` seconds, so one missed packet never causes an exit. While a condition is
/// satisfied, every sighting of a matching beacon is ranged by the injected ``BeaconRanger`` and reported
/// as ``MonitorEvent/didFindBeacon(_:)`` unless its proximity is unknown. When it becomes unsatisfied,
/// ranging stops and ``MonitorEvent/didLeaveArea(_:)`` names each beacon that had been heard under it.
///
/// Time comes only from the sightings and from ``advance(to:)``, which a caller invokes when nothing is
/// heard (for example once a second) so that exits are noticed. Sightings of node ids (rather than beacon
/// identities) are ignored: conditions are on identities.
///
/// A monitor watches one device, so its inputs' times drive it (``clock``, a ``DataClock`` with one source):
/// an input more than ``DataClock/horizon`` seconds before the latest one (the device's clock was set back)
/// brings the last-heard times back to it, so exits are not postponed by times from the old time line. An
/// ``advance(to:)`` more than the horizon after the latest input (a tick taken from another device's lying
/// clock) is refused: nothing happens, and ``DataClock/outliers`` counts it.
public struct BeaconMonitor<Ranger: BeaconRanger>: Sendable {
    /// Seconds without any matching beacon before a condition becomes unsatisfied.
    public var exitDelay: Double
    /// The monitor's present: the latest input time, and how far ``advance(to:)`` may go beyond it.
    public package(set) var clock: DataClock
    private var ranger: Ranger
    private var watched: [Watch]?

    private struct Watch: Sendable {
        var condition: BeaconCondition
        var satisfied = false
        /// Last time any matching beacon was heard, seconds.
        var lastHeard = -Double.infinity
        /// Beacons heard while satisfied, with the last time each was heard.
        var beacons: [BeaconID: Double] = [:]
    }

    /// - Parameters:
    ///   - ranger: Filters RSSI and estimates distance and proximity.
    ///   - exitDelay: Seconds without a matching beacon before a condition becomes unsatisfied. Default 10 s.
    ///     Give more than the longest gap between packets: with 0 a condition is left between any two packets.
    ///   - horizon: Seconds an ``advance(to:)`` may go beyond the latest input (default 3600).
    public init(ranger: Ranger, exitDelay seconds: Double = 10, horizon: Double = 3600) {
        self.ranger = ranger
        self.exitDelay = seconds
        self.clock = DataClock(horizon: horizon)
    }

    /// Whether an observation is in progress.
    public var isObserving: Bool { watched != nil }

    /// The conditions observed, in the order given to ``start(_:at:capabilities:)``.
    public var conditions: [BeaconCondition] { watched?.map(\.condition) ?? [] }

    /// The conditions currently satisfied.
    public var satisfiedConditions: [BeaconCondition] {
        watched?.filter(\.satisfied).map(\.condition) ?? []
    }

    /// Starts observing `conditions` (duplicates are dropped).
    ///
    /// - Parameters:
    ///   - conditions: At least one beacon condition.
    ///   - time: Seconds, for the start event.
    ///   - capabilities: What the platform allows; adapters pass what it reports.
    /// - Returns: ``MonitorEvent/didStartObserving(conditions:time:)``.
    /// - Throws: ``MonitorError`` with code `emptyBeaconList`, `observationInProgress`, or the first
    ///   capability that is missing (`locationServicesDisabled`, `notAuthorized`, `monitoringUnsupported`,
    ///   `rangingUnsupported`).
    public mutating func start(
        _ conditions: [BeaconCondition], at time: Double, capabilities: MonitorCapabilities = .all
    ) throws -> [MonitorEvent] {
        guard !conditions.isEmpty else { throw MonitorError.emptyBeaconList }
        guard watched == nil else { throw MonitorError.observationInProgress }
        if let problem = capabilities.problem { throw problem }
        var unique: [BeaconCondition] = []
        for condition in conditions where !unique.contains(condition) {
            unique.append(condition)
        }
        watched = unique.map { Watch(condition: $0) }
        return [.didStartObserving(conditions: unique, time: time)]
    }

    /// Stops observing; returns ``MonitorEvent/didStopObserving(_:)``, or nothing when not observing.
    public mutating func stop(at time: Double) -> [MonitorEvent] {
        end(.requested, at: time)
    }

    /// The user revoked location authorisation at `time` seconds: observation stops, and the stop event (reason
    /// ``ObservationStop/Reason/authorizationRevoked``) names the conditions and the beacons that were being ranged.
    /// - Returns: ``MonitorEvent/didStopObserving(_:)``, or nothing when not observing.
    public mutating func revokeAuthorization(at time: Double) -> [MonitorEvent] {
        end(.authorizationRevoked, at: time)
    }

    /// Takes one sighting: exits due before its time, then entries and ranging updates.
    ///
    /// A sighting with a non-finite time or RSSI is ignored. A late sighting (older than others already
    /// taken) still counts as heard, but never moves an exit earlier.
    public mutating func ingest(_ sighting: Sighting) -> [MonitorEvent] {
        guard sighting.time.isFinite else { return [] }
        guard let watched, case .beacon(let beacon) = sighting.source, sighting.rssi.isFinite,
            watched.contains(where: { $0.condition.matches(beacon) })
        else { return advance(to: sighting.time) }
        return ingest(ranged: ranger.range(sighting))
    }

    /// Takes one ranging update made elsewhere (a pipeline that ranges each sighting once for zones, peers and
    /// monitoring): exits due before its time, then entries and the ranging update.
    ///
    /// The same rules as ``ingest(_:)``: an update with a non-finite time or RSSI, or of a node id rather than
    /// a beacon identity, only moves time on.
    public mutating func ingest(ranged ranging: RangedBeacon) -> [MonitorEvent] {
        guard ranging.time.isFinite else { return [] }
        if case .jumped(let from) = clock.observe(ranging.time, source: ""), ranging.time < from {
            // The device's clock was set back: times from the old time line must not postpone exits.
            setBack(to: ranging.time)
        }
        var events = fire(upTo: ranging.time)
        guard var watched, case .beacon(let beacon) = ranging.source, ranging.rssi.isFinite else { return events }
        let matching = watched.indices.filter { watched[$0].condition.matches(beacon) }
        guard !matching.isEmpty else { return events }
        for index in matching {
            if !watched[index].satisfied {
                watched[index].satisfied = true
                events.append(.didEnterArea(condition: watched[index].condition, beacon: beacon, time: ranging.time))
            }
            watched[index].lastHeard = max(watched[index].lastHeard, ranging.time)
            watched[index].beacons[beacon] = max(watched[index].beacons[beacon] ?? ranging.time, ranging.time)
            if ranging.proximity != .unknown {
                events.append(
                    .didFindBeacon(FoundBeacon(condition: watched[index].condition, beacon: beacon, ranging: ranging)))
            }
        }
        self.watched = watched
        return events
    }

    /// Moves time on to `time` seconds: conditions with no matching beacon for ``exitDelay`` become
    /// unsatisfied, each with one ``MonitorEvent/didLeaveArea(_:)`` per beacon heard under it.
    ///
    /// A time more than the clock's horizon after the latest input is refused (nothing happens).
    public mutating func advance(to time: Double) -> [MonitorEvent] {
        guard clock.advance(to: time) else { return [] }
        return fire(upTo: time)
    }

    /// Brings every last-heard time after `time` seconds back to it.
    private mutating func setBack(to time: Double) {
        guard var watched else { return }
        for index in watched.indices {
            watched[index].lastHeard = min(watched[index].lastHeard, time)
            for (beacon, heard) in watched[index].beacons where heard > time { watched[index].beacons[beacon] = time }
        }
        self.watched = watched
    }

    private mutating func fire(upTo time: Double) -> [MonitorEvent] {
        guard var watched else { return [] }
        var events: [MonitorEvent] = []
        for index in watched.indices where watched[index].satisfied {
            let deadline = watched[index].lastHeard + exitDelay
            guard time >= deadline else { continue }
            for (beacon, lastHeard) in watched[index].beacons.sorted(by: { $0.key < $1.key }) {
                events.append(
                    .didLeaveArea(
                        AreaExit(
                            condition: watched[index].condition, beacon: beacon, lastHeard: lastHeard,
                            time: deadline)))
            }
            watched[index].satisfied = false
            watched[index].beacons = [:]
        }
        self.watched = watched
        // In time order; exits at the same time keep condition order.
        return events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    private mutating func end(_ reason: ObservationStop.Reason, at time: Double) -> [MonitorEvent] {
        guard let watched else { return [] }
        let beacons = Set(watched.filter(\.satisfied).flatMap(\.beacons.keys)).sorted()
        self.watched = nil
        return [
            .didStopObserving(
                ObservationStop(reason: reason, conditions: watched.map(\.condition), beacons: beacons, time: time))
        ]
    }
}

extension BeaconMonitor where Ranger == SmoothingRanger {
    /// A monitor with the default ranger (moving average of RSSI, log-distance model, −59 dBm at 1 m).
    public init(exitDelay seconds: Double = 10) {
        self.init(ranger: SmoothingRanger(), exitDelay: seconds)
    }
}
