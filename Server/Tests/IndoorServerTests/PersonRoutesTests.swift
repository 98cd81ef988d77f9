import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorModel
import IndoorServer
import IndoorServerTestSupport
import NIOCore
import Testing

/// Persons (issue 52 item 2), against each store: a person groups devices (`PUT …/persons/{person}`, and the venue's
/// `persons`); occupancy counts the person once; the person checks in when the first of their devices does and out
/// when the last does, with their dwell; their location is the freshest confident fix of their devices.
@Suite struct PersonRoutesTests {
    static func put(_ client: any TestClientProtocol, _ person: String, _ body: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/venues/tiny/persons/\(person)", method: .put, headers: ServerFixture.headers(ServerFixture.admin),
            body: ByteBuffer(string: body))
    }

    /// Anna's phone `p` goes east at t = 10 and back at t = 20; her watch `w` goes east at t = 14 and back at t = 28.
    static let staggered = """
        [{"t": 0, "device": "p", "node": "n1", "rssi": -59}, {"t": 0, "device": "w", "node": "n1", "rssi": -59},
         {"t": 1, "device": "p", "node": "n1", "rssi": -60}, {"t": 1, "device": "w", "node": "n1", "rssi": -60},
         {"t": 10, "device": "p", "node": "n2", "rssi": -59}, {"t": 11, "device": "p", "node": "n2", "rssi": -58},
         {"t": 14, "device": "w", "node": "n2", "rssi": -59}, {"t": 15, "device": "w", "node": "n2", "rssi": -58}]
        """
    static let pBack = """
        [{"t": 20, "device": "p", "node": "n1", "rssi": -59}, {"t": 22, "device": "p", "node": "n1", "rssi": -59},
         {"t": 23, "device": "w", "node": "n2", "rssi": -59}, {"t": 24, "device": "p", "node": "n1", "rssi": -59}]
        """
    static let wBack = """
        [{"t": 28, "device": "w", "node": "n1", "rssi": -59}, {"t": 30, "device": "w", "node": "n1", "rssi": -59},
         {"t": 32, "device": "w", "node": "n1", "rssi": -59}]
        """

    @Test(arguments: StoreKind.tested) func aPersonIsCountedOnceAndChecksInWithTheFirstDeviceAndOutWithTheLast(
        _ store: StoreKind
    ) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            let enrolled = try await Self.put(client, "anna", #"{"name": "Anna", "devices": ["p", "w"]}"#)
            #expect(enrolled.status == .created, "\(enrolled.text)")
            #expect(enrolled.json["name"] as? String == "Anna")
            #expect(enrolled.json["devices"] as? [String] == ["p", "w"])
            // The venue's JSON holds the person.
            let venue = try await client.get("/v1/venues/tiny")
            let persons = venue.json["persons"] as? [[String: Any]]
            #expect(persons?.first?["id"] as? String == "anna")

            #expect(try await client.post(#"{"venue": "tiny", "sightings": \#(Self.staggered)}"#).status == .ok)
            var occupancy = try await OccupancyRouteTests.zones(client)
            #expect(occupancy["east"]?.count == 1, "both of Anna's devices are in the east room: one person")
            #expect(occupancy["east"]?.devices == ["p", "w"])
            let anna = try await client.get("/v1/venues/tiny/persons/anna")
            #expect(anna.status == .ok, "\(anna.text)")
            let location = anna.json["location"] as? [String: Any]
            #expect(["p", "w"].contains(location?["device"] as? String ?? ""), "\(anna.text)")
            #expect((location?["x"] as? Double ?? 0) > 10, "Anna is placed in the east room: \(anna.text)")
            #expect(anna.json["zones"] as? [String] == ["east"])
            #expect(!(anna.json["locatedBy"] as? [String] ?? []).isEmpty)

            #expect(try await client.post(#"{"venue": "tiny", "sightings": \#(Self.pBack)}"#).status == .ok)
            occupancy = try await OccupancyRouteTests.zones(client)
            #expect(occupancy["east"]?.count == 1 && occupancy["east"]?.devices == ["w"], "the watch is still in")
            #expect(try await client.post(#"{"venue": "tiny", "sightings": \#(Self.wBack)}"#).status == .ok)
            occupancy = try await OccupancyRouteTests.zones(client)
            #expect(occupancy["east"]?.count == 0)

            let events = try await OccupancyEventTests.events(fixture.server.hub.store, venue: "tiny")
            var personEvents: [PersonZoneEvent] = []
            var occupancyCounts: [Int] = []
            var deviceCheckIns = 0
            for stored in events {
                switch stored.event {
                case .person(let event): personEvents.append(event)
                case .occupancy(let event) where event.zone == "east": occupancyCounts.append(event.count)
                case .zone(let event) where event.zone == "east" && event.kind == .checkIn: deviceCheckIns += 1
                default: break
                }
            }
            #expect(deviceCheckIns == 2, "each device checks in")
            #expect(occupancyCounts == [1, 0], "the room was occupied by one person, then empty")
            #expect(personEvents.map(\.kind) == [.personCheckIn, .personCheckOut])
            let checkIn = try #require(personEvents.first)
            let checkOut = try #require(personEvents.last)
            #expect(checkIn.person == "anna" && checkIn.personName == "Anna" && checkIn.zone == "east")
            #expect(checkIn.device == "p", "the phone was in first")
            #expect(checkOut.device == "w", "the watch was out last")
            #expect(checkOut.checkIn == checkIn.time)
            #expect(abs((checkOut.dwell ?? 0) - (checkOut.time - checkIn.time)) < 1e-9)
            #expect((checkOut.dwell ?? 0) > 12, "from the phone's check-in to the watch's check-out: \(checkOut)")
        }
    }

    @Test func enrollingIsCheckedAndDeletingAPersonLeavesItsDevices() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            #expect(try await Self.put(client, "anna", #"{"name": "Anna", "devices": ["p"]}"#).status == .created)
            // Changed: 200.
            #expect(try await Self.put(client, "anna", #"{"name": "Anna", "devices": ["p", "w"]}"#).status == .ok)
            // A device of another person.
            let taken = try await Self.put(client, "bo", #"{"devices": ["w"]}"#)
            #expect(taken.status == .badRequest)
            #expect(taken.json["field"] as? String == "devices", "\(taken.text)")
            #expect(taken.text.contains("anna"))
            // A bad id, a device listed twice, no devices list, an id in the body that differs.
            #expect(try await Self.put(client, "a%20b", #"{"devices": ["x"]}"#).status == .badRequest)
            let twice = try await Self.put(client, "cy", #"{"devices": ["x", "x"]}"#)
            #expect(twice.status == .badRequest && twice.text.contains("devices[1]"), "\(twice.text)")
            #expect(try await Self.put(client, "cy", #"{"name": "Cy"}"#).status == .badRequest)
            #expect(try await Self.put(client, "cy", #"{"id": "dee", "devices": []}"#).status == .badRequest)
            // Read keys read, only admin keys write.
            let list = try await client.get("/v1/venues/tiny/persons")
            #expect(list.status == .ok)
            let persons = list.json["persons"] as? [[String: Any]] ?? []
            #expect(persons.map { $0["id"] as? String } == ["anna"])
            #expect(persons.first?["location"] is NSNull, "no device heard yet: \(list.text)")
            let refused = try await client.execute(
                uri: "/v1/venues/tiny/persons/eve", method: .put, headers: ServerFixture.headers(ServerFixture.read),
                body: ByteBuffer(string: #"{"devices": ["e"]}"#))
            #expect(refused.status == .forbidden || refused.status == .unauthorized)
            // Unknown venue and person.
            #expect(try await client.get("/v1/venues/nowhere/persons").status == .notFound)
            #expect(try await client.get("/v1/venues/tiny/persons/zed").status == .notFound)
            let delete = try await client.execute(
                uri: "/v1/venues/tiny/persons/anna", method: .delete,
                headers: ServerFixture.headers(ServerFixture.admin))
            #expect(delete.status == .noContent)
            let again = try await client.execute(
                uri: "/v1/venues/tiny/persons/anna", method: .delete,
                headers: ServerFixture.headers(ServerFixture.admin))
            #expect(again.status == .notFound)
            let venue = try await client.get("/v1/venues/tiny")
            #expect(venue.json["persons"] == nil, "a venue without persons writes none: \(venue.text)")
        }
    }
}
