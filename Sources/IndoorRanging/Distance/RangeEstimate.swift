import IndoorModel

/// What one sighting tells through an ``RSSIRanger``: the filtered RSSI, the distance and its proximity class.
public struct RangeEstimate: Hashable, Sendable {
    /// Filtered received signal strength, dBm (the raw RSSI when the filter has no value, non-finite for a
    /// non-finite sighting).
    public var rssi: Double
    /// Estimated distance, metres; `.infinity` when unknown.
    public var distance: Double
    /// The proximity class of ``distance``.
    public var proximity: Proximity
    /// The calibration the distance came from (see ``RSSIAtOneMeter``).
    public var calibration: NodeCalibration

    /// An estimate of `rssi` dBm, `distance` metres (`.infinity` when unknown), its `proximity` class, from
    /// `calibration` (for an app's tests, or a ranger of its own).
    public init(rssi dBm: Double, distance meters: Double, proximity: Proximity, calibration: NodeCalibration) {
        self.rssi = dBm
        self.distance = meters
        self.proximity = proximity
        self.calibration = calibration
    }
}
