import Foundation

/// The accuracy curve used to mimic iPhone distance: ratio = rssi / power at 1 m;
/// distance = ratio¹⁰ when ratio < 1, else A · ratio^B + C (metres).
public struct CurveFit: Hashable, Sendable, Codable {
    /// Multiplier A of the ratio¹ᴮ branch, metres.
    public var a: Double
    /// Exponent B of the ratio branch (dimensionless).
    public var b: Double
    /// Offset C added to the ratio branch, metres.
    public var c: Double

    /// The published fit for a Nexus 4 tuned to match iPhone output: A 0.89976, B 7.7095, C 0.111.
    package static let iPhoneLike = CurveFit(a: 0.89976, b: 7.7095, c: 0.111)

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
