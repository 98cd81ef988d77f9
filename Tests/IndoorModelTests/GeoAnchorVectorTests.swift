import Foundation
import IndoorModel
import IndoorTestSupport
import Testing

/// One case of the shared WGS84 test vectors: an anchor, a point of the venue's frame and the coordinate
/// ``GeoAnchor`` puts it at.
///
/// The file `Tests/IndoorModelTests/Fixtures/geo-anchor-vectors.json` holds them; the map's geometry module
/// (`Server/Sources/IndoorServer/Resources/geometry.js`) is checked against the same file by `node --test`
/// (`Server/Tests/map/geometry.test.mjs`), so the page and the server convert alike.
struct GeoAnchorVector: Codable, Hashable, Sendable, CustomTestStringConvertible {
    /// The anchor as a venue JSON gives it.
    struct Anchor: Codable, Hashable, Sendable {
        /// The origin's latitude, degrees north (WGS84).
        var latitude: Double
        /// The origin's longitude, degrees east (WGS84).
        var longitude: Double
        /// The bearing of the venue's +y axis, degrees clockwise from true north.
        var bearingDegrees: Double
    }

    /// What the case covers.
    var note: String
    var anchor: Anchor
    /// The point's metres along the venue's x axis.
    var x: Double
    /// The point's metres along the venue's y axis.
    var y: Double
    /// The point's latitude in degrees, as ``GeoAnchor/coordinate(of:)`` gives it.
    var latitude: Double
    /// The point's longitude in degrees, as ``GeoAnchor/coordinate(of:)`` gives it (−180…180).
    var longitude: Double

    var testDescription: String { note }

    var geoAnchor: GeoAnchor {
        GeoAnchor(
            origin: GeoCoordinate(latitude: anchor.latitude, longitude: anchor.longitude),
            bearingDegrees: anchor.bearingDegrees)
    }
}

/// The vectors' file and the cases it is written from.
enum GeoAnchorVectors {
    /// The file, from the repository's root.
    static let path = "Tests/IndoorModelTests/Fixtures/geo-anchor-vectors.json"
    /// How close a conversion must come: latitude and longitude within this many degrees (about 0.1 mm)…
    static let degrees = 1e-9
    /// …and a point within this many metres.
    static let metres = 0.001

    /// The file's contents: what it is, the tolerances and the vectors.
    struct File: Codable, Sendable {
        var about: String
        var toleranceDegrees: Double
        var toleranceMetres: Double
        var vectors: [GeoAnchorVector]
    }

    /// The cases: (what it covers, origin latitude, origin longitude, bearing, x, y), degrees and metres.
    static let cases: [(note: String, latitude: Double, longitude: Double, bearing: Double, x: Double, y: Double)] = [
        ("the origin itself", 52.520008, 13.404954, 0, 0, 0),
        ("north-up, 100 m along +x (east)", 52.520008, 13.404954, 0, 100, 0),
        ("north-up, 1 mm from the origin", 52.520008, 13.404954, 0, 0.001, 0.001),
        ("bearing 20°, south-east of the origin", 52.520008, 13.404954, 20, 250, -80),
        ("bearing 20°, 600 m west and 500 m along +y", 52.520008, 13.404954, 20, -600, 500),
        ("southern and eastern hemisphere, negative bearing", -33.8568, 151.2153, -35.5, 100, 0),
        ("southern and eastern hemisphere, 500 m", -33.8568, 151.2153, -35.5, -300, -400),
        ("southern and western hemisphere, bearing just under a full turn", -34.6037, -58.3816, 359.5, 12.5, 7.25),
        ("western hemisphere, bearing 123°", 64.1466, -21.9426, 123, -900, 300),
        ("high latitude (Svalbard), bearing 270°", 78.2232, 15.6267, 270, 500, 500),
        ("high southern latitude (Antarctica), bearing −90°", -77.8463, 166.6683, -90, -750, 250),
        ("half a degree from the North Pole, bearing 45°", 89.5, 0, 45, 200, -150),
        ("on the equator, across the antimeridian", 0, -179.9995, 0, 150, 30),
        ("bearing 360° is north-up", 48.8584, 2.2945, 360, 30, 40),
        ("bearing −360°, a kilometre out", 35.6586, 139.7454, -360, -1000, 1000),
    ]

