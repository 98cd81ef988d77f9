import IndoorModel

/// Fits beacon conditions into the platform's monitoring limit: 20 regions per app for the legacy
/// `CLBeaconRegion` API (and 20 conditions per `CLMonitor`).
///
/// Platform-free and tested on Linux. Conditions already covered by a wider one are dropped; if there are still
/// too many, beacon-level conditions (`UUID/major/minor`) are widened to their `UUID/major`, then to their `UUID`;
/// if that is still too many, the first ``limit`` are kept and the rest reported as ``Plan/dropped``. Ranging then
/// tells the beacons apart again, so widening loses no sighting.
public struct RegionBudget: Hashable, Sendable {
    /// The limit of the legacy region-monitoring API and of one `CLMonitor`: 20 conditions.
    public static let platformLimit = 20

    /// At most this many conditions are monitored.
    public var limit: Int

    /// A budget of `limit` conditions (default ``platformLimit``; at least 1).
    public init(limit: Int = RegionBudget.platformLimit) {
        self.limit = max(1, limit)
    }

    /// What to monitor.
    public struct Plan: Hashable, Sendable {
        /// The conditions to monitor, at most ``RegionBudget/limit``.
        public var monitored: [BeaconCondition]
        /// Whether some conditions were widened to fit.
        public var widened: Bool
        /// Conditions that could not be fitted even as whole UUIDs.
        public var dropped: [BeaconCondition]

        /// A plan: `monitored` conditions, whether some were `widened`, and those `dropped`.
        public init(monitored: [BeaconCondition], widened: Bool, dropped: [BeaconCondition]) {
            self.monitored = monitored
            self.widened = widened
            self.dropped = dropped
        }
    }

    /// The plan for `conditions`, in their order.
    public func plan(_ conditions: [BeaconCondition]) -> Plan {
        var current = Self.withoutCovered(conditions)
        var widened = false
        if current.count > limit {
            current = Self.withoutCovered(current.map { $0.minor == nil ? $0 : Self.major($0) })
            widened = true
        }
        if current.count > limit {
            current = Self.withoutCovered(current.map { BeaconCondition(uuid: $0.uuid) })
        }
        let kept = Array(current.prefix(limit))
        return Plan(monitored: kept, widened: widened, dropped: Array(current.dropFirst(limit)))
    }

    private static func major(_ condition: BeaconCondition) -> BeaconCondition {
        condition.major.map { BeaconCondition(uuid: condition.uuid, major: $0) }
            ?? BeaconCondition(uuid: condition.uuid)
    }

    /// `conditions` without repeats and without those a wider one in the list covers, in order.
    static func withoutCovered(_ conditions: [BeaconCondition]) -> [BeaconCondition] {
        var result: [BeaconCondition] = []
        for condition in conditions where !result.contains(condition) {
            let covered = conditions.contains { other in
                other != condition && other.uuid == condition.uuid
                    && (other.major == nil || (other.major == condition.major && other.minor == nil))
            }
            if !covered { result.append(condition) }
        }
        return result
    }
}
