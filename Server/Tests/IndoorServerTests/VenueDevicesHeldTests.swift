import Foundation
import IndoorServer
import Testing

/// `indoor serve --max-devices` (``ServerConfiguration/maxDevices``) caps the devices each venue's session holds, and
/// `GET /v1/venues/{id}` says how many it holds, as the venue list does.
@Suite struct VenueDevicesHeldTests {
    /// A batch for venue `tiny`: each of `devices` heard by node n1 at `time` (seconds of the recording).
    static func batch(_ devices: [String], at time: Double) -> String {
        let items = devices.map { #"{"t": \#(time), "device": "\#($0)", "node": "n1", "rssi": -60}"# }
        return #"{"venue": "tiny", "sightings": [\#(items.joined(separator: ", "))]}"#
    }

    @Test func theSingleVenueAnswerSaysTheDevicesHeld() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            #expect(try await client.get("/v1/venues/tiny").json["devices"] as? Int == 0)
            #expect(try await client.post(Self.batch(["p", "q", "r"], at: 1)).status == .ok)
            let venue = try await client.get("/v1/venues/tiny")
            #expect(venue.json["devices"] as? Int == 3, "\(venue.text)")
            #expect(venue.json["name"] as? String == "Tiny")
            #expect((venue.json["zones"] as? [Any])?.count == 2)
            let list = try await client.get("/v1/venues").json["venues"] as? [[String: Any]]
            #expect(list?.first?["devices"] as? Int == 3)
            // The answer put back is the same venue (a venue has no field `devices`): its session carries on.
            let again = try await client.putVenue(venue.text)
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.json["devices"] == nil)
            #expect(try await client.get("/v1/venues/tiny").json["devices"] as? Int == 3)
        }
    }

    @Test func maxDevicesCapsWhatEachVenueHolds() async throws {
        let fixture = try await ServerFixture(configuration: ServerConfiguration(maxDevices: 2))
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            #expect(try await client.post(Self.batch(["p", "q"], at: 1)).status == .ok)
            #expect(try await client.get("/v1/venues/tiny").json["devices"] as? Int == 2)
            // A third device lets go of the one silent longest: still two.
            #expect(try await client.post(Self.batch(["r"], at: 2)).status == .ok)
            #expect(try await client.get("/v1/venues/tiny").json["devices"] as? Int == 2)
            let list = try await client.get("/v1/venues").json["venues"] as? [[String: Any]]
            #expect(list?.first?["devices"] as? Int == 2)
        }
    }
}
