import IndoorModel

/// Where a device was, as a location SDK knows it: WGS84 latitude and longitude, horizontal accuracy, and a floor.
///
/// It is the `knownLocation` a scan is started with (the SDK's last location, often from GPS or Wi-Fi), and the
/// location a completion handler receives back: the device's location at the start of the scan.
public struct DeviceLocation: Hashable, Sendable, Codable {
    /// Degrees north, −90…90 (WGS84).
    public var latitude: Double
    /// Degrees east, −180…180 (WGS84).
    public var longitude: Double
    /// Radius in metres within which the device likely (about 68%) is; `nil` or ≤ 0 when unknown.
    public var horizontalAccuracy: Double?
    /// Floor level (0 = ground), when known.
    public var floor: Int?
    /// When the location was measured, Unix seconds; `nil` when unknown.
    public var timestamp: Double?

    /// A location in WGS84 degrees, with its accuracy in metres, floor level and Unix time.
    public init(
        latitude: Double, longitude: Double, horizontalAccuracy: Double? = nil, floor: Int? = nil,
        timestamp: Double? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.floor = floor
        self.timestamp = timestamp
    }

    /// The coordinate, without accuracy, floor and time.
    public var coordinate: GeoCoordinate { GeoCoordinate(latitude: latitude, longitude: longitude) }

    /// Whether the numbers can be a place on the Earth: finite, latitude in −90…90, longitude in −180…180.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// The accuracy as a usable standard deviation in metres: `nil` when unknown, not finite or ≤ 0.
    var usableAccuracy: Double? {
        guard let horizontalAccuracy, horizontalAccuracy.isFinite, horizontalAccuracy > 0 else { return nil }
        return horizontalAccuracy
    }
}
