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

/// The accuracy curve used to mimic iPhone distance: ratio = rssi / power at 1 m;
/// distance = ratio¹⁰ when ratio < 1, else A · ratio^B + C (metres).
public struct CurveFit: Hashable, Sendable, Codable {
    public var a: Double
    public var b: Double
    public var c: Double

    /// The published fit for a Nexus 4 tuned to match iPhone output: A 0.89976, B 7.7095, C 0.111.
    public static let iPhoneLike = CurveFit(a: 0.89976, b: 7.7095, c: 0.111)

    public init(a: Double, b: Double, c: Double) {
        self.a = a
        self.b = b
        self.c = c
    }

    /// Distance in metres for `rssi` dBm from a node whose RSSI at 1 m is `powerAtOneMeter` dBm.
    ///
    /// The fit holds for negative dBm on both sides; returns `.infinity` (no usable distance) when either value
    /// is non-finite or not negative, for example a positive advertised transmit power, whose ratio would be
    /// negative and its tenth power absurd.
    public func distance(rssi dBm: Double, powerAtOneMeter: Double) -> Double {
        guard dBm.isFinite, powerAtOneMeter.isFinite, dBm < 0, powerAtOneMeter < 0 else { return .infinity }
        let ratio = dBm / powerAtOneMeter
        let meters = ratio < 1 ? pow(ratio, 10) : a * pow(ratio, b) + c
        return meters.isFinite && meters >= 0 ? meters : .infinity
    }
}
