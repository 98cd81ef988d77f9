import Foundation

/// How a node's signal fades with distance: the log-distance path-loss model's two parameters.
///
/// Expected RSSI at distance d metres: `rssiAtOneMeter − 10 · pathLossExponent · log10(d)` dBm.
public struct NodeCalibration: Hashable, Sendable, Codable {
    /// Received signal strength at 1 m, in dBm (typically −50…−75).
    public var rssiAtOneMeter: Double
    /// Path-loss exponent n (2 in free space, 1.6…4 indoors).
    public var pathLossExponent: Double

    /// A typical BLE beacon: −59 dBm at 1 m, exponent 2.
    public static let typical = NodeCalibration(rssiAtOneMeter: -59, pathLossExponent: 2)

    /// A calibration: `rssiAtOneMeter` in dBm, `pathLossExponent` dimensionless.
    public init(rssiAtOneMeter: Double, pathLossExponent: Double) {
        self.rssiAtOneMeter = rssiAtOneMeter
        self.pathLossExponent = pathLossExponent
    }

    /// The calibration of each radio among `nodes` that has one, keyed by the node's id and, when it advertises
    /// one, by its beacon identity (the two ways a ``Sighting`` names its radio). Later nodes win on a clash.
    package static func bySource(of nodes: [Node]) -> [SightingSource: NodeCalibration] {
        var calibrations: [SightingSource: NodeCalibration] = [:]
        for node in nodes {
            guard let calibration = node.calibration else { continue }
            calibrations[.node(node.id)] = calibration
            if let beacon = node.beacon { calibrations[.beacon(beacon)] = calibration }
        }
        return calibrations
    }

    enum CodingKeys: String, CodingKey {
        case rssiAtOneMeter = "rssiAt1m"
        case pathLossExponent
    }
}
