import Foundation
import IndoorModel

/// The default ranger: an exponential moving average of RSSI and the log-distance path-loss model.
///
/// Per (device, radio) the filtered RSSI is `r ← r + smoothing · (rssi − r)`, restarted from the raw
/// value when the radio was not heard for ``resetAfter`` seconds (a late sighting blends in without moving
/// the filter's time back). The distance in metres is
/// `10 ^ ((p₁ − r) / (10 · n))`, where the RSSI at 1 m `p₁` is, in order of preference, the radio's
/// surveyed ``NodeCalibration`` (from the nodes given at `init`), the tx power carried by the sighting,
/// or ``defaultRSSIAtOneMeter`` (−59 dBm); the exponent `n` is the calibration's or ``pathLossExponent``.
public struct SmoothingRanger: BeaconRanger {
    /// Weight of a new sample, 0 < smoothing ≤ 1 (1 means no smoothing).
    public var smoothing: Double
    /// Seconds of silence after which the filter restarts from the next raw value.
    public var resetAfter: Double
    /// RSSI at 1 m, dBm, when neither a calibration nor the sighting says.
    public var defaultRSSIAtOneMeter: Double
    /// Path-loss exponent when no calibration says.
    public var pathLossExponent: Double
    /// Distances (metres) between proximity classes.
    public var thresholds: Proximity.Thresholds

    private let calibrations: [SightingSource: NodeCalibration]
    private var filters: [Key: Filter] = [:]

    private struct Key: Hashable, Sendable {
        var device: String
        var source: SightingSource
    }

    private struct Filter: Sendable {
        var rssi: Double
        var time: Double
    }

    /// - Parameters:
    ///   - nodes: Radios whose surveyed calibration should be used; each is known by its node id and,
    ///     when it has one, its beacon identity.
    ///   - smoothing: Weight of a new sample (clamped to 0.01…1). Default 0.3.
    ///   - resetAfter: Seconds of silence that restart the filter. Default 10 s.
    ///   - defaultRSSIAtOneMeter: dBm at 1 m for radios without calibration or tx power. Default −59 dBm.
    ///   - pathLossExponent: Exponent for radios without calibration. Default 2.
    ///   - thresholds: Proximity class limits. Default 0.5 m / 3 m.
    public init(
        nodes: [Node] = [], smoothing: Double = 0.3, resetAfter seconds: Double = 10,
        defaultRSSIAtOneMeter dBm: Double = -59, pathLossExponent: Double = 2,
        thresholds: Proximity.Thresholds = .standard
    ) {
        self.smoothing = smoothing.isFinite ? min(1, max(0.01, smoothing)) : 0.3
        self.resetAfter = seconds
        self.defaultRSSIAtOneMeter = dBm
        self.pathLossExponent = pathLossExponent
        self.thresholds = thresholds
        self.calibrations = NodeCalibration.bySource(of: nodes)
    }

    public mutating func range(_ sighting: Sighting) -> RangedBeacon {
        let key = Key(device: sighting.device, source: sighting.source)
        var rssi = sighting.rssi
        if let previous = filters[key], sighting.time - previous.time <= resetAfter, previous.rssi.isFinite {
            rssi = previous.rssi + smoothing * (sighting.rssi - previous.rssi)
        }
        if rssi.isFinite {
            // A late sighting blends in but never moves the filter's time back.
            filters[key] = Filter(rssi: rssi, time: max(sighting.time, filters[key]?.time ?? sighting.time))
        }
        let distance = distance(rssi: rssi, source: sighting.source, txPower: sighting.txPower)
        return RangedBeacon(
            time: sighting.time, device: sighting.device, source: sighting.source, rssi: rssi, distance: distance,
            proximity: Proximity(distance: distance, thresholds: thresholds))
    }

    /// The log-distance estimate in metres for `rssi` dBm; `.infinity` for a non-finite RSSI.
    public func distance(rssi dBm: Double, source: SightingSource, txPower: Double?) -> Double {
        guard dBm.isFinite else { return .infinity }
        let calibration = calibrations[source]
        let atOneMeter = calibration?.rssiAtOneMeter ?? txPower ?? defaultRSSIAtOneMeter
        let exponent = calibration?.pathLossExponent ?? pathLossExponent
        return pow(10, (atOneMeter - dBm) / (10 * exponent))
    }
}
