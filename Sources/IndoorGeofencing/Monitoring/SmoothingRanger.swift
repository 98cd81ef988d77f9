import IndoorModel
import IndoorRanging

/// The default ranger: the stack's ``RSSIRanger`` with its exponential moving average and the log-distance model.
///
/// Per (device, radio) the filtered RSSI is `r ← r + smoothing · (rssi − r)` (``RSSIFilter/Kind/exponential(weight:resetAfter:)``),
/// restarted from the raw value when the radio was not heard for ``resetAfter`` seconds (a late sighting blends
/// in without moving the filter's time back). The distance in metres is `10 ^ ((p₁ − r) / (10 · n))`, with the
/// calibration ``RSSIAtOneMeter`` picks: the radio's own ``NodeCalibration`` (from the nodes given at `init`), else
/// the tx power carried by the sighting when it is a plausible power at 1 m, −100…−20 dBm (exponent
/// ``pathLossExponent``), else
/// ``defaultRSSIAtOneMeter`` (−59 dBm) and ``pathLossExponent`` (2).
public struct SmoothingRanger: BeaconRanger {
    /// The stack's ranger doing the work.
    public private(set) var ranger: RSSIRanger

    /// Weight of a new sample, 0 < smoothing ≤ 1 (1 means no smoothing).
    public let smoothing: Double
    /// Seconds of silence after which the filter restarts from the next raw value.
    public let resetAfter: Double
    /// RSSI at 1 m, dBm, when neither a calibration nor the sighting says.
    public var defaultRSSIAtOneMeter: Double { ranger.fallback.rssiAtOneMeter }
    /// Path-loss exponent when no calibration says.
    public var pathLossExponent: Double { ranger.fallback.pathLossExponent }
    /// Distances (metres) between proximity classes.
    public var thresholds: Proximity.Thresholds { ranger.thresholds }

    /// - Parameters:
    ///   - nodes: Radios whose surveyed calibration should be used; each is known by its node id and,
    ///     when it has one, its beacon identity.
    ///   - smoothing: Weight of a new sample (clamped to 0.01…1). Default 0.3.
    ///   - resetAfter: Seconds of silence that restart the filter. Default 10 s.
    ///   - defaultRSSIAtOneMeter: dBm at 1 m for radios without calibration or valid tx power. Default −59 dBm.
    ///   - pathLossExponent: Exponent for radios without calibration. Default 2.
    ///   - thresholds: Proximity class limits. Default 0.5 m / 3 m.
    public init(
        nodes: [Node] = [], smoothing: Double = 0.3, resetAfter seconds: Double = 10,
        defaultRSSIAtOneMeter dBm: Double = -59, pathLossExponent: Double = 2,
        thresholds: Proximity.Thresholds = .standard
    ) {
        let filter = ExponentialFilter(weight: smoothing, resetAfter: seconds)
        self.smoothing = filter.weight
        self.resetAfter = filter.resetAfter
        self.ranger = RSSIRanger(
            nodes: nodes, filter: .exponential(weight: filter.weight, resetAfter: filter.resetAfter),
            fallback: NodeCalibration(rssiAtOneMeter: dBm, pathLossExponent: pathLossExponent),
            thresholds: thresholds)
    }

    public mutating func range(_ sighting: Sighting) -> RangedBeacon {
        ranger.range(sighting)
    }

    public mutating func forget(device: String) {
        ranger.forget(device: device)
    }

    /// The log-distance estimate in metres for `rssi` dBm; `.infinity` for a non-finite RSSI.
    public func distance(rssi dBm: Double, source: SightingSource, txPower: Double?) -> Double {
        ranger.distance(rssi: dBm, source: source, txPower: txPower)
    }
}
