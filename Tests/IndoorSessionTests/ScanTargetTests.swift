import IndoorModel
import IndoorSession
import Testing

@Suite("ScanTarget")
struct ScanTargetTests {
    @Test func anUnknownGeofenceIsRefusedListingTheKnownOnes() throws {
        do {
            _ = try ScanTarget(geofence: "nowhere", venues: [hallVenue(geofences: ["a", "b"])])
            Issue.record("expected unknownGeofence")
        } catch let error as ScanError {
            #expect(error.code == .unknownGeofence)
            #expect(error.message == "no venue serves geofence 'nowhere' (known: a, b)")
        }
    }

    @Test func anUnknownGeofenceAmongVenuesThatDeclareNoneSaysHowToDeclareOne() throws {
        do {
            _ = try ScanTarget(geofence: "office", venues: [hallVenue(geofences: [])])
            Issue.record("expected unknownGeofence")
        } catch let error as ScanError {
            #expect(error.code == .unknownGeofence)
            #expect(
                error.message
                    == #"no venue serves geofence 'office' (no venue declares any: a venue serves the ids in its JSON's "#
                    + #""geofences", as in "geofences": ["office"])"#)
        }
    }

    @Test func theKnownLocationChoosesTheVenueThatContainsIt() throws {
        let west = hallVenue(id: "west", geofences: ["campus"])
        // 1 km east of the first.
        let eastAnchor = GeoAnchor(origin: hallAnchor.coordinate(of: Point2D(x: 1_000, y: 0)))
        let east = hallVenue(id: "east", geofences: ["campus"], anchor: eastAnchor)
        let inEast = eastAnchor.coordinate(of: Point2D(x: 5, y: 5))
        let target = try ScanTarget(
            geofence: "campus", venues: [west, east],
            knownLocation: DeviceLocation(latitude: inEast.latitude, longitude: inEast.longitude, horizontalAccuracy: 8)
        )
        #expect(target.venue.id == "east")
        #expect(target.seedAccuracy == 8)
        #expect(target.seed.map { $0.distance(to: Point2D(x: 5, y: 5)) < 1e-3 } == true)
        // Without a known location: the first venue, no seed.
        let first = try ScanTarget(geofence: "campus", venues: [west, east])
        #expect(first.venue.id == "west" && first.seed == nil)
    }

    @Test func aKnownLocationOutsideEveryVenueChoosesTheNearestAndDoesNotSeed() throws {
        let west = hallVenue(id: "west", geofences: ["campus"])
        let eastAnchor = GeoAnchor(origin: hallAnchor.coordinate(of: Point2D(x: 1_000, y: 0)))
        let east = hallVenue(id: "east", geofences: ["campus"], anchor: eastAnchor)
        let outside = hallAnchor.coordinate(of: Point2D(x: 900, y: -300))
        let target = try ScanTarget(
            geofence: "campus", venues: [west, east],
            knownLocation: DeviceLocation(latitude: outside.latitude, longitude: outside.longitude))
        #expect(target.venue.id == "east")
        #expect(target.seed == nil)
        // An invalid known location is ignored.
        let invalid = try ScanTarget(
            geofence: "campus", venues: [west, east], knownLocation: DeviceLocation(latitude: 200, longitude: .nan))
        #expect(invalid.venue.id == "west" && invalid.seed == nil)
    }

    @Test func aScanWithAKnownLocationOutsideEveryVenueStillAnswers() throws {
        let venue = hallVenue()
        let outside = hallAnchor.coordinate(of: Point2D(x: -500, y: 0))
        let location = DeviceLocation(latitude: outside.latitude, longitude: outside.longitude, horizontalAccuracy: 5)
        var scan = try IndoorScan(
            target: try ScanTarget(geofence: "hall", venues: [venue], knownLocation: location), duration: 5,
            knownLocation: location)
        for sighting in standing(at: Point2D(x: 15, y: 5), in: venue, seconds: 6) { scan.ingest(sighting) }
        let result = try scan.result().get()
        #expect(!result.seeded)
        #expect(Point2D(x: result.x, y: result.y).distance(to: Point2D(x: 15, y: 5)) < hallTolerance)
        #expect(result.startLocation == location)
    }

    @Test func aVenueWithoutOutlinesContainsTheBoxOfItsNodesWithAMargin() {
        var venue = hallVenue()
        venue.floors = []
        #expect(ScanTarget.contains(Point2D(x: -9, y: 25), venue: venue))
        #expect(!ScanTarget.contains(Point2D(x: -11, y: 5), venue: venue))
    }
}
