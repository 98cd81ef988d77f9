import Foundation

/// Where a device is estimated to be at a time: the output of positioning.
public struct Fix: Hashable, Sendable {
    /// Seconds, on the clock of the sightings it came from.
    public var time: Double
    /// The id of the device located.
    public var device: String
    /// Metres in the venue's local frame.
    public var position: Point3D
    /// Floor level, when the venue has floors.
    public var floor: Int?
    /// Radius in metres within which the device is likely (about 68%) to be.
    public var accuracy: Double
    /// How much to trust this fix, 0 (guess) … 1 (certain).
    public var confidence: Double
    /// Name of the method that produced it, for example `weighted-centroid`.
    public var method: String
    /// WGS84 position, when the venue has a ``GeoAnchor``.
    public var coordinate: GeoCoordinate?

    /// A fix: `accuracy` in metres, `confidence` 0…1, `position` in metres in the venue frame.
    public init(
        time: Double, device: String, position: Point3D, floor: Int? = nil, accuracy: Double, confidence: Double,
        method: String, coordinate: GeoCoordinate? = nil
    ) {
        self.time = time
        self.device = device
        self.position = position
        self.floor = floor
        self.accuracy = accuracy
        self.confidence = confidence
        self.method = method
        self.coordinate = coordinate
    }
}

extension Fix: Codable {
    enum CodingKeys: String, CodingKey {
        case time = "t"
        case device, x, y, z, floor, accuracy, confidence, method, latitude, longitude
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let latitude = try container.decodeIfPresent(Double.self, forKey: .latitude)
        let longitude = try container.decodeIfPresent(Double.self, forKey: .longitude)
        var coordinate: GeoCoordinate?
        if let latitude, let longitude { coordinate = GeoCoordinate(latitude: latitude, longitude: longitude) }
        self.init(
            time: try container.decode(Double.self, forKey: .time),
            device: try container.decode(String.self, forKey: .device),
            position: Point3D(
                x: try container.decode(Double.self, forKey: .x),
                y: try container.decode(Double.self, forKey: .y),
                z: try container.decodeIfPresent(Double.self, forKey: .z) ?? 0),
            floor: try container.decodeIfPresent(Int.self, forKey: .floor),
            accuracy: try container.decode(Double.self, forKey: .accuracy),
            confidence: try container.decode(Double.self, forKey: .confidence),
            method: try container.decode(String.self, forKey: .method),
            coordinate: coordinate)
    }

    /// Writes the fix with its lengths (`x`, `y`, `z`, `accuracy`) to the millimetre, `latitude` and `longitude` to
    /// 1e-8 degrees (about a millimetre) and `confidence` to 0.001: `11.374`, not `11.374000000000024`. No fix is
    /// that precise, so nothing is lost; `t` is written as it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(time, forKey: .time)
        try container.encode(device, forKey: .device)
        try container.encode(Self.rounded(position.x, 1e3), forKey: .x)
        try container.encode(Self.rounded(position.y, 1e3), forKey: .y)
        try container.encode(Self.rounded(position.z, 1e3), forKey: .z)
        try container.encodeIfPresent(floor, forKey: .floor)
        try container.encode(Self.rounded(accuracy, 1e3), forKey: .accuracy)
        try container.encode(Self.rounded(confidence, 1e3), forKey: .confidence)
        try container.encode(method, forKey: .method)
        try container.encodeIfPresent(coordinate.map { Self.rounded($0.latitude, 1e8) }, forKey: .latitude)
        try container.encodeIfPresent(coordinate.map { Self.rounded($0.longitude, 1e8) }, forKey: .longitude)
    }

    /// `value` to the nearest 1/`scale`; a value that is not finite, or too large to scale, as it is. A value that
    /// rounds to zero is 0, never −0 (which JSON would show as `-0`).
    static func rounded(_ value: Double, _ scale: Double) -> Double {
        let scaled = value * scale
        guard scaled.isFinite, abs(scaled) < 1e15 else { return value }
        return scaled.rounded() / scale + 0
    }
}
