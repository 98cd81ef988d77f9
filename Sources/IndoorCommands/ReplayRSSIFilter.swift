import IndoorGeofencing
import IndoorModel
import IndoorPositioning

/// Which RSSI filter ranges beacons for the zones in a replay (`--rssi-filter`).
public enum ReplayRSSIFilter: String, CaseIterable, Sendable {
    /// Geofencing's own ``SmoothingRanger``: moving average with weight 0.3.
    case ema
    /// Positioning's ``ARMAFilter`` (coefficient 0.1, the Android Beacon Library's).
    case arma
    /// Positioning's ``KalmanRSSIFilter`` (process noise 2 dB²/s, measurement noise 16 dB²).
    case kalman
    /// Positioning's ``TrimmedMeanFilter`` (20 s, 10% trimmed: the Android Beacon Library default).
    case trimmedMean = "trimmed-mean"

    /// A ranger with this filter and the log-distance model over `nodes`' calibrations.
    func ranger(nodes: [Node]) -> any BeaconRanger {
        switch self {
        case .ema: SmoothingRanger(nodes: nodes)
        case .arma: ReplayRanger(kind: .arma(coefficient: 0.1), nodes: nodes)
        case .kalman: ReplayRanger(kind: .kalman(processNoise: 2, measurementNoise: 16), nodes: nodes)
        case .trimmedMean: ReplayRanger(kind: .androidDefault, nodes: nodes)
        }
    }
}
