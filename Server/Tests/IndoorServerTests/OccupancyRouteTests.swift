import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorServer
import IndoorServerTestSupport
import NIOCore
import Testing

/// `GET /v1/venues/{venue}/occupancy`, against each store: who is in each zone now, from the open visits.
@Suite struct OccupancyRouteTests {
    static func zones(_ client: any TestClientProtocol) async throws -> [String: (count: Int, devices: [String])] {
        let answer = try await client.get("/v1/venues/tiny/occupancy")
        #expect(answer.status == .ok, "\(answer.text)")
        #expect(answer.json["venue"] as? String == "tiny")
        var zones: [String: (count: Int, devices: [String])] = [:]
        for zone in answer.json["zones"] as? [[String: Any]] ?? [] {
            guard let id = zone["zone"] as? String, let count = zone["count"] as? Int else { continue }
            zones[id] = (count, zone["devices"] as? [String] ?? [])
        }
        return zones
    }

    @Test(arguments: StoreKind.tested) func aZoneCountsTheDevicesInItNowAndEmptiesWhenTheyLeave(
        _ store: StoreKind
    ) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            // Every zone is listed, empty before anyone is heard.
            var zones = try await Self.zones(client)
            #expect(zones["east"]?.count == 0 && zones["gate"]?.count == 0)
            // The README's walk up to t = 11: p is in the east room (and crossed the gate, which opens no visit).
            let into = """
                [{"t": 0, "device": "p", "node": "n1", "rssi": -59}, {"t": 1, "device": "p", "node": "n1", "rssi": -60},
                 {"t": 10, "device": "p", "node": "n2", "rssi": -59}, {"t": 11, "device": "p", "node": "n2", "rssi": -58}]
                """
            #expect(try await client.post(#"{"venue": "tiny", "sightings": \#(into)}"#).status == .ok)
            zones = try await Self.zones(client)
            #expect(zones["east"]?.count == 1 && zones["east"]?.devices == ["p"])
            #expect(zones["gate"]?.count == 0)
            // Back west and checked out at t = 22: the room is empty again.
            let out = """
                [{"t": 20, "device": "p", "node": "n1", "rssi": -59}, {"t": 22, "device": "p", "node": "n1", "rssi": -59}]
                """
            #expect(try await client.post(#"{"venue": "tiny", "sightings": \#(out)}"#).status == .ok)
            zones = try await Self.zones(client)
            #expect(zones["east"]?.count == 0 && zones["east"]?.devices == [])
            // An unknown venue is a 404.
            #expect(try await client.get("/v1/venues/nowhere/occupancy").status == .notFound)
        }
    }
}
