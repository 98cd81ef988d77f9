import IndoorGeofencing
import IndoorModel
import IndoorRanging

/// Which RSSI filter ranges beacons for the zones in a replay (`--rssi-filter`).
public enum ReplayRSSIFilter: String, CaseIterable, Sendable {
    /// The stack's exponential moving average with weight 0.3, reset after 10 s (geofencing's default).
    case ema
    /// the ARMA filter (coefficient 0.1, the Android Beacon Library's; `ExponentialFilter.arma`).
    case arma
    /// ``KalmanRSSIFilter`` (process noise 2 dB²/s, measurement noise 16 dB²).
    case kalman
    /// ``TrimmedMeanFilter`` (20 s, 10% trimmed: the Android Beacon Library default).
    case trimmedMean = "trimmed-mean"

    /// The filter kind.
    var kind: RSSIFilter.Kind {
        switch self {
        case .ema: .geofencingDefault
        case .arma: .arma(coefficient: 0.1)
        case .kalman: .kalman(processNoise: 2, measurementNoise: 16)
        case .trimmedMean: .androidDefault
        }
    }

    /// The stack's ranger with this filter and the log-distance model over `nodes`' calibrations.
    func ranger(nodes: [Node]) -> any BeaconRanger {
        RSSIRanger(nodes: nodes, filter: kind)
    }
}