    /// The vectors as ``GeoAnchor`` computes them now.
    static func computed() -> [GeoAnchorVector] {
        cases.map { item in
            let anchor = GeoAnchorVector.Anchor(
                latitude: item.latitude, longitude: item.longitude, bearingDegrees: item.bearing)
            var vector = GeoAnchorVector(
                note: item.note, anchor: anchor, x: item.x, y: item.y, latitude: 0, longitude: 0)
            let coordinate = vector.geoAnchor.coordinate(of: Point2D(x: item.x, y: item.y))
            vector.latitude = coordinate.latitude
            vector.longitude = coordinate.longitude
            return vector
        }
    }

    /// The vectors in the file.
    static func stored() throws -> [GeoAnchorVector] {
        let data = try Data(contentsOf: RepositoryFiles.url(path))
        return try JSONDecoder().decode(File.self, from: data).vectors
    }

    /// Writes the file from ``computed()``.
    static func write() throws {
        let file = File(
            about: "WGS84 test vectors of GeoAnchor (Sources/IndoorModel/Geometry/GeoAnchor.swift): an anchor, a point "
                + "(x, y metres in the venue's frame) and its latitude and longitude (degrees). Written by "
                + "INDOOR_WRITE_GEO_VECTORS=1 swift test --filter GeoAnchorVectorTests; checked both ways by that "
                + "test and by the map's node --test (Server/Tests/map/geometry.test.mjs).",
            toleranceDegrees: degrees, toleranceMetres: metres, vectors: computed())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(file) + Data("\n".utf8)).write(to: RepositoryFiles.url(path))
    }

    /// The difference between two longitudes in degrees, across the antimeridian the short way.
    static func longitudeApart(_ a: Double, _ b: Double) -> Double {
        let difference = (a - b).truncatingRemainder(dividingBy: 360)
        return min(abs(difference), 360 - abs(difference))
    }
}

@Suite("GeoAnchor shared vectors")
struct GeoAnchorVectorTests {
    /// The file holds the cases as ``GeoAnchor`` converts them today (with `INDOOR_WRITE_GEO_VECTORS=1` the test
    /// writes the file first).
    @Test func theFileHoldsTheCasesAsGeoAnchorConvertsThem() throws {
        if ProcessInfo.processInfo.environment["INDOOR_WRITE_GEO_VECTORS"] == "1" {
            try GeoAnchorVectors.write()
        }
        let stored = try GeoAnchorVectors.stored()
        let computed = GeoAnchorVectors.computed()
        #expect(stored.count == computed.count)
        #expect(stored.count >= 12)
        for (file, now) in zip(stored, computed) {
            #expect(file.note == now.note)
            #expect(file.anchor == now.anchor && file.x == now.x && file.y == now.y, "\(file.note)")
            #expect(abs(file.latitude - now.latitude) <= GeoAnchorVectors.degrees, "\(file.note)")
            #expect(GeoAnchorVectors.longitudeApart(file.longitude, now.longitude) <= GeoAnchorVectors.degrees)
        }
    }

    @Test("local metres to WGS84 within 1e-9°", arguments: (try? GeoAnchorVectors.stored()) ?? [])
    func forward(vector: GeoAnchorVector) {
        let coordinate = vector.geoAnchor.coordinate(of: Point2D(x: vector.x, y: vector.y))
        #expect(abs(coordinate.latitude - vector.latitude) <= GeoAnchorVectors.degrees)
        #expect(GeoAnchorVectors.longitudeApart(coordinate.longitude, vector.longitude) <= GeoAnchorVectors.degrees)
    }

    @Test("WGS84 to local metres within 1 mm", arguments: (try? GeoAnchorVectors.stored()) ?? [])
    func backward(vector: GeoAnchorVector) {
        let point = vector.geoAnchor.point(of: GeoCoordinate(latitude: vector.latitude, longitude: vector.longitude))
        #expect(point.distance(to: Point2D(x: vector.x, y: vector.y)) <= GeoAnchorVectors.metres)
    }
}
