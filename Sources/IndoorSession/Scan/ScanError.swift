/// Why an indoor scan gave no result, with a code for programs and a message for people.
public struct ScanError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is; stable across releases.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name of the code, e.g. `unknownGeofence`.
        public let name: String
        /// A code named `name`.
        package init(_ name: String) { self.name = name }
        public var description: String { name }

        /// No venue declares the geofence id (``IndoorModel/Venue/geofences``).
        public static let unknownGeofence = Code("unknownGeofence")
        /// The scan heard no beacon of the venue.
        public static let nothingHeard = Code("nothingHeard")
        /// Beacons were heard, but too few (or too badly placed) for a position.
        public static let tooFewBeacons = Code("tooFewBeacons")
        /// The scan was cancelled before it ended.
        public static let cancelled = Code("cancelled")
        /// The app may not use location (the user declined, or location services are off).
        public static let notAuthorized = Code("notAuthorized")
        /// The request cannot be a scan: a duration that is not a positive number of seconds, no scanner registered.
        public static let invalidRequest = Code("invalidRequest")
        /// The source of sightings failed.
        public static let sourceFailed = Code("sourceFailed")
    }

    /// What kind of failure this is.
    public var code: Code
    /// What happened and what to do about it.
    public var message: String

    /// A failure of kind `code`, described by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    /// The scan was cancelled.
    public static let cancelled = ScanError(.cancelled, "the scan was cancelled before it ended")
    /// The app is not authorised to use location.
    public static let notAuthorized = ScanError(
        .notAuthorized, "not authorised to use location: grant the app location permission and switch location on")
}
