import Foundation
import IndoorModel
import IndoorSession

/// The names the shell gives CoreLocation for monitored conditions, and the translation of its events back.
public enum MonitoredCondition {
    /// The identifier a condition is monitored under: its text form (`UUID`, `UUID/major`, `UUID/major/minor`).
    public static func identifier(_ condition: BeaconCondition) -> String { condition.text }

    /// A region event of a monitored condition: `inside` after a `satisfied` state, outside after `unsatisfied`.
    public struct Event: Hashable, Sendable {
        /// The condition.
        public var condition: BeaconCondition
        /// Whether the device is now inside (a matching beacon is heard).
        public var inside: Bool
        /// When, Unix seconds.
        public var time: Double

        /// An event of `condition`: `inside` or not, at `time` Unix seconds.
        public init(condition: BeaconCondition, inside: Bool, time: Double) {
            self.condition = condition
            self.inside = inside
            self.time = time
        }
    }

    /// The event for a CoreLocation monitoring event with `identifier`, or `nil` for an identifier the shell did not
    /// give, or a state that is neither satisfied nor unsatisfied (`unknown`, `unmonitored`).
    public static func event(identifier: String, satisfied: Bool?, date: Date) -> Event? {
        guard let satisfied, let condition = try? BeaconCondition(parsing: identifier) else { return nil }
        return Event(condition: condition, inside: satisfied, time: date.timeIntervalSince1970)
    }
}

extension DeviceLocation {
    /// A fix as a location for the app's world (a `CLLocation` with a floor): WGS84 from the venue's anchor; `nil`
    /// for a fix without coordinates (its venue has no anchor).
    public init?(_ fix: Fix) {
        guard let coordinate = fix.coordinate else { return nil }
        self.init(
            latitude: coordinate.latitude, longitude: coordinate.longitude, horizontalAccuracy: fix.accuracy,
            floor: fix.floor, timestamp: fix.time)
    }

    /// A scan result as a location.
    public init?(_ result: ScanResult) {
        guard let latitude = result.latitude, let longitude = result.longitude else { return nil }
        self.init(
            latitude: latitude, longitude: longitude, horizontalAccuracy: result.accuracy, floor: result.floor,
            timestamp: result.timestamp)
    }
}
