import Foundation
import Testing

@testable import IndoorModel

/// A local point and the WGS84 coordinate it must map to.
struct GeoReference: Sendable, CustomTestStringConvertible {
    var latitude: Double
    var longitude: Double
    var bearing: Double
    var x: Double
    var y: Double
    var expectedLatitude: Double
    var expectedLongitude: Double

    var testDescription: String { "origin \(latitude),\(longitude) bearing \(bearing): (\(x), \(y))" }
}

// Reference coordinates computed independently with GeographicLib 2.x (Python, `pip install geographiclib`):
//   Geodesic.WGS84.Direct(latitude, longitude, azimuth, distance)
// with distance = hypot(x, y) metres and azimuth = bearing + degrees(atan2(x, y)), because the local +y axis
// points along `bearing` (clockwise from true north) and +x 90° clockwise from it. Over 1 km the geodesic
// and the local tangent plane differ by about 1e-5 m, far below the 1 cm asserted here.
let geoReferences: [GeoReference] = [
    GeoReference(
        latitude: 52.520008, longitude: 13.404954, bearing: 20.0, x: 0, y: 100, expectedLatitude: 52.52085245984,
        expectedLongitude: 13.40545787407),
    GeoReference(
        latitude: 52.520008, longitude: 13.404954, bearing: 20.0, x: 250, y: -80, expectedLatitude: 52.51856399490,
        expectedLongitude: 13.40801169846),
    GeoReference(
        latitude: 52.520008, longitude: 13.404954, bearing: 20.0, x: -600, y: 500, expectedLatitude: 52.52607431219,
        expectedLongitude: 13.39916638829),
    GeoReference(
        latitude: 52.520008, longitude: 13.404954, bearing: 20.0, x: 707.1, y: -707.1, expectedLatitude: 52.51186331405,
        expectedLongitude: 13.41117880559),
    GeoReference(
        latitude: 52.520008, longitude: 13.404954, bearing: 20.0, x: -1000, y: 0, expectedLatitude: 52.52308077613,
        expectedLongitude: 13.39110947305),
    GeoReference(
        latitude: -33.8568, longitude: 151.2153, bearing: -35.5, x: 100, y: 0, expectedLatitude: -33.85627646277,
        expectedLongitude: 151.21617974363),
    GeoReference(
        latitude: -33.8568, longitude: 151.2153, bearing: -35.5, x: -300, y: -400, expectedLatitude: -33.86130647129,
        expectedLongitude: 151.21517082167),
    GeoReference(
        latitude: -33.8568, longitude: 151.2153, bearing: -35.5, x: 0, y: -1000, expectedLatitude: -33.86413951286,
        expectedLongitude: 151.22157572551),
    GeoReference(
        latitude: -33.8568, longitude: 151.2153, bearing: -35.5, x: 640, y: 640, expectedLatitude: -33.84875197285,
        expectedLongitude: 151.21691412149),
    GeoReference(
        latitude: 64.1466, longitude: -21.9426, bearing: 123.0, x: 50, y: 50, expectedLatitude: 64.14597956799,
        expectedLongitude: -21.94229797260),
    GeoReference(
        latitude: 64.1466, longitude: -21.9426, bearing: 123.0, x: -900, y: 300, expectedLatitude: 64.15190431348,
        expectedLongitude: -21.92735778944),
    GeoReference(
        latitude: 64.1466, longitude: -21.9426, bearing: 123.0, x: 200, y: -950, expectedLatitude: 64.14973546618,
        expectedLongitude: -21.96120838259),
    // On the equator, across the antimeridian.
    GeoReference(
        latitude: 0.0, longitude: -179.9995, bearing: 0.0, x: 150, y: 30, expectedLatitude: 0.00027131084,
        expectedLongitude: -179.99815252707),
    GeoReference(
        latitude: 0.0, longitude: -179.9995, bearing: 0.0, x: -500, y: -500, expectedLatitude: -0.00452184738,
        expectedLongitude: 179.99600842357),
]

/// The ground distance in metres between two nearby coordinates (local flat approximation, fine below 1 m).
func metresApart(_ a: GeoCoordinate, _ b: GeoCoordinate) -> Double {
    var dLon = a.longitude - b.longitude
    if dLon > 180 { dLon -= 360 }
    if dLon < -180 { dLon += 360 }
    let north = (a.latitude - b.latitude) * 111_320
    let east = dLon * 111_320 * cos(a.latitude * .pi / 180)
    return (north * north + east * east).squareRoot()
}

@Suite("GeoAnchor")
struct GeoAnchorTests {
    @Test("local metres to WGS84 matches GeographicLib within 1 cm", arguments: geoReferences)
    func forward(reference: GeoReference) {
        let anchor = GeoAnchor(
            origin: GeoCoordinate(latitude: reference.latitude, longitude: reference.longitude),
            bearingDegrees: reference.bearing)
        let coordinate = anchor.coordinate(of: Point2D(x: reference.x, y: reference.y))
        let expected = GeoCoordinate(latitude: reference.expectedLatitude, longitude: reference.expectedLongitude)
        #expect(metresApart(coordinate, expected) < 0.01)
    }

    @Test("WGS84 to local metres matches GeographicLib within 1 cm", arguments: geoReferences)
    func backward(reference: GeoReference) {
        let anchor = GeoAnchor(
            origin: GeoCoordinate(latitude: reference.latitude, longitude: reference.longitude),
            bearingDegrees: reference.bearing)
        let point = anchor.point(
            of: GeoCoordinate(latitude: reference.expectedLatitude, longitude: reference.expectedLongitude))
        #expect(point.distance(to: Point2D(x: reference.x, y: reference.y)) < 0.01)
    }

    @Test func originMapsToItself() {
        let anchor = GeoAnchor(origin: GeoCoordinate(latitude: 48.8584, longitude: 2.2945), bearingDegrees: 77)
        let origin = anchor.coordinate(of: Point2D(x: 0, y: 0))
        #expect(abs(origin.latitude - 48.8584) < 1e-10)
        #expect(abs(origin.longitude - 2.2945) < 1e-10)
    }

    @Test func bearingRotatesTheFrame() {
        // With the +y axis pointing east (bearing 90), a point 100 m along +y is due east of the origin.
        let anchor = GeoAnchor(origin: GeoCoordinate(latitude: 10, longitude: 20), bearingDegrees: 90)
        let east = anchor.coordinate(of: Point2D(x: 0, y: 100))
        #expect(abs(east.latitude - 10) < 1e-6)
        #expect(east.longitude > 20)
    }

    @Test func decodesAndRejectsOutOfRangeLatitude() throws {
        let good = try JSONFormat.decode(
            GeoAnchor.self, from: Data(#"{"latitude":1.5,"longitude":-2,"bearingDegrees":30}"#.utf8), file: "a.json")
        #expect(good == GeoAnchor(origin: GeoCoordinate(latitude: 1.5, longitude: -2), bearingDegrees: 30))
        #expect(throws: FormatError.self) {
            try JSONFormat.decode(GeoAnchor.self, from: Data(#"{"latitude":91,"longitude":0}"#.utf8), file: "a.json")
        }
    }
}
