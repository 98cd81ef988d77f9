import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorModel
import IndoorServer
import NIOCore
import Testing

/// Each device's held room (the venue session's `room(of:)`) in the device list, the device's fix and the stream,
/// as the OpenAPI document describes it.
@Suite struct DeviceRoomTests {
    static func validator() throws -> SchemaValidator {
        SchemaValidator(document: try JSONValue.parse(OpenAPIDocument.json))
    }

    /// The walk of ``ServerFixture/walk`` up to t = 11: the device `p` is deep inside the room `east` by then.
    static let intoEast = """
        {"venue": "tiny", "sightings": [{"t": 0, "device": "p", "node": "n1", "rssi": -59},
         {"t": 1, "device": "p", "node": "n1", "rssi": -60}, {"t": 10, "device": "p", "node": "n2", "rssi": -59},
         {"t": 11, "device": "p", "node": "n2", "rssi": -58}]}
        """

    static let east: JSONValue = .object([
        "state": .string("room"), "zone": .string("east"), "zoneName": .string("East room"),
    ])

    @Test func theAnswerOfTheSessionBecomesZoneIDAndName() throws {
        let zones = [Zone(id: "a", name: "A"), Zone(id: "b", name: "Room B")]
        let room = DeviceRoom(.room(1), zones: zones)
        #expect(room?.state == .room)
        #expect(room?.zone == "b")
        #expect(room?.zoneName == "Room B")
        #expect(DeviceRoom(.noRoom, zones: zones)?.state == .noRoom)
        #expect(DeviceRoom(.noRoom, zones: zones)?.zone == nil)
        #expect(DeviceRoom(.unknown, zones: zones)?.state == .unknown)
        #expect(DeviceRoom(.room(2), zones: zones) == nil)
        #expect(DeviceRoom(.room(-1), zones: zones) == nil)
    }

    @Test func theSchemaOfARoomListsEveryStateAndRefusesAMixUp() throws {
        let validator = try Self.validator()
        let document = try JSONValue.parse(OpenAPIDocument.json)
        let states = try #require(
            document["components"]?["schemas"]?["DeviceRoom"]?["properties"]?["state"]?["enum"]?.array)
        #expect(states.compactMap(\.string) == DeviceRoom.State.allCases.map(\.rawValue))
        for state in DeviceRoom.State.allCases {
            let room = state == .room ? Self.east : .object(["state": .string(state.rawValue)])
            #expect(validator.problems(room, schema: "DeviceRoom") == [])
        }
        #expect(!validator.problems(.object(["state": .string("room")]), schema: "DeviceRoom").isEmpty)
        let unknownInARoom: JSONValue = .object(["state": .string("unknown"), "zone": .string("east")])
        #expect(!validator.problems(unknownInARoom, schema: "DeviceRoom").isEmpty)
        #expect(!validator.problems(.object(["state": .string("inside")]), schema: "DeviceRoom").isEmpty)
    }

    @Test func theDeviceListAndTheDeviceCarryTheHeldRoom() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let hub = fixture.server.hub
        try await fixture.test { client in
            _ = try await client.putVenue()
            #expect(try await client.post(Self.intoEast).status == .ok)
            #expect(hub.room(venue: "tiny", device: "p")?.zone == "east")
            let validator = try Self.validator()

            let list = try JSONValue.parse(Data(buffer: try await client.get("/v1/venues/tiny/devices").body))
            #expect(validator.problems(list, schema: "DeviceList") == [])
            let devices = try #require(list["devices"]?.array)
            #expect(devices.count == 1)
            #expect(devices.first?["room"] == Self.east)
            #expect(devices.first?["device"] == .string("p"))

            let one = try JSONValue.parse(Data(buffer: try await client.get("/v1/venues/tiny/devices/p").body))
            #expect(validator.problems(one, schema: "DeviceFix") == [])
            #expect(one["room"] == Self.east)
            #expect(one["x"]?.number != nil)
        }
    }

    @Test func aVenueWithoutRoomsWritesNoRoom() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        // The tiny venue with its room's polygon fence turned into a circle: no zone with a polygon fence.
        let roomless = ServerFixture.venueJSON.replacingOccurrences(
            of: #""polygon": [[15, -5], [25, -5], [25, 5], [15, 5]]"#, with: #""center": [20, 0], "radius": 5"#)
        #expect(roomless != ServerFixture.venueJSON)
        try await fixture.test { client in
            #expect(try await client.putVenue(roomless).status == .created)
            #expect(try await client.post(Self.intoEast).status == .ok)
            let one = try JSONValue.parse(Data(buffer: try await client.get("/v1/venues/tiny/devices/p").body))
            #expect(one["device"] == .string("p"))
            #expect(one["room"] == nil)
            #expect(fixture.server.hub.room(venue: "tiny", device: "p") == nil)
        }
    }

    /// The device's latest fix of a batch and its zone events carry its held room; its earlier fixes of the batch none
    /// (the room right after them is not known: the session takes a batch whole).
    @Test func theStreamGivesEachDevicesLatestFixOfABatchAndItsZoneEventsItsRoom() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            async let streamed = client.execute(
                uri: "/v1/stream?venue=tiny", method: .get, headers: ServerFixture.headers(ServerFixture.read))
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await client.post(Self.intoEast).status == .ok)
            try await Task.sleep(for: .milliseconds(300))
            _ = try await client.putVenue(ServerFixture.renamedVenueJSON)  // a changed venue ends the stream
            let text = try await streamed.text
            let events = try text.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map {
                try JSONValue.parse(String($0.dropFirst(6)))
            }
            let validator = try Self.validator()
            for event in events { #expect(validator.problems(event, schema: "StreamEvent") == []) }
            let fixes = events.filter { $0["type"] == .string("fix") }
            #expect(fixes.count >= 2)
            #expect(fixes.last?["room"] == Self.east)
            #expect(fixes.dropLast().allSatisfy { $0["room"] == nil })
            let zones = events.filter { $0["type"] == .string("zone") }
            #expect(
                zones.contains { $0["zone"]?["event"] == .string("checkIn") && $0["zone"]?["zone"] == .string("east") })
            #expect(zones.allSatisfy { $0["room"] == Self.east }, "\(zones)")
        }
    }
}
