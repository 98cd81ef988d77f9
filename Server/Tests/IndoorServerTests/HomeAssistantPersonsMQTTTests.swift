import Foundation
import IndoorGateways
import IndoorMQTT
import IndoorModel
import IndoorServerTestSupport
import Testing

@testable import IndoorServer

/// Persons on MQTT (issue 52 items 2 and 4), on a real broker: with `--publish` the person's JSON on
/// `indoor/<venue>/persons/<person>` and their events on `indoor/<venue>/events`; with Home Assistant's discovery a
/// `device_tracker` and a `Room` sensor per person under a Home Assistant device named by the person, `home` while one
/// of their devices is held and `not_home` when none is; a person taken out leaves nothing retained.
@Suite(.serialized) struct HomeAssistantPersonsMQTTTests {
    typealias Bridge = HomeAssistantMQTTTests.Bridge

    @Test func aPersonsObjectIDIsNeverADevicesAndItsTopicsAreHomeAssistants() throws {
        let ids = ["anna", "person", "person__anna", "anna.b", "a_2Eb", "_", "x"]
        let persons = ids.map { HomeAssistantDevice(venue: "tiny", device: $0, isPerson: true) }
        let devices = ids.flatMap {
            [
                HomeAssistantDevice(venue: "tiny", device: $0),
                HomeAssistantDevice(venue: "tiny", device: "person__\($0)"),
            ]
        }
        let personIDs = Set(persons.flatMap { [$0.objectID, $0.roomObjectID] })
        #expect(personIDs.count == 2 * ids.count)
        #expect(personIDs.isDisjoint(with: devices.flatMap { [$0.objectID, $0.roomObjectID] }))
        for person in persons {
            #expect(HomeAssistantMQTTTests.isDiscoveryTopic(person.trackerConfigTopic(prefix: "homeassistant")))
            #expect(HomeAssistantMQTTTests.isDiscoveryTopic(person.roomConfigTopic(prefix: "homeassistant")))
            #expect(person.legacyConfigTopic(prefix: "homeassistant") == nil)
        }
        #expect(persons[3].base(root: "indoor") == "indoor/tiny/persons/anna_2Eb")
    }

    @Test(.needsBroker) func aPersonIsOneTrackerHomeWhileADeviceIsHeldAndGoneWhenTakenOut() async throws {
        let broker = try Broker()
        let bridge = try await Bridge(broker, publish: .every)
        let anna = HomeAssistantDevice(venue: "tiny", device: "anna", isPerson: true)
        _ = try await bridge.hub.putPerson(
            Person(id: "anna", name: "Anna", devices: ["anna-phone", "anna-watch"]), venue: "tiny")
        // Announced with the venue's persons, nowhere yet.
        try await MQTTGatewayTests.eventually("Anna's tracker, not home") {
            bridge.peer.messages(on: anna.base(root: "indoor") + "/state").last == "not_home"
        }
        let config = try #require(try bridge.json(anna.trackerConfigTopic(prefix: "homeassistant")))
        #expect(config.keys.contains("name") && config["name"] is NSNull, "the entity takes the device's name alone")
        #expect(config["state_topic"] as? String == "indoor/tiny/persons/anna/state")
        #expect(config["payload_home"] as? String == "home" && config["payload_not_home"] as? String == "not_home")
        let device = try #require(config["device"] as? [String: Any])
        #expect(device["name"] as? String == "Anna")
        #expect(device["identifiers"] as? [String] == ["indoor_tiny__person__anna"])
        let room = try #require(try bridge.json(anna.roomConfigTopic(prefix: "homeassistant")))
        #expect(room["state_topic"] as? String == "indoor/tiny/persons/anna/room")

        // Her phone and her watch walk into the east room.
        _ = try await bridge.hub.ingest(venue: "tiny", sightings: HomeAssistantMQTTTests.walk("anna-phone"))
        _ = try await bridge.hub.ingest(venue: "tiny", sightings: HomeAssistantMQTTTests.walk("anna-watch", from: 17))
        // Her state, her room, then her attributes (published one after the other).
        try await MQTTGatewayTests.eventually("Anna home, in the east room") {
            try bridge.peer.messages(on: anna.base(root: "indoor") + "/state").last == "home"
                && bridge.peer.messages(on: anna.base(root: "indoor") + "/room").last == "East room"
                && bridge.json(anna.base(root: "indoor") + "/attributes")?["room"] as? String == "East room"
                && bridge.json(anna.base(root: "indoor"))?["zones"] as? [String] == ["east"]
        }
        let published = try #require(try bridge.json(anna.base(root: "indoor")))
        #expect(published["name"] as? String == "Anna" && published["zones"] as? [String] == ["east"])
        let location = try #require(published["location"] as? [String: Any])
        #expect(["anna-phone", "anna-watch"].contains(location["device"] as? String ?? ""))
        let attributes = try #require(try bridge.json(anna.base(root: "indoor") + "/attributes"))
        #expect(attributes["room"] as? String == "East room" && attributes["x"] is Double)
        // Her events: in once, with the phone; the watch coming in makes none.
        let events = bridge.peer.messages(on: "indoor/tiny/events").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let personEvents = events.filter { $0["person"] as? String == "anna" }
        #expect(personEvents.map { $0["event"] as? String } == ["personCheckIn"], "\(personEvents)")
        #expect(personEvents.first?["device"] as? String == "anna-phone")

        // Both devices erased: no device of hers is held, so she is not home and has no position.
        _ = try await bridge.hub.eraseDevice("anna-phone", venue: "tiny")
        _ = try await bridge.hub.eraseDevice("anna-watch", venue: "tiny")
        // Her state, then her attributes without a position (published one after the other).
        try await MQTTGatewayTests.eventually("Anna not home, without a position") {
            try bridge.peer.messages(on: anna.base(root: "indoor") + "/state").last == "not_home"
                && bridge.json(anna.base(root: "indoor") + "/attributes")?["in_zones"] != nil
        }
        let gone = try #require(try bridge.json(anna.base(root: "indoor") + "/attributes"))
        #expect(gone["x"] == nil && gone["latitude"] == nil)

        // Taken out of the venue: her configs and states are emptied.
        #expect(try await bridge.hub.deletePerson("anna", venue: "tiny"))
        try await MQTTGatewayTests.eventually("Anna's entities removed") {
            bridge.peer.messages(on: anna.trackerConfigTopic(prefix: "homeassistant")).last == ""
                && bridge.peer.messages(on: anna.roomConfigTopic(prefix: "homeassistant")).last == ""
                && bridge.peer.messages(on: anna.base(root: "indoor") + "/state").last == ""
                && bridge.peer.messages(on: anna.base(root: "indoor")).last == ""
        }
        await bridge.stop()
    }
}
