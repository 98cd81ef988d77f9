/// Why the monitor (or an adapter wrapping it) cannot observe beacons.
public struct MonitorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem this is; stable across releases, for programs that react to it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        package init(_ name: String) { self.name = name }
        public var description: String { name }

        /// `start` was given no beacon conditions.
        public static let emptyBeaconList = Code("emptyBeaconList")
        /// `start` was called while an observation is in progress; stop it first.
        public static let observationInProgress = Code("observationInProgress")
        /// Location services are switched off on the device (adapters).
        public static let locationServicesDisabled = Code("locationServicesDisabled")
        /// The app is not authorised to use location (adapters).
        public static let notAuthorized = Code("notAuthorized")
        /// The device cannot monitor beacon regions (adapters).
        public static let monitoringUnsupported = Code("monitoringUnsupported")
        /// The device cannot range beacons (adapters).
        public static let rangingUnsupported = Code("rangingUnsupported")
    }

    /// What kind of problem this is: compare it with the constants of ``Code`` (`error.code == .notAuthorized`).
    public var code: Code
    /// What was wrong and how to fix it.
    public var message: String

    /// An error of `code`, described by `message` (for an adapter's own checks, or an app's tests; the monitor
    /// throws the standard ones).
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// The standard error for each code, with its message.
    static let emptyBeaconList = MonitorError(
        code: .emptyBeaconList, message: "no beacons to observe: give at least one UUID, UUID/major or UUID/major/minor"
    )
    static let observationInProgress = MonitorError(
        code: .observationInProgress,
        message: "an observation is already in progress: stop it before starting another")
    static let locationServicesDisabled = MonitorError(
        code: .locationServicesDisabled, message: "location services are off: switch them on in the device settings")
    public static let notAuthorized = MonitorError(
        code: .notAuthorized, message: "not authorised to use location: grant the app location permission")
    static let monitoringUnsupported = MonitorError(
        code: .monitoringUnsupported, message: "this device cannot monitor beacon regions")
    static let rangingUnsupported = MonitorError(
        code: .rangingUnsupported, message: "this device cannot range beacons")
}
