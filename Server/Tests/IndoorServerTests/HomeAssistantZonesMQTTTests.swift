import Foundation
import IndoorGateways
import IndoorMQTT
import IndoorModel
import IndoorServerTestSupport
import Testing

@testable import IndoorServer

/// Each zone's occupancy on MQTT (issue 52 items 1 and 4): the retained `indoor/<venue>/zones/<zone>` state, and with
/// Home Assistant's discovery a `binary_sensor` (occupancy) and a `sensor` (count) per zone under one device per
/// venue, checked on a real mosquitto against Home Assistant's MQTT discovery schema (the keys its
/// `binary_sensor` and `sensor` platforms take, its device and state classes, its discovery topic rule); zones that
/// go and venues deleted leave nothing retained.
@Suite(.serialized) struct HomeAssistantZonesMQTTTests {
    typealias Bridge = HomeAssistantMQTTTests.Bridge

    /// The keys Home Assistant's MQTT `binary_sensor` platform takes in a discovery config (its `PLATFORM_SCHEMA`
    /// with `MQTT_RO_SCHEMA` and `MQTT_ENTITY_COMMON_SCHEMA`, homeassistant/components/mqtt/binary_sensor.py); other
    /// keys are dropped (`extra=REMOVE_EXTRA`), so a key outside is a mistake.
    static let binarySensorKeys: Set<String> = [
        "device_class", "expire_after", "force_update", "name", "off_delay", "payload_off", "payload_on",
        "state_topic", "value_template", "qos", "encoding", "availability_topic", "availability", "device",
        "unique_id", "icon", "origin", "object_id", "json_attributes_topic", "entity_category", "enabled_by_default",
    ]
    /// The keys of its MQTT `sensor` platform (homeassistant/components/mqtt/sensor.py, `_PLATFORM_SCHEMA_BASE`).
    static let sensorKeys: Set<String> = [
        "device_class", "expire_after", "force_update", "last_reset_value_template", "name", "options",
        "suggested_display_precision", "state_class", "unit_of_measurement", "state_topic", "value_template", "qos",
        "encoding", "availability_topic", "availability", "device", "unique_id", "icon", "origin", "object_id",
        "json_attributes_topic", "entity_category", "enabled_by_default",
    ]
    /// Home Assistant's sensor state classes (`SensorStateClass`).
    static let stateClasses: Set<String> = ["measurement", "total", "total_increasing"]

    /// `template` as Home Assistant renders it over `payload`, for the two templates the zones use.
    static func render(_ template: String, _ payload: [String: Any]) -> String? {
        switch template {
        case "{{ 'ON' if value_json.occupied else 'OFF' }}": (payload["occupied"] as? Bool).map { $0 ? "ON" : "OFF" }
        case "{{ value_json.count }}": (payload["count"] as? Int).map(String.init)
        default: nil
        }
    }

    @Test func zoneObjectIDsAreDistinctFromEachOtherAndFromDevices() {
        let ids = ["east", "east_occupancy", "east.1", "east_1", "a__b", "zone", "_", "café", ""]
        let zones = ids.map { HomeAssistantZone(venue: "tiny", zone: $0) }
        let objectIDs = zones.flatMap { [$0.occupancyObjectID, $0.countObjectID] }
        #expect(Set(objectIDs).count == 2 * ids.count)
        let devices = ids.flatMap {
            let device = HomeAssistantDevice(venue: "tiny", device: $0)
            return [device.objectID, device.roomObjectID]
        }
        #expect(Set(objectIDs).isDisjoint(with: devices))
        for zone in zones {
            #expect(HomeAssistantMQTTTests.isDiscoveryTopic(zone.occupancyConfigTopic(prefix: "homeassistant")))
            #expect(HomeAssistantMQTTTests.isDiscoveryTopic(zone.countConfigTopic(prefix: "homeassistant")))
        }
        #expect(HomeAssistantZone(venue: "tiny", zone: "east.1").topic(root: "indoor") == "indoor/tiny/zones/east_2E1")
    }

