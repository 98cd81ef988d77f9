import Foundation
import IndoorModel
import IndoorServer
import IndoorSession
import Testing

/// The demo venue of `indoor serve --demo` shows the simulator's stairs.
@Suite struct DemoVenueTests {
    @Test func theDemoHasTwoFloorsJoinedByTheStairwell() throws {
        let demo = try DemoVenue(devices: 1, duration: 20)
        #expect(demo.venue.floors.map(\.level) == [0, 1])
        let stairs = try #require(demo.venue.connections.first)
        #expect(demo.venue.connections.count == 1)
        #expect(stairs.kind == .stairs)
        #expect(stairs.levels == [0, 1])
        guard case .polygon(let footprint) = stairs.shape else {
            Issue.record("the stairwell is not a polygon")
            return
        }
        #expect(footprint.area > 0)
        // The venue as the server stores it keeps the stairs, and conforms to the OpenAPI document.
        let json = try demo.venue.encodeJSON()
        #expect(try Venue.decodeJSON(json).connections == demo.venue.connections)
        let validator = SchemaValidator(document: try JSONValue.parse(OpenAPIDocument.json))
        #expect(validator.problems(try JSONValue.parse(json), schema: "Venue") == [])
    }

    @Test func theDemoServesAGeofenceThatAScanAnswersOn() throws {
        let demo = try DemoVenue(devices: 1, duration: 20)
        #expect(demo.venue.geofences == ["demo"])
        let target = try ScanTarget(geofence: DemoVenue.geofence, venues: [demo.venue])
        #expect(target.venue.id == "demo")
        var scan = try IndoorScan(target: target, duration: 5, options: IndoorScan.Options(method: .nonlinear))
        for sighting in demo.sightings where scan.ingest(sighting) { break }
        let result = try scan.result().get()
        #expect(result.venueId == "demo" && result.geofenceId == "demo" && result.duration == 5)
        #expect(result.beacons >= 3)
    }

    @Test func aDemoOfOneFloorHasNoConnections() throws {
        let demo = try DemoVenue(devices: 1, floors: 1, duration: 20)
        #expect(demo.venue.floors.count == 1)
        #expect(demo.venue.connections.isEmpty)
    }
}
