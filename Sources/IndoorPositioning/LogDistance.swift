import Foundation
import IndoorModel

/// The log-distance path-loss model: RSSI(d) = P₁ − 10 · n · log10(d / 1 m).
public enum LogDistance {
    /// Distance in metres at which a node with `calibration` is heard at `rssi` dBm.
    @inline(__always)
    public static func distance(rssi dBm: Double, calibration: NodeCalibration) -> Double {
        let exponent = calibration.pathLossExponent > 0 ? calibration.pathLossExponent : 2
        let meters = exp((calibration.rssiAtOneMeter - dBm) * (2.302585092994046 / (10 * exponent)))
        return meters.isNaN ? .infinity : meters
    }

    /// Expected RSSI in dBm at `meters` from a node with `calibration` (distances under 1 cm count as 1 cm).
    @inline(__always)
    public static func rssi(meters: Double, calibration: NodeCalibration) -> Double {
        calibration.rssiAtOneMeter - 10 * calibration.pathLossExponent * log10(max(meters, 0.01))
    }

    /// Variance of the natural log of a distance estimate when RSSI has `sigma` dB of shadowing.
    public static func logRangeVariance(sigma dB: Double, exponent: Double) -> Double {
        let s = dB * 2.302585092994046 / (10 * max(exponent, 0.1))
        return s * s
    }
}
