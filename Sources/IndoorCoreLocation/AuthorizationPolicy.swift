import IndoorSession

/// What the Apple shell does when the authorisation changes: the decisions, platform-free and tested on Linux.
public enum AuthorizationPolicy {
    /// One thing for the shell to do.
    public enum Action: Hashable, Sendable {
        /// Ask the user for "when in use" permission (the system shows its prompt once).
        case requestWhenInUse
        /// Start ranging (and monitoring) the configured beacons.
        case startRanging
        /// Stop ranging and monitoring.
        case stopRanging
        /// Tell the scanner, so that running scans fail with `notAuthorized` (or may run again).
        case updateScanner(LocationAuthorization)
    }

    /// The actions for a change from `old` (`nil` at launch) to `new`, in order.
    public static func actions(from old: LocationAuthorization?, to new: LocationAuthorization) -> [Action] {
        var actions: [Action] = []
        if old != new { actions.append(.updateScanner(new)) }
        switch new {
        case .notDetermined:
            actions.append(.requestWhenInUse)
        case .whenInUse, .always:
            if !(old?.allowsScanning ?? false) { actions.append(.startRanging) }
        case .denied, .restricted:
            if old?.allowsScanning ?? false { actions.append(.stopRanging) }
        }
        return actions
    }
}
