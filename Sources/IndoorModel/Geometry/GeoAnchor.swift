import Foundation

/// Places a venue's local frame on the Earth: local metres ↔ WGS84 latitude and longitude.
///
/// The local origin (0, 0) sits at ``origin``; the local +y axis points along ``bearingDegrees``
/// (clockwise from true north), and +x points 90° clockwise from +y. The conversion goes through
/// the local tangent plane (east–north–up) of the WGS84 ellipsoid at the origin, so it is exact on
/// that plane: within 1 km of the origin both directions agree with geodesic references to well
/// under 1 cm.
public struct GeoAnchor: Hashable, Sendable, Codable {
    /// Where the local origin is.
    public var origin: GeoCoordinate
    /// Bearing of the local +y axis, degrees clockwise from true north.
    public var bearingDegrees: Double

    /// An anchor at `origin` whose +y axis points `bearingDegrees` clockwise from true north.
    public init(origin: GeoCoordinate, bearingDegrees: Double = 0) {
        self.origin = origin
        self.bearingDegrees = bearingDegrees
    }

    enum CodingKeys: String, CodingKey {
        case latitude, longitude, bearingDegrees
    }

    /// The bearings a venue JSON may give, in degrees: −360…360 (a larger or non-finite bearing is a typo,
    /// and far from zero the trigonometry loses precision).
    static let bearingRange: ClosedRange<Double> = -360...360

    /// Reads an anchor of a venue JSON: `latitude` in −90…90 and `longitude` in −180…180 (WGS84 degrees),
    /// `bearingDegrees` (default 0) in ``bearingRange``; anything else fails naming the field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let latitude = try container.decodeNumber(forKey: .latitude, name: "latitude")
        let longitude = try container.decodeNumber(forKey: .longitude, name: "longitude")
        guard (-90...90).contains(latitude) else {
            throw DecodingError.dataCorruptedError(
                forKey: .latitude, in: container, debugDescription: "latitude \(latitude) is not in -90...90")
        }
        guard (-180...180).contains(longitude) else {
            throw DecodingError.dataCorruptedError(
                forKey: .longitude, in: container, debugDescription: "longitude \(longitude) is not in -180...180")
        }
        let bearing = try container.decodeNumberIfPresent(forKey: .bearingDegrees, name: "bearingDegrees") ?? 0
        guard Self.bearingRange.contains(bearing) else {
            throw DecodingError.dataCorruptedError(
                forKey: .bearingDegrees, in: container,
                debugDescription: "bearingDegrees \(DatasetCSV.number(bearing)) is not in -360...360")
        }
        self.init(origin: GeoCoordinate(latitude: latitude, longitude: longitude), bearingDegrees: bearing)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(origin.latitude, forKey: .latitude)
        try container.encode(origin.longitude, forKey: .longitude)
        try container.encode(bearingDegrees, forKey: .bearingDegrees)
    }

    // WGS84
    private static let semiMajorAxis = 6_378_137.0
    private static let flattening = 1 / 298.257_223_563
    private static let eccentricitySquared = flattening * (2 - flattening)

    /// The geographic coordinate of a local point (metres in the venue frame).
    public func coordinate(of point: Point2D) -> GeoCoordinate {
        let (east, north) = eastNorth(of: point)
        let (ox, oy, oz) = Self.ecef(latitude: origin.latitude, longitude: origin.longitude)
        let (sinLat, cosLat, sinLon, cosLon) = originTrig
        // ENU (east, north, up = 0) to ECEF.
        let x = ox - sinLon * east - sinLat * cosLon * north
        let y = oy + cosLon * east - sinLat * sinLon * north
        let z = oz + cosLat * north
        return Self.geodetic(x: x, y: y, z: z)
    }

    /// The local point (metres in the venue frame) of a geographic coordinate, on the ellipsoid.
    public func point(of coordinate: GeoCoordinate) -> Point2D {
        let (px, py, pz) = Self.ecef(latitude: coordinate.latitude, longitude: coordinate.longitude)
        let (ox, oy, oz) = Self.ecef(latitude: origin.latitude, longitude: origin.longitude)
        let dx = px - ox
        let dy = py - oy
        let dz = pz - oz
        let (sinLat, cosLat, sinLon, cosLon) = originTrig
        let east = -sinLon * dx + cosLon * dy
        let north = -sinLat * cosLon * dx - sinLat * sinLon * dy + cosLat * dz
        // Rotate east/north back into the local frame.
        let bearing = bearingDegrees * .pi / 180
        let x = east * cos(bearing) - north * sin(bearing)
        let y = east * sin(bearing) + north * cos(bearing)
        return Point2D(x: x, y: y)
    }

    private func eastNorth(of point: Point2D) -> (east: Double, north: Double) {
        let bearing = bearingDegrees * .pi / 180
        // +y points at `bearing` clockwise from north; +x at bearing + 90°.
        let east = point.y * sin(bearing) + point.x * cos(bearing)
        let north = point.y * cos(bearing) - point.x * sin(bearing)
        return (east, north)
    }

    private var originTrig: (Double, Double, Double, Double) {
        let lat = origin.latitude * .pi / 180
        let lon = origin.longitude * .pi / 180
        return (sin(lat), cos(lat), sin(lon), cos(lon))
    }

    private static func ecef(latitude: Double, longitude: Double) -> (Double, Double, Double) {
        let lat = latitude * .pi / 180
        let lon = longitude * .pi / 180
        let n = semiMajorAxis / (1 - eccentricitySquared * sin(lat) * sin(lat)).squareRoot()
        return (n * cos(lat) * cos(lon), n * cos(lat) * sin(lon), n * (1 - eccentricitySquared) * sin(lat))
    }

    /// ECEF to geodetic latitude/longitude by fixed-point iteration (converges to < 1e-12 rad).
    private static func geodetic(x: Double, y: Double, z: Double) -> GeoCoordinate {
        let lon = atan2(y, x)
        let p = (x * x + y * y).squareRoot()
        var lat = atan2(z, p * (1 - eccentricitySquared))
        for _ in 0..<10 {
            let n = semiMajorAxis / (1 - eccentricitySquared * sin(lat) * sin(lat)).squareRoot()
            let h = p / cos(lat) - n
            let next = atan2(z, p * (1 - eccentricitySquared * n / (n + h)))
            if abs(next - lat) < 1e-14 {
                lat = next
                break
            }
            lat = next
        }
        return GeoCoordinate(latitude: lat * 180 / .pi, longitude: lon * 180 / .pi)
    }
}
