import Foundation
import Testing

@testable import IndoorModel

/// Floor connections (stairs, lifts) in a venue JSON: read, written back and refused with the JSON path.
@Suite("Floor connections")
struct FloorConnectionTests {
    static let floors = #""floors":[{"level":0},{"level":1},{"level":2}]"#

    @Test func decodesBothShapesAndRoundTrips() throws {
        let json = """
            {"id":"v",\(Self.floors),"connections":[
              {"id":"stairs-west","levels":[0,1,2],"polygon":[[0,8],[2.4,8],[2.4,10.4],[0,10.4]]},
              {"id":"lift","kind":"lift","levels":[2,0],"center":[30,9],"radius":1.25}]}
            """
        let venue = try Venue.decodeJSON(Data(json.utf8))
        #expect(venue.connections.count == 2)
        let stairs = venue.connections[0]
        #expect(stairs.kind == .stairs)
        #expect(stairs.levels == [0, 1, 2])
        #expect(stairs.contains(Point2D(x: 1.2, y: 9.2)))
        #expect(stairs.contains(Point2D(x: 2.4, y: 9)))
        #expect(!stairs.contains(Point2D(x: 2.5, y: 9)))
        let lift = venue.connections[1]
        #expect(lift.kind == .lift)
        #expect(lift.shape == .circle(center: Point2D(x: 30, y: 9), radius: 1.25))
        #expect(lift.connects(0) && lift.connects(2) && !lift.connects(1))
        #expect(lift.contains(Point2D(x: 31.25, y: 9)))
        #expect(!lift.contains(Point2D(x: 31.3, y: 9)))
        let again = try Venue.decodeJSON(venue.encodeJSON())
        #expect(again == venue)
        // Written with its kind, in a stable order.
        #expect(try venue.encodeJSON() == again.encodeJSON())
        let text = String(decoding: try venue.encodeJSON(), as: UTF8.self)
        #expect(text.contains(#""kind" : "stairs""#))
    }

    @Test func aVenueWithoutConnectionsKeepsItsBytes() throws {
        let venue = Venue(
            id: "v", name: "V",
            floors: [Floor(level: 0, name: "G", outline: .rectangle(from: .init(x: 0, y: 0), to: .init(x: 4, y: 4)))])
        #expect(venue.connections.isEmpty)
        let text = String(decoding: try venue.encodeJSON(), as: UTF8.self)
        #expect(!text.contains("connections"))
        #expect(try Venue.decodeJSON(Data(text.utf8)) == venue)
    }

    @Test(
        "a bad connection is refused, naming the JSON path",
        arguments: [
            (
                #"{"id":"v","connections":[{"id":"s","levels":[0,1],"center":[1,1],"radius":1},"#
                    + #"{"id":"s","levels":[0,1],"center":[5,1],"radius":1}]}"#,
                "venue.json: connections[1].id: connection id 's' is already used by connections[0]"
            ),
            (
                #"{"id":"v",\#(FloorConnectionTests.floors),"connections":[{"id":"s","levels":[0,3],"center":[1,1],"radius":1}]}"#,
                "venue.json: connections[0].levels[1]: level 3 is not one of the venue's floors"
            ),
            (
                #"{"id":"v","connections":[{"id":"s","levels":[0,1,0],"center":[1,1],"radius":1}]}"#,
                "venue.json: connections[0].levels[2]: level 0 is listed twice"
            ),
            (
                #"{"id":"v","connections":[{"id":"s","levels":[0,1.5],"center":[1,1],"radius":1}]}"#,
                "venue.json: connections[0].levels[1]: expected an integer"
            ),
            (
                #"{"id":"v","connections":[{"id":"s","levels":[0],"center":[1,1],"radius":1}]}"#,
                "venue.json: connections[0].levels: a connection joins at least two floor levels"
            ),
            (
                #"{"id":"v","connections":[{"id":"s","kind":"rope","levels":[0,1],"center":[1,1],"radius":1}]}"#,
                "venue.json: connections[0].kind: unknown connection kind 'rope' (expected one of stairs, lift, escalator, ramp)"
            ),
            (
                #"{"id":"v","connections":[{"id":"","levels":[0,1],"center":[1,1],"radius":1}]}"#,
                "venue.json: connections[0].id: a connection id must not be empty"
            ),
            (
                #"{"id":"v","connections":[{"id":"s","levels":[0,1],"center":[1,1],"radius":0}]}"#,
                "venue.json: connections[0].radius: radius must be a positive number of metres"
            ),
            (
                #"{"id":"v","connections":[{"id":"s","levels":[0,1],"center":[1,1e999],"radius":1}]}"#,
                "venue.json: connections[0].center: y '1e999' is not a finite number"
            ),
            (
                #"{"id":"v","connections":[{"id":"s","levels":[0,1],"polygon":[[0,0],[1,1],[2,2]]}]}"#,
                "venue.json: connections[0].polygon: a connection polygon must enclose an area (its vertices lie on one line)"
            ),
        ])
    func badConnections(json: String, message: String) {
        #expect(ValidationTests.venueError(json) == message)
    }
}
