import Foundation

/// A latitude and longitude on the WGS84 ellipsoid, in degrees.
public struct GeoCoordinate: Hashable, Sendable, Codable {
    /// Degrees north of the equator, −90…90.
    public var latitude: Double
    /// Degrees east of Greenwich, −180…180.
    public var longitude: Double

    /// A coordinate in degrees (WGS84).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
