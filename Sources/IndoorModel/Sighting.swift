import Foundation

/// One reception of one radio packet: a device heard a node (or a node heard a device) at a time.
public struct Sighting: Hashable, Sendable {
    /// When, in seconds (Unix time or relative; only differences matter within one device).
    public var time: Double
    /// The id of the thing being located.
    public var device: String
    /// The fixed radio involved.
    public var source: SightingSource
    /// Received signal strength, dBm.
    public var rssi: Double
    /// The transmitter's advertised power at 1 m, dBm, when the packet carried it.
    public var txPower: Double?

    /// A sighting at `time` seconds of `source` by `device`, with `rssi` and `txPower` in dBm.
    public init(time: Double, device: String, source: SightingSource, rssi: Double, txPower: Double? = nil) {
        self.time = time
        self.device = device
        self.source = source
        self.rssi = rssi
        self.txPower = txPower
    }

    /// A sighting of the node with id `node`.
    public init(time: Double, device: String, node: String, rssi: Double, txPower: Double? = nil) {
        self.init(time: time, device: device, source: .node(node), rssi: rssi, txPower: txPower)
    }
}

extension Sighting: Codable {
    enum CodingKeys: String, CodingKey {
        case time = "t"
        case device, node, beacon, rssi
        case txPower = "tx"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let time = try container.decode(Double.self, forKey: .time)
        guard time.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .time, in: container, debugDescription: "t is not finite")
        }
        let rssi = try container.decode(Double.self, forKey: .rssi)
        guard rssi.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .rssi, in: container, debugDescription: "rssi is not finite")
        }
        let source: SightingSource
        if let beacon = try container.decodeIfPresent(BeaconID.self, forKey: .beacon) {
            source = .beacon(beacon)
        } else if let node = try container.decodeIfPresent(String.self, forKey: .node) {
            source = .node(node)
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.node,
                DecodingError.Context(codingPath: [], debugDescription: "a sighting needs 'node' or 'beacon'"))
        }
        let device = try container.decode(String.self, forKey: .device)
        guard !device.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .device, in: container, debugDescription: "device is empty")
        }
        if case .node(let id) = source, id.isEmpty {
            throw DecodingError.dataCorruptedError(forKey: .node, in: container, debugDescription: "node is empty")
        }
        self.init(
            time: time, device: device, source: source, rssi: rssi,
            txPower: try container.decodeIfPresent(Double.self, forKey: .txPower))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(time, forKey: .time)
        try container.encode(device, forKey: .device)
        try container.encode(source, nodeKey: .node, beaconKey: .beacon)
        try container.encode(rssi, forKey: .rssi)
        try container.encodeIfPresent(txPower, forKey: .txPower)
    }
}
