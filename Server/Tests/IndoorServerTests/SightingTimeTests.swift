import Foundation
import HummingbirdTesting
import IndoorServer
import Testing

/// One sighting stamped far ahead (a lying clock, a gateway sending milliseconds) must not poison a venue.
@Suite("A sighting's time cannot poison its venue")
struct SightingTimeTests {
    static func sighting(_ t: Double, device: String = "p", node: String = "n1") -> String {
        #"{"t": \#(t), "device": "\#(device)", "node": "\#(node)", "rssi": -59}"#
    }

    static func batch(_ sightings: [String]) -> String {
        #"{"venue": "tiny", "sightings": [\#(sightings.joined(separator: ", "))]}"#
    }

    @Test(
        "a recording venue refuses a time far ahead, alone (400) or in a batch (the rest kept)",
        arguments: [1e23, 1e308, 1_795_696_662_000.0, 1_795_696_662.0, 20_000.0])
    func recordingVenue(liar: Double) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            #expect(try await client.post(#"{"venue": "tiny", "sightings": \#(ServerFixture.walk)}"#).status == .ok)
            let alone = try await client.post(Self.batch([Self.sighting(liar, device: "liar")]))
            #expect(alone.status == .badRequest)
            #expect(alone.json["field"] as? String == "sightings[0].t")
            #expect((alone.json["message"] as? String)?.contains("outside the venue's window") == true)
            let mixed = try await client.post(Self.batch([Self.sighting(23), Self.sighting(liar, device: "liar")]))
            #expect(mixed.status == .ok)
            #expect(mixed.json["accepted"] as? Int == 1)
            #expect(mixed.json["rejected"] as? Int == 1)
            let errors = mixed.json["errors"] as? [[String: Any]]
            #expect(errors?.first?["field"] as? String == "sightings[1].t")
            // The venue's present did not move: the honest device is still listed, the liar never was.
            let devices = try await client.get("/v1/venues/tiny/devices").json["devices"] as? [[String: Any]] ?? []
            #expect(devices.compactMap { $0["device"] as? String } == ["p"])
            // And its later sightings are taken.
            #expect(try await client.post(Self.batch([Self.sighting(30)])).json["accepted"] as? Int == 1)
        }
    }

    @Test("a Unix-time venue takes the server's clock − lateness … + skew")
    func unixVenue() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let now = Date().timeIntervalSince1970
        try await fixture.test { client in
            _ = try await client.putVenue()
            #expect(try await client.post(Self.batch([Self.sighting(now)])).json["accepted"] as? Int == 1)
            let late = try await client.post(Self.batch([Self.sighting(now - 7200)]))
            #expect(late.status == .badRequest)
            #expect((late.json["message"] as? String)?.contains("Unix seconds") == true)
            let ahead = try await client.post(Self.batch([Self.sighting(now + 600)]))
            #expect(ahead.status == .badRequest)
            let milliseconds = try await client.post(Self.batch([Self.sighting(now * 1000)]))
            #expect(milliseconds.status == .badRequest)
            #expect(try await client.post(Self.batch([Self.sighting(now + 1)])).json["accepted"] as? Int == 1)
        }
    }

    @Test("the window never inverts, whatever the present and the settings")
    func theWindowIsNeverInverted() {
        let window = SightingTimeWindow(lateness: 3600, skew: 60, recordingLead: 3600)
        #expect(window.range(base: .recording, present: 2e9, wallClock: 0).isEmpty)
        #expect(window.range(base: .recording, present: 999_999_000, wallClock: 0) == 999_995_400..<1e9)
        #expect(window.range(base: .recording, present: nil, wallClock: 0).contains(-5))
        let odd = SightingTimeWindow(lateness: -1, skew: .nan, recordingLead: -5)
        #expect(odd.range(base: .unix, present: nil, wallClock: 100) == 100..<(100.0).nextUp)
        #expect(odd.range(base: .recording, present: 10, wallClock: 100) == 10..<10)
        #expect(SightingTimeWindow().range(base: .unix, present: nil, wallClock: .infinity).isEmpty)
    }
}
