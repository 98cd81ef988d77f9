import Foundation
import IndoorModel
import IndoorTestSupport
import Testing

@testable import IndoorGeofencing

/// The first ```json block of docs/GEOFENCING.md: the documented complete example.
func documentedVenueJSON() throws -> Data {
    let root = RepositoryFiles.root
    let docs = root.appendingPathComponent("docs/GEOFENCING.md")
    let text = try String(contentsOf: docs, encoding: .utf8)
    let start = try #require(text.range(of: "```json\n"), "docs/GEOFENCING.md has no ```json block")
    let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
    return Data(text[start.upperBound..<end.lowerBound].utf8)
}

@Suite("Zone JSON")
struct ZoneJSONTests {
    @Test("the documented example decodes with every field, and round-trips")
    func documentedExample() throws {
        let venue = try Venue.decodeJSON(try documentedVenueJSON(), file: "GEOFENCING.md")
        #expect(venue.zones.map(\.id) == ["pharmacy", "waiting", "entrance"])
        let pharmacy = venue.zones[0]
        #expect(
            pharmacy.fences == [
                .polygon(.rectangle(from: Point2D(x: 20, y: 0), to: Point2D(x: 30, y: 10)), floor: 0, id: "counter")
            ])
        #expect(pharmacy.beacons.first?.checkIn == .immediate)
        #expect(pharmacy.beacons.first?.beacon?.text == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/3")
        #expect(pharmacy.checkOutEnabled && pharmacy.isEnabled)
        #expect(pharmacy.checkOutMargin == 1 && pharmacy.checkOutTime == 5 && pharmacy.exitDelay == 10)
        #expect(pharmacy.dwellThreshold == 60 && pharmacy.retriggerTime == 300 && pharmacy.lostTimeout == 120)
        #expect(pharmacy.data == ["department": "pharmacy", "offer": "flu-shot"])
        let waiting = venue.zones[1]
        #expect(waiting.fences == [.circle(center: Point2D(x: 8, y: 14), radius: 4, floor: 0)])
        #expect(waiting.beacons == [ZoneBeacon(node: "b4", checkIn: .near)])
        #expect(!waiting.checkOutEnabled)
        #expect(waiting.dwellThreshold == nil && waiting.lostTimeout == nil)
        let entrance = venue.zones[2]
        #expect(
            entrance.geolines == [
                ZoneGeoline(id: "door", floor: 0, points: [Point2D(x: 14, y: 0), Point2D(x: 14, y: 6)])
            ])
        let again = try Venue.decodeJSON(try venue.encodeJSON())
        #expect(again == venue)
    }

    @Test("a zone with only id and name gets the documented defaults")
    func defaults() throws {
        let zone = try JSONDecoder().decode(Zone.self, from: Data(#"{"id": "lobby", "name": "Lobby"}"#.utf8))
        #expect(zone == Zone(id: "lobby", name: "Lobby"))
        #expect(zone.fences.isEmpty && zone.beacons.isEmpty && zone.geolines.isEmpty)
        #expect(zone.checkOutEnabled && zone.isEnabled)
        #expect(zone.checkOutMargin == 1 && zone.checkOutTime == 5 && zone.exitDelay == 10 && zone.retriggerTime == 0)
        #expect(zone.dwellThreshold == nil && zone.data.isEmpty && zone.lostTimeout == 60)
    }

    @Test(
        "lostTimeout: absent is 60 s, null turns the rule off, a number is kept; each round-trips",
        arguments: [
            (#"{"id":"z"}"#, 60), (#"{"id":"z","lostTimeout":null}"#, nil), (#"{"id":"z","lostTimeout":0}"#, 0),
            (#"{"id":"z","lostTimeout":300}"#, 300),
        ] as [(String, Double?)])
    func lostTimeout(json: String, expected: Double?) throws {
        let zone = try JSONDecoder().decode(Zone.self, from: Data(json.utf8))
        #expect(zone.lostTimeout == expected)
        let again = try JSONDecoder().decode(Zone.self, from: try JSONFormat.encoder().encode(zone))
        #expect(again == zone)
    }

    @Test(
        "bad zone JSON names the field",
        arguments: [
            (#"{"id":"z","fences":[{"floor":0}]}"#, "zones[0].fences[0]"),
            (#"{"id":"z","fences":[{"center":[0,0],"radius":-1}]}"#, "zones[0].fences[0].radius"),
            (#"{"id":"z","fences":[{"polygon":[[0,0],[1,1]]}]}"#, "zones[0].fences[0].polygon"),
            (#"{"id":"z","fences":[{"polygon":[]}]}"#, "zones[0].fences[0].polygon: a polygon fence needs at least 3"),
            (
                #"{"id":"z","fences":[{"polygon":[[0,0],[0,0],[0,0]]}]}"#,
                "zones[0].fences[0].polygon: a polygon fence needs at least 3 distinct"
            ),
            (
                #"{"id":"z","fences":[{"polygon":[[0,0],[1,1],[2,2]]}]}"#,
                "zones[0].fences[0].polygon: a polygon fence must enclose an area"
            ),
            (
                #"{"id":"z","fences":[{"polygon":[[0,0],[4,4],[4,0],[0,4]]}]}"#,
                "zones[0].fences[0].polygon: a polygon fence must not cross itself (edges 1 and 3 meet)"
            ),
            (
                #"{"id":"z","fences":[{"polygon":[[0,0],[4,0],[4,4],[2,0],[0,4]]}]}"#,
                "zones[0].fences[0].polygon: a polygon fence must not cross itself"
            ),
            (#"{"id":"z","fences":[{"center":[0,0],"radius":0}]}"#, "zones[0].fences[0].radius"),
            (#"{"id":"z","fences":[{"center":[0,0]}]}"#, "zones[0].fences[0]"),
            (
                #"{"id":"z","geolines":[{"points":[[1,1],[1,1]]}]}"#,
                "zones[0].geolines[0].points: a geoline needs 2 distinct points"
            ),
            (#"{"id":"z","beacons":[{"checkIn":"near"}]}"#, "zones[0].beacons[0]"),
            (#"{"id":"z","beacons":[{"node":"b","checkIn":"unknown"}]}"#, "zones[0].beacons[0].checkIn"),
            (#"{"id":"z","geolines":[{"points":[[0,0]]}]}"#, "zones[0].geolines[0].points"),
            (#"{"id":"z","exitDelay":-3}"#, "zones[0].exitDelay"),
            (#"{"id":"z","exitDelay":0}"#, "zones[0].exitDelay: must be a number of seconds > 0"),
            (#"{"id":"z","lostTimeout":-1}"#, "zones[0].lostTimeout"),
            (#"{"id":"z","lostTimeout":"soon"}"#, "zones[0].lostTimeout"),
            (#"{"id":"z","data":{"a":1}}"#, "zones[0].data"),
            (#"{"id":"z","fences":[{"id":"","center":[0,0],"radius":1}]}"#, "zones[0].fences[0].id: fence id is empty"),
            (#"{"id":"z","fences":[{"id":3,"center":[0,0],"radius":1}]}"#, "zones[0].fences[0].id"),
            (
                #"{"id":"z","fences":[{"floor":1.5,"center":[0,0],"radius":1}]}"#,
                "zones[0].fences[0].floor: expected an integer"
            ),
        ])
    func badZones(zone: String, path: String) throws {
        let json = #"{"id":"v","zones":["# + zone + "]}"
        let error = try #require(throws: FormatError.self) { try Venue.decodeJSON(Data(json.utf8), file: "v.json") }
        #expect(error.description.hasPrefix("v.json: \(path)") == true, "\(error.description)")
    }

    @Test(
        "a closed ring (last vertex = first) and repeated vertices are a valid polygon fence",
        arguments: [
            #"[[0,0],[4,0],[4,4],[0,4],[0,0]]"#, #"[[0,0],[4,0],[4,0],[4,4],[0,4]]"#, #"[[0,0],[4,0],[4,4],[0,4]]"#,
        ])
    func closedRing(polygon: String) throws {
        let json = #"{"id":"v","zones":[{"id":"z","fences":[{"polygon":"# + polygon + "}]}]}"
        let venue = try Venue.decodeJSON(Data(json.utf8), file: "v.json")
        let fence = try #require(venue.zones.first?.fences.first)
        #expect(fence.contains(Point2D(x: 2, y: 2)))
        #expect(!fence.contains(Point2D(x: 5, y: 2)))
        #expect(abs(fence.signedDistance(to: Point2D(x: 2, y: 1)) - -1) < 1e-12)
    }

    @Test("zone events and visits encode as documented")
    func eventJSON() throws {
        let event = ZoneEvent(
            kind: .checkIn, time: 12, zone: "lobby", zoneName: "Lobby", device: "phone-1", trigger: .fence,
            fence: "desk-3", willCheckOut: true, data: ["floorManager": "Ana"])
        let text = String(decoding: try JSONFormat.encoder().encode(event), as: UTF8.self)
        #expect(
            text
                == #"{"data":{"floorManager":"Ana"},"device":"phone-1","event":"checkIn","fence":"desk-3","t":12,"trigger":"fence","willCheckOut":true,"zone":"lobby","zoneEnabled":true,"zoneName":"Lobby"}"#
        )
        let lost = ZoneEvent(
            kind: .checkOut, time: 70, zone: "lobby", zoneName: "Lobby", device: "phone-1", trigger: .fence,
            fence: "0", checkIn: 0, departure: 10, reason: .lost, dwell: 10)
        #expect(
            String(decoding: try JSONFormat.encoder().encode(lost), as: UTF8.self)
                == #"{"checkIn":0,"data":{},"departure":10,"device":"phone-1","dwell":10,"event":"checkOut","fence":"0","reason":"lost","t":70,"trigger":"fence","zone":"lobby","zoneEnabled":true,"zoneName":"Lobby"}"#
        )
        let beacon = ZoneEvent(
            kind: .checkIn, time: 5, zone: "lobby", zoneName: "Lobby", device: "phone-1", trigger: .beacon,
            beacon: "b3", proximity: .immediate, willCheckOut: true)
        #expect(
            String(decoding: try JSONFormat.encoder().encode(beacon), as: UTF8.self)
                == #"{"beacon":"b3","data":{},"device":"phone-1","event":"checkIn","proximity":"immediate","t":5,"trigger":"beacon","willCheckOut":true,"zone":"lobby","zoneEnabled":true,"zoneName":"Lobby"}"#
        )
        #expect(try JSONDecoder().decode(ZoneEvent.self, from: JSONFormat.encoder().encode(beacon)) == beacon)
        let log = ActivityLog(visits: [
            ZoneVisit(
                zone: "lobby", device: "phone-1", trigger: .beacon, beacon: "b3", proximity: .near, checkIn: 10,
                checkOut: 40, reason: .left)
        ])
        let encoded = try JSONFormat.encoder().encode(log)
        #expect(
            String(decoding: encoded, as: UTF8.self)
                == #"{"visits":[{"beacon":"b3","checkIn":10,"checkOut":40,"device":"phone-1","dwell":30,"proximity":"near","reason":"left","trigger":"beacon","zone":"lobby"}]}"#
        )
        let decoded = try JSONDecoder().decode(ActivityLog.self, from: encoded)
        #expect(decoded == log)
        #expect(decoded.visits.first?.dwell == 30)
    }
}
