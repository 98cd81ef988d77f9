import Foundation
import IndoorModel

/// The log-distance path-loss model: RSSI(d) = P₁ − 10 · n · log10(d / 1 m).
public enum LogDistance {
    /// Distance in metres at which a node with `calibration` is heard at `rssi` dBm.
    ///
    /// A non-positive or non-finite exponent counts as 2 (an infinite one made every distance 1 m); never NaN:
    /// non-finite input gives `.infinity`.
    @inline(__always)
    public static func distance(rssi dBm: Double, calibration: NodeCalibration) -> Double {
        let n = calibration.pathLossExponent
        let exponent = n.isFinite && n > 0 ? n : 2
        let meters = exp((calibration.rssiAtOneMeter - dBm) * (2.302585092994046 / (10 * exponent)))
        return meters.isNaN ? .infinity : meters
    }

    /// Expected RSSI in dBm at `meters` from a node with `calibration` (distances under 1 cm count as 1 cm).
    @inline(__always)
    public static func rssi(meters: Double, calibration: NodeCalibration) -> Double {
        calibration.rssiAtOneMeter - 10 * calibration.pathLossExponent * log10(max(meters, 0.01))
    }

    /// Variance of the natural log of a distance estimate when RSSI has `sigma` dB of shadowing.
    ///
    /// A non-positive or non-finite `exponent` counts as 2, as in ``distance(rssi:calibration:)`` (it counted as
    /// 0.1 here, making such a node's ranges look 400 times noisier than the distance model used).
    public static func logRangeVariance(sigma dB: Double, exponent: Double) -> Double {
        let n = exponent.isFinite && exponent > 0 ? exponent : 2
        let s = dB * 2.302585092994046 / (10 * n)
        return s * s
    }
}