    @Test(.needsBroker) func eachZoneIsABinarySensorAndACountUnderTheVenuesDevice() async throws {
        let broker = try Broker()
        let bridge = try await Bridge(broker)
        let zones = ["tiny", "tiny2"].flatMap { venue in
            ["east", "gate"].map { HomeAssistantZone(venue: venue, zone: $0) }
        }
        // At the start every zone is there, empty.
        try await MQTTGatewayTests.eventually("every zone's configs and state") {
            try zones.allSatisfy {
                try bridge.json($0.occupancyConfigTopic(prefix: "homeassistant")) != nil
                    && bridge.json($0.countConfigTopic(prefix: "homeassistant")) != nil
                    && bridge.json($0.topic(root: "indoor"))?["count"] as? Int == 0
            }
        }
        var uniqueIDs: Set<String> = []
        for zone in zones {
            let occupancy = try #require(try bridge.json(zone.occupancyConfigTopic(prefix: "homeassistant")))
            let count = try #require(try bridge.json(zone.countConfigTopic(prefix: "homeassistant")))
            #expect(Set(occupancy.keys).isSubset(of: Self.binarySensorKeys), "\(occupancy.keys)")
            #expect(Set(count.keys).isSubset(of: Self.sensorKeys), "\(count.keys)")
            #expect(occupancy["device_class"] as? String == "occupancy")
            #expect(Self.stateClasses.contains(count["state_class"] as? String ?? ""))
            #expect(count["state_class"] as? String == "measurement")
            let name = zone.zone == "east" ? "East room" : "Gate"
            #expect(occupancy["name"] as? String == name)
            #expect(count["name"] as? String == "\(name) count")
            for config in [occupancy, count] {
                #expect(config["state_topic"] as? String == zone.topic(root: "indoor"))
                let device = try #require(config["device"] as? [String: Any])
                #expect(device["identifiers"] as? [String] == ["indoor_\(zone.venue)"])
                #expect(device["name"] as? String == "Tiny")
                uniqueIDs.insert(try #require(config["unique_id"] as? String))
            }
            // The templates give what the platforms take: ON / OFF, and a number.
            let state = try #require(try bridge.json(zone.topic(root: "indoor")))
            #expect(Self.render(try #require(occupancy["value_template"] as? String), state) == "OFF")
            #expect(occupancy["payload_on"] as? String == "ON" && occupancy["payload_off"] as? String == "OFF")
            #expect(Self.render(try #require(count["value_template"] as? String), state) == "0")
        }
        #expect(uniqueIDs.count == 2 * zones.count)
        let configs = bridge.peer.received.messages.withLock { messages in
            messages.filter { $0.topic.hasPrefix("homeassistant/") && !$0.payload.isEmpty }.map(\.topic)
        }
        for topic in configs { #expect(HomeAssistantMQTTTests.isDiscoveryTopic(topic), "\(topic)") }

        // Two into the east room: occupied, then 2.
        let east = HomeAssistantZone(venue: "tiny", zone: "east")
        _ = try await bridge.hub.ingest(venue: "tiny", sightings: HomeAssistantMQTTTests.walk("anna"))
        try await MQTTGatewayTests.eventually("east occupied") {
            try bridge.json(east.topic(root: "indoor"))?["occupied"] as? Bool == true
        }
        _ = try await bridge.hub.ingest(venue: "tiny", sightings: HomeAssistantMQTTTests.walk("bob", from: 17))
        try await MQTTGatewayTests.eventually("two in east") {
            try bridge.json(east.topic(root: "indoor"))?["count"] as? Int == 2
        }
        let state = try #require(try bridge.json(east.topic(root: "indoor")))
        #expect(state["zoneName"] as? String == "East room" && state["t"] is Double)
        let occupancy = try #require(try bridge.json(east.occupancyConfigTopic(prefix: "homeassistant")))
        #expect(Self.render(try #require(occupancy["value_template"] as? String), state) == "ON")

        // Home Assistant restarts with a broker that lost everything: the zones come back.
        let topics = [
            east.occupancyConfigTopic(prefix: "homeassistant"), east.countConfigTopic(prefix: "homeassistant"),
            east.topic(root: "indoor"),
        ]
        for topic in topics {
            try await bridge.peer.client.publish(topic: topic, payload: [], qos: .atLeastOnce, retain: true)
        }
        try await MQTTGatewayTests.eventually("east emptied") {
            topics.allSatisfy { bridge.peer.messages(on: $0).last == "" }
        }
        try await bridge.peer.publish("homeassistant/status", "online")
        try await MQTTGatewayTests.eventually("east sent again") {
            topics.allSatisfy { !(bridge.peer.messages(on: $0).last ?? "").isEmpty }
        }
        #expect(try bridge.json(east.topic(root: "indoor"))?["count"] as? Int == 2)
        await bridge.stop()
    }

    /// A zone removed from its venue, and a venue deleted, leave nothing retained: their zones' states and configs are
    /// emptied, and the deleted venue's devices' entities too.
    @Test(.needsBroker) func zonesAndVenuesThatGoLeaveNothingRetained() async throws {
        let broker = try Broker()
        let bridge = try await Bridge(broker)
        _ = try await bridge.hub.ingest(venue: "tiny2", sightings: HomeAssistantMQTTTests.walk("anna"))
        let anna = HomeAssistantDevice(venue: "tiny2", device: "anna")
        let gate = HomeAssistantZone(venue: "tiny", zone: "gate")
        let east = HomeAssistantZone(venue: "tiny", zone: "east")
        try await MQTTGatewayTests.eventually("anna's tracker and tiny's zones") {
            try bridge.json(anna.trackerConfigTopic(prefix: "homeassistant")) != nil
                && bridge.json(gate.occupancyConfigTopic(prefix: "homeassistant")) != nil
                && bridge.peer.messages(on: "\(anna.base(root: "indoor"))/state").last == "home"
        }
        // tiny without its gate: the gate's entities and state go, the east room's stay.
        var venue = try #require(
            try JSONSerialization.jsonObject(with: Data(ServerFixture.venueJSON.utf8)) as? [String: Any])
        venue["zones"] = (venue["zones"] as? [[String: Any]] ?? []).filter { $0["id"] as? String != "gate" }
        let withoutGate = try #require(String(data: try JSONSerialization.data(withJSONObject: venue), encoding: .utf8))
        #expect(!withoutGate.contains("gate"))
        _ = try await bridge.hub.putVenue(id: "tiny", json: Data(withoutGate.utf8))
        let gateTopics = [
            gate.occupancyConfigTopic(prefix: "homeassistant"), gate.countConfigTopic(prefix: "homeassistant"),
            gate.topic(root: "indoor"),
        ]
        try await MQTTGatewayTests.eventually("the gate's topics emptied") {
            gateTopics.allSatisfy { bridge.peer.messages(on: $0).last == "" }
        }
        #expect(!(bridge.peer.messages(on: east.occupancyConfigTopic(prefix: "homeassistant")).last ?? "").isEmpty)
        // tiny2 deleted: its zones' and anna's retained topics are all emptied.
        #expect(try await bridge.hub.deleteVenue(id: "tiny2", purge: false) != nil)
        let gone =
            ["east", "gate"].flatMap { zone -> [String] in
                let key = HomeAssistantZone(venue: "tiny2", zone: zone)
                return [
                    key.occupancyConfigTopic(prefix: "homeassistant"), key.countConfigTopic(prefix: "homeassistant"),
                    key.topic(root: "indoor"),
                ]
            }
            + MQTTPublisher.retainedTopics(
                of: "anna", venue: "tiny2",
                configuration: MQTTBridgeConfiguration(homeAssistant: .init(devices: .every)))
        try await MQTTGatewayTests.eventually("tiny2's topics emptied") {
            gone.allSatisfy { bridge.peer.messages(on: $0).last == "" }
        }
        // Nothing of tiny2 is retained on the broker: a later subscriber gets none of it.
        let late = MQTTGatewayTests.Peer(broker: broker, subscriptions: ["homeassistant/#", "indoor/#"])
        defer { Task { await late.stop() } }
        try await late.connected()
        try await MQTTGatewayTests.eventually("tiny's east room, retained") {
            !(late.messages(on: east.topic(root: "indoor")).last ?? "").isEmpty
        }
        try await Task.sleep(for: .milliseconds(300))
        let retained = late.received.messages.withLock { $0.filter { !$0.payload.isEmpty }.map(\.topic) }
        #expect(!retained.contains { $0.contains("tiny2") }, "\(retained)")
        await bridge.stop()
    }
}
