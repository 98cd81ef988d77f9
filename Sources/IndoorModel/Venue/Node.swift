import Foundation

/// A fixed radio with a known position: a beacon that phones hear, or a gateway that hears devices.
public struct Node: Hashable, Sendable, Identifiable {
    /// The id that sightings use to name this node.
    public var id: String
    /// The beacon identity the node advertises, when it is a beacon.
    public var beacon: BeaconID?
    /// Position in the venue's local frame, metres; `z` is height above the node's floor.
    public var position: Point3D
    /// The floor level (0 = ground), `nil` in a one-floor venue.
    public var floor: Int?
    /// Path-loss calibration, when known; engines fall back to ``NodeCalibration/typical``.
    public var calibration: NodeCalibration?

    /// A node at `position` (metres, venue frame) on `floor`.
    public init(
        id: String, beacon: BeaconID? = nil, position: Point3D, floor: Int? = nil,
        calibration: NodeCalibration? = nil
    ) {
        self.id = id
        self.beacon = beacon
        self.position = position
        self.floor = floor
        self.calibration = calibration
    }
}

extension Node: Codable {
    enum CodingKeys: String, CodingKey {
        case id, beacon, x, y, z, floor
        case rssiAtOneMeter = "rssiAt1m"
        case pathLossExponent
    }

    /// Reads a node of a venue JSON (docs/FORMATS.md).
    ///
    /// `x`, `y` and `z` must be finite metres within ``LocalFrame/limitMeters`` of the origin, `floor` an integer,
    /// `rssiAt1m` within ``Sighting/physicalRSSIRange`` (dBm) and `pathLossExponent` a positive number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        guard !id.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "node id is empty")
        }
        let x = try container.decodeCoordinate(forKey: .x, name: "x")
        let y = try container.decodeCoordinate(forKey: .y, name: "y")
        let z = try container.decodeCoordinateIfPresent(forKey: .z, name: "z") ?? 0
        let rssi = try container.decodeNumberIfPresent(forKey: .rssiAtOneMeter, name: "rssiAt1m")
        if let rssi,
            let problem = Sighting.rangeProblem(
                rssi, field: "rssiAt1m", text: nil, range: Sighting.physicalRSSIRange, rangeName: "the physical range")
        {
            throw DecodingError.dataCorruptedError(forKey: .rssiAtOneMeter, in: container, debugDescription: problem)
        }
        let exponent = try container.decodeNumberIfPresent(forKey: .pathLossExponent, name: "pathLossExponent")
        var calibration: NodeCalibration?
        if rssi != nil || exponent != nil {
            calibration = NodeCalibration(
                rssiAtOneMeter: rssi ?? NodeCalibration.typical.rssiAtOneMeter,
                pathLossExponent: exponent ?? NodeCalibration.typical.pathLossExponent)
        }
        if let exponent, !(exponent > 0 && exponent.isFinite) {
            throw DecodingError.dataCorruptedError(
                forKey: .pathLossExponent, in: container, debugDescription: "pathLossExponent must be a positive number"
            )
        }
        self.init(
            id: id,
            beacon: try container.decodeIfPresent(BeaconID.self, forKey: .beacon),
            position: Point3D(x: x, y: y, z: z),
            floor: try container.decodeIntegerIfPresent(forKey: .floor),
            calibration: calibration)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(beacon, forKey: .beacon)
        try container.encode(position.x, forKey: .x)
        try container.encode(position.y, forKey: .y)
        try container.encode(position.z, forKey: .z)
        try container.encodeIfPresent(floor, forKey: .floor)
        try container.encodeIfPresent(calibration?.rssiAtOneMeter, forKey: .rssiAtOneMeter)
        try container.encodeIfPresent(calibration?.pathLossExponent, forKey: .pathLossExponent)
    }
}
