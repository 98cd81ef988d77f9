/// What the user and the system allow the app, as a platform adapter reports it (CoreLocation's authorisation
/// status, location services switched on or off).
public enum LocationAuthorization: String, Hashable, Sendable, CaseIterable {
    /// The user has not been asked yet.
    case notDetermined
    /// Restricted by the system (parental controls, device management).
    case restricted
    /// The user declined, or location services are off.
    case denied
    /// Allowed while the app is in use.
    case whenInUse
    /// Allowed at any time.
    case always

    /// Whether beacons may be ranged (and so a scan may run): `whenInUse` and `always`.
    public var allowsScanning: Bool { self == .whenInUse || self == .always }

    /// Whether beacon regions may be monitored in the background: `always` only.
    public var allowsBackgroundMonitoring: Bool { self == .always }
}
