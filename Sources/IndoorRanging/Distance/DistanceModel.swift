import Foundation
import IndoorModel

/// How a filtered RSSI becomes a distance estimate.
public enum DistanceModel: Hashable, Sendable, Codable {
    /// Log-distance path loss with the node's calibration: d = 10^((P₁ − rssi) / (10 n)) metres.
    case logDistance
    /// The curve fit that mimics iPhone accuracy (see ``CurveFit``).
    case curveFit(CurveFit)

    /// The distance in metres for `rssi` dBm heard from a node with `calibration`.
    ///
    /// Never negative, never NaN; non-finite input gives `.infinity`.
    @inline(__always)
    public func distance(rssi dBm: Double, calibration: NodeCalibration) -> Double {
        switch self {
        case .logDistance:
            return LogDistance.distance(rssi: dBm, calibration: calibration)
        case .curveFit(let fit):
            return fit.distance(rssi: dBm, powerAtOneMeter: calibration.rssiAtOneMeter)
        }
    }
}
