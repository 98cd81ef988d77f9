import Foundation
import IndoorModel

/// The answer of an indoor scan: where the device was at the end of the scan, in the venue's frame and on WGS84.
///
/// Its JSON (``json()``) is what the scan provider hands to a location SDK; its keys are stable and documented in
/// docs/SCAN.md: `floor`, `latitude`, `longitude`, `x`, `y`, `accuracy` (m), `confidence` (0…1), `timestamp` (Unix
/// seconds, on the sightings' clock), `provider`, `geofenceId`, `venueId`, `method`, `beacons`, `duration` (s).
/// Every key is always present; `floor`, `latitude` and `longitude` are `null` when unknown.
public struct ScanResult: Hashable, Sendable {
    /// Floor level, when the venue has floors.
    public var floor: Int?
    /// WGS84 degrees, from the venue's geo anchor; `nil` when the venue has none.
    public var latitude: Double?
    /// WGS84 degrees, from the venue's geo anchor; `nil` when the venue has none.
    public var longitude: Double?
    /// Metres in the venue's local frame.
    public var x: Double
    /// Metres in the venue's local frame.
    public var y: Double
    /// Radius in metres within which the device likely (about 68%) is.
    public var accuracy: Double
    /// How much to trust the answer, 0 (guess) … 1 (certain).
    public var confidence: Double
    /// The end of the scan, seconds on the sightings' clock (Unix time for a live source).
    public var timestamp: Double
    /// Who answered: ``providerName``.
    public var provider: String
    /// The geofence scanned.
    public var geofenceId: String
    /// The venue that serves it.
    public var venueId: String
    /// The positioning method that answered, e.g. `auto+track` (the default).
    public var method: String
    /// How many beacons the answer was made from.
    public var beacons: Int
    /// How long the scan listened, seconds on the sightings' clock.
    public var duration: Double
    /// Whether the known location was inside the venue and weighed in (not part of the JSON).
    public var seeded: Bool
    /// The device's location at the start of the scan: the known location it was started with, else the first
    /// position of the scan (not part of the JSON).
    public var startLocation: DeviceLocation?

    /// The name every result carries in `provider`.
    public static let providerName = "indoor"

    /// A result; see the properties for units.
    public init(
        floor: Int?, latitude: Double?, longitude: Double?, x: Double, y: Double, accuracy: Double,
        confidence: Double, timestamp: Double, provider: String = ScanResult.providerName, geofenceId: String,
        venueId: String, method: String, beacons: Int, duration: Double, seeded: Bool = false,
        startLocation: DeviceLocation? = nil
    ) {
        self.floor = floor
        self.latitude = latitude
        self.longitude = longitude
        self.x = x
        self.y = y
        self.accuracy = accuracy
        self.confidence = confidence
        self.timestamp = timestamp
        self.provider = provider
        self.geofenceId = geofenceId
        self.venueId = venueId
        self.method = method
        self.beacons = beacons
        self.duration = duration
        self.seeded = seeded
        self.startLocation = startLocation
    }

    /// The result as one line of JSON with sorted keys: the string a location SDK receives.
    ///
    /// Metres and seconds are rounded to the millimetre and millisecond, confidence to 3 decimals, degrees to
    /// 7 decimals (about 1 cm).
    public func json() -> String {
        let data = (try? JSONFormat.encoder().encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads a result from its JSON (``json()``).
    /// - Throws: ``IndoorModel/FormatError`` naming the field.
    public static func decodeJSON(_ text: String, file: String = "scan.json") throws -> ScanResult {
        try JSONFormat.decode(ScanResult.self, from: Data(text.utf8), file: file)
    }
}

extension ScanResult: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case floor, latitude, longitude, x, y, accuracy, confidence, timestamp, provider, geofenceId, venueId, method
        case beacons, duration
    }

    /// The JSON keys, in the order of the documentation.
    public static let jsonKeys: [String] = CodingKeys.allCases.map(\.stringValue)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            floor: try container.decodeIfPresent(Int.self, forKey: .floor),
            latitude: try container.decodeIfPresent(Double.self, forKey: .latitude),
            longitude: try container.decodeIfPresent(Double.self, forKey: .longitude),
            x: try container.decode(Double.self, forKey: .x), y: try container.decode(Double.self, forKey: .y),
            accuracy: try container.decode(Double.self, forKey: .accuracy),
            confidence: try container.decode(Double.self, forKey: .confidence),
            timestamp: try container.decode(Double.self, forKey: .timestamp),
            provider: try container.decode(String.self, forKey: .provider),
            geofenceId: try container.decode(String.self, forKey: .geofenceId),
            venueId: try container.decode(String.self, forKey: .venueId),
            method: try container.decode(String.self, forKey: .method),
            beacons: try container.decode(Int.self, forKey: .beacons),
            duration: try container.decode(Double.self, forKey: .duration))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(floor, forKey: .floor)
        try container.encode(latitude.map { Self.round($0, 7) }, forKey: .latitude)
        try container.encode(longitude.map { Self.round($0, 7) }, forKey: .longitude)
        try container.encode(Self.round(x, 3), forKey: .x)
        try container.encode(Self.round(y, 3), forKey: .y)
        try container.encode(Self.round(accuracy, 3), forKey: .accuracy)
        try container.encode(Self.round(confidence, 3), forKey: .confidence)
        try container.encode(Self.round(timestamp, 3), forKey: .timestamp)
        try container.encode(provider, forKey: .provider)
        try container.encode(geofenceId, forKey: .geofenceId)
        try container.encode(venueId, forKey: .venueId)
        try container.encode(method, forKey: .method)
        try container.encode(beacons, forKey: .beacons)
        try container.encode(Self.round(duration, 3), forKey: .duration)
    }

    private static func round(_ value: Double, _ decimals: Int) -> Double {
        let scale = pow(10, Double(decimals))
        return (value * scale).rounded() / scale
    }
}
