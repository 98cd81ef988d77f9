import Foundation
import HummingbirdTesting
import IndoorServer
import Testing

/// `PUT` of a venue that already exists, while a device is inside one of its zones.
@Suite("Replacing a venue keeps the books right")
struct VenueReplacementTests {
    /// The phone walks into the east room (checked in at t = 10).
    static let enter = #"""
        {"venue": "tiny", "sightings": [{"t": 0, "device": "p", "node": "n1", "rssi": -59},
         {"t": 10, "device": "p", "node": "n2", "rssi": -59}, {"t": 11, "device": "p", "node": "n2", "rssi": -58}]}
        """#
    /// And back out: heard only by the west node from t = 20 to 40.
    static let leave =
        #"{"venue": "tiny", "sightings": ["#
        + stride(from: 20, through: 40, by: 2).map { #"{"t": \#($0), "device": "p", "node": "n1", "rssi": -59}"# }
        .joined(separator: ", ") + "]}"

    /// The east room's visits in the activity log: "checkIn-checkOut reason", "open" while open.
    static func eastVisits(_ client: any TestClientProtocol) async throws -> [String] {
        let visits = try await client.get("/v1/activity?venue=tiny&zone=east").json["visits"] as? [[String: Any]]
        return (visits ?? []).map { visit in
            let checkIn = visit["checkIn"] as? Double ?? -1
            let checkOut = (visit["checkOut"] as? Double).map { "\($0)" } ?? "open"
            return "\(checkIn)-\(checkOut) \(visit["reason"] as? String ?? "")"
        }
    }

    @Test(
        "an open visit carries on through a PUT of the same venue, or of a changed one keeping the zone",
        arguments: StoreKind.tested,
        [
            ServerFixture.venueJSON,
            ServerFixture.venueJSON.replacingOccurrences(of: #""name": "Tiny""#, with: #""name": "Tiny, renamed""#),
            ServerFixture.venueJSON.replacingOccurrences(of: #""checkOutTime": 2"#, with: #""checkOutTime": 3"#),
        ])
    func carriedOver(store: StoreKind, venue: String) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            _ = try await client.post(Self.enter)
            #expect(try await Self.eastVisits(client) == ["10.0-open "])
            #expect(try await client.putVenue(venue).status == .ok)
            #expect(try await Self.eastVisits(client) == ["10.0-open "])
            // Back in the east room after the PUT: still the one visit, no second check-in.
            let again = try await client.post(
                #"{"venue": "tiny", "sightings": [{"t": 15, "device": "p", "node": "n2", "rssi": -59}]}"#)
            let events = (again.json["events"] as? [[String: Any]] ?? []).compactMap { $0["event"] as? String }
            #expect(!events.contains("checkIn"))
            _ = try await client.post(Self.leave)
            let visits = try await Self.eastVisits(client)
            #expect(visits.count == 1)
            #expect(visits.first?.hasPrefix("10.0-") == true && visits.first?.hasSuffix(" left") == true, "\(visits)")
        }
    }

    @Test(
        "a PUT of a venue without the zone checks its open visit out, reason zoneRemoved",
        arguments: StoreKind.tested)
    func zoneRemoved(store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            _ = try await client.post(Self.enter)
            let withoutEast = ServerFixture.venueJSON.replacingOccurrences(
                of: #""id": "east""#, with: #""id": "east2""#)
            #expect(try await client.putVenue(withoutEast).status == .ok)
            #expect(try await Self.eastVisits(client) == ["10.0-11.0 zoneRemoved"])
            _ = try await client.post(Self.leave)
            #expect(try await Self.eastVisits(client) == ["10.0-11.0 zoneRemoved"])
        }
    }
}
