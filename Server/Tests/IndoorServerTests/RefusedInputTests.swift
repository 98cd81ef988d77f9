import Foundation
import HummingbirdTesting
import IndoorServer
import Testing

/// What the server does not take is said, item by item, never silently accepted.
@Suite("Input the server refuses, and says so")
struct RefusedInputTests {
    @Test func aSightingOfAnUnknownNodeIsRefusedByItselfNamingTheNode() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            let answer = try await client.post(
                #"{"venue": "tiny", "sightings": [{"t": 1, "device": "p", "node": "n1", "rssi": -60},"#
                    + #" {"t": 2, "device": "p", "node": "n9", "rssi": -60}]}"#)
            #expect(answer.status == .ok)
            #expect(answer.json["accepted"] as? Int == 1)
            let errors = answer.json["errors"] as? [[String: Any]]
            #expect(errors?.first?["field"] as? String == "sightings[1].node")
            #expect(
                errors?.first?["message"] as? String == "node 'n9' is not a node of venue 'tiny' (its nodes: n1, n2)")
            let alone = try await client.post(
                #"{"venue": "tiny", "sightings": [{"t": 3, "device": "p", "node": "typo", "rssi": -60}]}"#)
            #expect(alone.status == .badRequest)
            #expect(alone.json["field"] as? String == "sightings[0].node")
        }
    }

    @Test func aDeviceIDOfMoreThan128CharactersIsRefused() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            let long = String(repeating: "d", count: 129)
            let answer = try await client.post(
                #"{"venue": "tiny", "sightings": [{"t": 1, "device": "\#(long)", "node": "n1", "rssi": -60}]}"#)
            #expect(answer.status == .badRequest)
            #expect(answer.json["field"] as? String == "sightings[0].device")
            let longest = String(repeating: "d", count: 128)
            let taken = try await client.post(
                #"{"venue": "tiny", "sightings": [{"t": 1, "device": "\#(longest)", "node": "n1", "rssi": -60}]}"#)
            #expect(taken.json["accepted"] as? Int == 1)
        }
    }

    @Test func aVenueWithoutNodesOrWithTooLongIDsIsRefused() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            let empty = try await client.putVenue(#"{"id": "tiny", "name": "Tiny"}"#)
            #expect(empty.status == .badRequest)
            #expect(empty.json["field"] as? String == "nodes")
            let node = String(repeating: "n", count: 129)
            let longNode = try await client.putVenue(#"{"id": "tiny", "nodes": [{"id": "\#(node)", "x": 0, "y": 0}]}"#)
            #expect(longNode.status == .badRequest)
            #expect(longNode.json["field"] as? String == "nodes[0].id")
            let id = String(repeating: "v", count: 129)
            let longVenue = try await client.putVenue(
                #"{"id": "\#(id)", "nodes": [{"id": "n", "x": 0, "y": 0}]}"#, id: id)
            #expect(longVenue.status == .badRequest)
            #expect(longVenue.json["field"] as? String == "id")
        }
    }

    @Test func aNegativeActiveWindowIsRefused() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            let answer = try await client.get("/v1/venues/tiny/devices?within=-5")
            #expect(answer.status == .badRequest)
            #expect(answer.json["field"] as? String == "within")
        }
    }
}
