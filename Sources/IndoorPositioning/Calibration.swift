import Foundation
import IndoorModel

/// What a survey taught about the radios: per-node path loss, per-device receiver offsets, noise, height.
///
/// Written and read as JSON (`indoor calibrate DATASET -o calibration.json`); the engine uses it to turn
/// RSSI into distance. Fit one with ``CalibrationFitter``.
public struct Calibration: Hashable, Sendable, Codable {
    /// Per-node path loss, by node id. Nodes not listed use ``pooled``.
    public var nodes: [String: NodeCalibration]
    /// The fit of all nodes together: the fallback for nodes with too little data.
    public var pooled: NodeCalibration
    /// Per-device receiver offsets in dB, by device id: how much stronger this device reads than the
    /// survey's average receiver. The engine subtracts it from the device's RSSI.
    public var deviceOffsets: [String: Double]
    /// Standard deviation of RSSI about the fitted model (shadowing plus noise), dB.
    public var shadowingSigma: Double
    /// Typical height of the located device in the venue frame, metres, when the survey gave heights.
    public var deviceHeight: Double?
    /// How many survey sightings each node's fit used, by node id.
    public var samples: [String: Int]

    public init(
        nodes: [String: NodeCalibration] = [:], pooled: NodeCalibration = .typical,
        deviceOffsets: [String: Double] = [:], shadowingSigma dB: Double = 6, deviceHeight: Double? = nil,
        samples: [String: Int] = [:]
    ) {
        self.nodes = nodes
        self.pooled = pooled
        self.deviceOffsets = deviceOffsets
        self.shadowingSigma = dB.isFinite && dB > 0 ? dB : 6
        self.deviceHeight = deviceHeight
        self.samples = samples
    }

    /// No survey: every node at its own ``Node/calibration`` or ``NodeCalibration/typical``, 6 dB shadowing.
    public static let uncalibrated = Calibration()

    /// The path loss of `node`: this calibration's fit, else the node's own, else ``pooled``.
    public func calibration(for node: Node) -> NodeCalibration {
        nodes[node.id] ?? node.calibration ?? pooled
    }

    /// The receiver offset of `device`, dB (0 when unknown).
    public func offset(device: String) -> Double {
        deviceOffsets[device] ?? 0
    }
}
