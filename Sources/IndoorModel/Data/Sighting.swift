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

extension Sighting {
    /// The received signal strengths a receiver can physically report, in dBm: −130…+20.
    ///
    /// Bluetooth receivers stop decoding near −100 dBm and the best radios at about −130 dBm; a transmitter
    /// touching the antenna gives at most about +20 dBm. A value outside (`1000`, a lost minus sign, a
    /// power in mW) is a corrupt reading: one such sighting drags a fix metres away, so readers refuse it.
    public static let physicalRSSIRange: ClosedRange<Double> = -130...20

    /// The advertised transmit powers a packet can carry, in dBm at 1 m: −128…127 (the signed byte of
    /// iBeacon, AltBeacon and Eddystone frames).
    ///
    /// A sighting whose `tx` is outside is refused as a whole, like a bad `rssi`: it cannot come from a
    /// real packet, so the row is corrupt. A value inside but no plausible power at 1 m (+50 dBm: other data in
    /// the power byte) is kept with the sighting, and ranging ignores it (IndoorRanging's `RSSIAtOneMeter` takes
    /// −100…−20 dBm).
    public static let advertisedTxPowerRange: ClosedRange<Double> = -128...127

    /// Why `dBm` cannot be a received signal strength, or `nil` when it can.
    ///
    /// - Parameter dBm: A received signal strength, dBm.
    /// - Returns: `rssi 'nan' is not a finite number`, or `rssi '1000' is outside the physical range
    ///   −130…20 dBm` (see ``physicalRSSIRange``); `nil` for a value within the range.
    public static func rssiProblem(dBm: Double) -> String? {
        rangeProblem(dBm, field: "rssi", text: nil, range: physicalRSSIRange, rangeName: "the physical range")
    }

    /// Why `dBm` cannot be an advertised transmit power, or `nil` when it can.
    ///
    /// - Parameter dBm: A transmit power at 1 m, dBm.
    /// - Returns: `tx '300' is outside the advertised power range −128…127 dBm` (see
    ///   ``advertisedTxPowerRange``) or `tx 'inf' is not a finite number`; `nil` for a value within the range.
    public static func txPowerProblem(dBm: Double) -> String? {
        rangeProblem(
            dBm, field: "tx", text: nil, range: advertisedTxPowerRange, rangeName: "the advertised power range")
    }

    /// Why this sighting must be refused before it reaches an engine, or `nil` when it may enter.
    ///
    /// The readers (``DatasetCSV/parseSightings(_:file:)``, ``SightingsJSONLines/parse(_:file:)``) refuse the
    /// same sightings with the same words; a pipeline that receives sightings in code (a radio, a test, an
    /// adapter) calls this to refuse and count them. A sighting is refused when its time is not finite, its
    /// device or node id is empty, its ``rssi`` is outside ``physicalRSSIRange`` or not finite, or its
    /// ``txPower`` is outside ``advertisedTxPowerRange``.
    ///
    /// - Returns: One line naming the field, such as `rssi '1000' is outside the physical range −130…20 dBm`.
    public var problem: String? {
        guard time.isFinite else { return "t '\(DatasetCSV.number(time))' is not a finite number" }
        guard !device.isEmpty else { return "device is empty" }
        if case .node(let id) = source, id.isEmpty { return "node is empty" }
        if let problem = Self.rssiProblem(dBm: rssi) { return problem }
        if let txPower, let problem = Self.txPowerProblem(dBm: txPower) { return problem }
        return nil
    }

    /// `field 'text' is outside <rangeName> a…b dBm`, `field 'text' is not a finite number`, or `nil`.
    static func rangeProblem(
        _ value: Double, field: String, text: Substring?, range: ClosedRange<Double>, rangeName: String
    ) -> String? {
        let shown = text.map(String.init) ?? DatasetCSV.number(value)
        guard value.isFinite else { return "\(field) '\(shown)' is not a finite number" }
        guard range.contains(value) else {
            let bounds = "\(signed(range.lowerBound))…\(signed(range.upperBound))"
            return "\(field) '\(shown)' is outside \(rangeName) \(bounds) dBm"
        }
        return nil
    }

    /// A bound with a typographic minus: `−130`.
    private static func signed(_ value: Double) -> String {
        value < 0 ? "−" + DatasetCSV.number(-value) : DatasetCSV.number(value)
    }
}

extension Sighting: Codable {
    enum CodingKeys: String, CodingKey {
        case time = "t"
        case device, node, beacon, rssi
        case txPower = "tx"
    }

    /// Reads one sighting of the JSON Lines format (docs/FORMATS.md), refusing what ``problem`` refuses.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let time = try container.decodeNumber(forKey: .time, name: "t")
        guard time.isFinite else {
            throw DecodingError.field(
                at: container.codingPath + [CodingKeys.time], "t '\(DatasetCSV.number(time))' is not a finite number")
        }
        let rssi = try container.decodeNumber(forKey: .rssi, name: "rssi")
        if let problem = Self.rssiProblem(dBm: rssi) {
            throw DecodingError.field(at: container.codingPath + [CodingKeys.rssi], problem)
        }
        let txPower = try container.decodeNumberIfPresent(forKey: .txPower, name: "tx")
        if let txPower, let problem = Self.txPowerProblem(dBm: txPower) {
            throw DecodingError.field(at: container.codingPath + [CodingKeys.txPower], problem)
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
            throw DecodingError.field(at: container.codingPath + [CodingKeys.device], "device is empty")
        }
        if case .node(let id) = source, id.isEmpty {
            throw DecodingError.field(at: container.codingPath + [CodingKeys.node], "node is empty")
        }
        self.init(time: time, device: device, source: source, rssi: rssi, txPower: txPower)
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
