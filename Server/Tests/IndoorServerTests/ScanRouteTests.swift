import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorServer
import IndoorSession
import NIOCore
import Testing

/// `POST /v1/scans`: the indoor provider's scan over HTTP.
@Suite struct ScanRouteTests {
    /// The fixture's venue, serving the geofence `tiny-building`.
    static let venueJSON = ServerFixture.venueJSON.replacingOccurrences(
        of: #""name": "Tiny","#, with: #""name": "Tiny", "geofences": ["tiny-building"],"#)

    /// A phone beside n2 (x = 20 m) for 8 s, hearing n1 (20 m away) faintly.
    static let nearN2 = (0..<8).map { second in
        #"{"t": \#(second), "device": "phone", "node": "n2", "rssi": -59}, "#
            + #"{"t": \#(Double(second) + 0.5), "device": "phone", "node": "n1", "rssi": -85}"#
    }.joined(separator: ", ")

    func scan(_ client: any TestClientProtocol, _ body: String, key: String = ServerFixture.ingest) async throws
        -> TestResponse
    {
        try await client.execute(
            uri: "/v1/scans", method: .post, headers: ServerFixture.headers(key), body: ByteBuffer(string: body))
    }

    @Test func aScanAnswersWithTheProvidersResultJSON() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue(Self.venueJSON).status == .created)
            let response = try await scan(
                client, #"{"geofence": "tiny-building", "duration": 5, "sightings": [\#(Self.nearN2)]}"#)
            #expect(response.status == .ok, "\(response.text)")
            let json = response.json
            #expect(Set(json.keys) == Set(ScanResult.jsonKeys))
            #expect(json["geofenceId"] as? String == "tiny-building")
            #expect(json["venueId"] as? String == "tiny")
            #expect(json["duration"] as? Double == 5)
            #expect(json["provider"] as? String == "indoor")
            let x = try #require(json["x"] as? Double)
            #expect(x > 15 && x <= 20)  // beside n2, pulled a little toward the faint n1
            #expect(json["latitude"] is Double && json["longitude"] is Double)
            #expect(json["beacons"] as? Int == 2)
            // Nothing is stored: a scan is a question, not an ingest.
            #expect(try await client.get("/v1/venues/tiny/devices/phone").status == .notFound)
        }
    }

    @Test func badScansAreAnsweredNamingTheField() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue(Self.venueJSON)
            let unknown = try await scan(client, #"{"geofence": "moon", "sightings": [\#(Self.nearN2)]}"#)
            #expect(unknown.status == .notFound)
            #expect(unknown.json["field"] as? String == "geofence")
            let empty = try await scan(client, #"{"geofence": "tiny-building", "sightings": []}"#)
            #expect(empty.status == .badRequest)
            #expect(empty.json["field"] as? String == "sightings")
            let unheard = try await scan(
                client,
                #"{"geofence": "tiny-building", "sightings": [{"t": 0, "device": "p", "node": "zz", "rssi": -60}]}"#)
            #expect(unheard.status == .unprocessableContent)
            #expect(unheard.json["code"] as? String == "nothingHeard")
            let badRSSI = try await scan(
                client,
                #"{"geofence": "tiny-building", "sightings": [{"t": 0, "device": "p", "node": "n1", "rssi": "x"}]}"#)
            #expect(badRSSI.status == .badRequest)
            #expect(badRSSI.json["field"] as? String == "sightings[0].rssi", "\(badRSSI.text)")
            let tooLong = try await scan(
                client, #"{"geofence": "tiny-building", "duration": 301, "sightings": [\#(Self.nearN2)]}"#)
            #expect(tooLong.status == .badRequest)
            #expect(tooLong.json["field"] as? String == "duration")
            let readKey = try await scan(
                client, #"{"geofence": "tiny-building", "sightings": [\#(Self.nearN2)]}"#, key: ServerFixture.read)
            #expect(readKey.status == .forbidden)
        }
    }
}
