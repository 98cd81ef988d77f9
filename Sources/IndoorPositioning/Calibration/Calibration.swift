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

    /// - Parameters:
    ///   - nodes: Per-node path loss by node id.
    ///   - pooled: The fallback path loss.
    ///   - deviceOffsets: Receiver offsets in dB by device id (subtracted from the device's RSSI).
    ///   - dB: Shadowing sigma in dB (non-positive or non-finite: 6).
    ///   - deviceHeight: Typical device height, metres in the venue frame.
    ///   - samples: Survey sightings per node id.
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

    /// Whether this calibration knows the venue's path loss: per-node fits, or a pooled fit other than the typical
    /// one (what `indoor calibrate` or a survey gives, and ``uncalibrated`` has not).
    public var knowsPathLoss: Bool { !nodes.isEmpty || pooled != .typical }

    /// The path loss of `node`: this calibration's fit, else the node's own, else ``pooled``.
    public func calibration(for node: Node) -> NodeCalibration {
        nodes[node.id] ?? node.calibration ?? pooled
    }

    /// The receiver offset of `device`, dB (0 when unknown).
    public func offset(device: String) -> Double {
        deviceOffsets[device] ?? 0
    }
}

extension Calibration {
    private enum CodingKeys: String, CodingKey {
        case nodes, pooled, deviceOffsets, shadowingSigma, deviceHeight, samples
    }

    /// Reads a calibration JSON, checking every value the engine divides by or exponentiates.
    ///
    /// Missing fields take their defaults (no nodes, ``NodeCalibration/typical`` pooled, no offsets, 6 dB, no
    /// height, no counts); unknown fields are ignored.
    /// - Throws: `DecodingError.dataCorrupted` naming the field (and node or device id) when an RSSI at 1 m,
    ///   offset or height is not finite, a path-loss exponent is not a positive finite number, or the
    ///   shadowing sigma is not positive.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let nodes = try container.decodeIfPresent([String: NodeCalibration].self, forKey: .nodes) ?? [:]
        for id in nodes.keys.sorted() {
            if let nodeCalibration = nodes[id], let problem = Self.problem(with: nodeCalibration) {
                throw DecodingError.dataCorruptedError(
                    forKey: .nodes, in: container, debugDescription: "node '\(id)': \(problem)")
            }
        }
        let pooled = try container.decodeIfPresent(NodeCalibration.self, forKey: .pooled) ?? .typical
        if let problem = Self.problem(with: pooled) {
            throw DecodingError.dataCorruptedError(forKey: .pooled, in: container, debugDescription: problem)
        }
        let offsets = try container.decodeIfPresent([String: Double].self, forKey: .deviceOffsets) ?? [:]
        if let device = offsets.keys.sorted().first(where: { !(offsets[$0] ?? 0).isFinite }) {
            throw DecodingError.dataCorruptedError(
                forKey: .deviceOffsets, in: container, debugDescription: "device '\(device)': offset must be finite dB")
        }
        let sigma = try container.decodeIfPresent(Double.self, forKey: .shadowingSigma) ?? 6
        guard sigma.isFinite, sigma > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .shadowingSigma, in: container,
                debugDescription: "shadowingSigma must be a positive number of dB, got \(sigma)")
        }
        let height = try container.decodeIfPresent(Double.self, forKey: .deviceHeight)
        if let height, !height.isFinite {
            throw DecodingError.dataCorruptedError(
                forKey: .deviceHeight, in: container, debugDescription: "deviceHeight must be finite metres")
        }
        self.init(
            nodes: nodes, pooled: pooled, deviceOffsets: offsets, shadowingSigma: sigma, deviceHeight: height,
            samples: try container.decodeIfPresent([String: Int].self, forKey: .samples) ?? [:])
    }

    /// Why `calibration` cannot turn RSSI into distance, or `nil` when it can.
    private static func problem(with calibration: NodeCalibration) -> String? {
        guard calibration.rssiAtOneMeter.isFinite else {
            return "rssiAt1m must be a finite number of dBm, got \(calibration.rssiAtOneMeter)"
        }
        guard calibration.pathLossExponent.isFinite, calibration.pathLossExponent > 0 else {
            return "pathLossExponent must be a positive number, got \(calibration.pathLossExponent)"
        }
        return nil
    }
}
