import IndoorModel

/// What the beacon monitor reports.
public enum MonitorEvent: Hashable, Sendable {
    /// Observation started for these conditions.
    case didStartObserving(conditions: [BeaconCondition], time: Double)
    /// Observation stopped for these conditions (on request, or because authorisation was revoked).
    case didStopObserving(ObservationStop)
    /// A condition became satisfied: a matching beacon was heard.
    case didEnterArea(condition: BeaconCondition, beacon: BeaconID, time: Double)
    /// A ranging update of a beacon matching a satisfied condition (never with unknown proximity).
    case didFindBeacon(FoundBeacon)
    /// A condition became unsatisfied; one event per beacon that had been heard under it.
    case didLeaveArea(AreaExit)

    /// The time of the event, seconds.
    public var time: Double {
        switch self {
        case .didStartObserving(_, let time), .didEnterArea(_, _, let time): time
        case .didStopObserving(let stop): stop.time
        case .didFindBeacon(let found): found.ranging.time
        case .didLeaveArea(let exit): exit.time
        }
    }
}

/// Why and when an observation stopped, and what it had been observing.
public struct ObservationStop: Hashable, Sendable {
    /// Why observation stopped.
    public enum Reason: String, Hashable, Sendable, Codable {
        /// The app asked to stop.
        case requested
        /// The user revoked location authorisation.
        case authorizationRevoked
    }

    /// Why observation stopped.
    public var reason: Reason
    /// The conditions that are no longer observed.
    public var conditions: [BeaconCondition]
    /// The beacons that were being ranged (under satisfied conditions) when observation stopped.
    public var beacons: [BeaconID]
    /// Seconds.
    public var time: Double

    /// A stop at `time` seconds for `reason`, of `conditions`, with the `beacons` that were being ranged.
    public init(reason: Reason, conditions: [BeaconCondition], beacons: [BeaconID], time: Double) {
        self.reason = reason
        self.conditions = conditions
        self.beacons = beacons
        self.time = time
    }
}

/// A beacon found by ranging, with the condition that it satisfies.
public struct FoundBeacon: Hashable, Sendable {
    /// The observed condition the beacon satisfies.
    public var condition: BeaconCondition
    /// The beacon's full identity.
    public var beacon: BeaconID
    /// Filtered RSSI (dBm), distance (metres) and proximity.
    public var ranging: RangedBeacon

    /// `beacon`, satisfying `condition`, as `ranging` measured it (its time is the event's).
    public init(condition: BeaconCondition, beacon: BeaconID, ranging: RangedBeacon) {
        self.condition = condition
        self.beacon = beacon
        self.ranging = ranging
    }
}

/// A condition that became unsatisfied, naming a beacon that had satisfied it.
public struct AreaExit: Hashable, Sendable {
    /// The condition that became unsatisfied.
    public var condition: BeaconCondition
    /// A beacon that had satisfied it.
    public var beacon: BeaconID
    /// When the beacon was last heard, seconds.
    public var lastHeard: Double
    /// When the exit was decided: the last time any matching beacon was heard plus the exit delay, seconds.
    public var time: Double

    /// `condition` left at `time` seconds, naming `beacon`, last heard at `lastHeard` seconds.
    public init(condition: BeaconCondition, beacon: BeaconID, lastHeard: Double, time: Double) {
        self.condition = condition
        self.beacon = beacon
        self.lastHeard = lastHeard
        self.time = time
    }
}
