import Foundation
import IndoorGateways
import IndoorMQTT
import IndoorModel
import IndoorServerTestSupport
import Logging
import Synchronization
import Testing

@testable import IndoorServer

/// Home Assistant's MQTT discovery (issue 52 item 4), through `MQTTBridge` on a real broker (mosquitto, or amqtt:
/// `INDOOR_TEST_BROKER`), checked against Home Assistant's own rules: its discovery topic matcher
/// (`<component>/[<node_id>/]<object_id>/config`, ids of `[a-zA-Z0-9_-]`), `name: null` for an entity that is its
/// device's main feature, `home` / `not_home` for a tracker its `person` follows; and that the configs and states come
/// again when Home Assistant says `online`, and the attributes only when they change meaningfully.
@Suite(.serialized) struct HomeAssistantMQTTTests {
    /// A bridge with Home Assistant's discovery for every device, venues `tiny` and `tiny2`, and a peer that records
    /// everything under `homeassistant/` and `indoor/`.
    final class Bridge: Sendable {
        let hub: VenueHub
        let database: TestDatabase
        let peer: MQTTGatewayTests.Peer
        let task: Task<Void, Never>

        init(_ broker: Broker, publish: DeviceSelection? = nil) async throws {
            let database = try TestDatabase(.sqlite)
            let hub = try await VenueHub(store: try await database.open(), metrics: ServerMetrics())
            _ = try await hub.putVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8))
            let second = ServerFixture.venueJSON.replacingOccurrences(of: #""id": "tiny""#, with: #""id": "tiny2""#)
            _ = try await hub.putVenue(id: "tiny2", json: Data(second.utf8))
            let client = MQTTClient(
                configuration: MQTTConfiguration(
                    host: "127.0.0.1", port: broker.port, clientID: "indoor-bridge", username: broker.username,
                    password: broker.password, cleanSession: true))
            let bridge = try MQTTBridge(
                hub: hub, client: client,
                configuration: MQTTBridgeConfiguration(publish: publish, homeAssistant: .init(devices: .every)),
                metrics: ServerMetrics(), logger: Logger(label: "test"))
            self.database = database
            self.hub = hub
            task = Task { try? await bridge.run() }
            peer = MQTTGatewayTests.Peer(broker: broker, subscriptions: ["homeassistant/#", "indoor/#"])
            try await peer.connected()
            try await MQTTGatewayTests.eventually("the bridge's connection") { client.connectionState == .connected }
            // The bridge subscribed (to Home Assistant's status too) once its session is up.
            try await Task.sleep(for: .milliseconds(300))
        }

        func stop() async {
            task.cancel()
            await peer.stop()
            database.remove()
        }

        /// The JSON object last published on `topic`.
        func json(_ topic: String) throws -> [String: Any]? {
            guard let text = peer.messages(on: topic).last, !text.isEmpty else { return nil }
            return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        }
    }

    /// `device` heard by n1 (t = 0, 1) then n2 (t = 10…16), into the east room and held there, from `start` seconds of
    /// data time on.
    static func walk(_ device: String, from start: Double = 0) -> [Sighting] {
        ([(0.0, "n1"), (1, "n1")] + (10...16).map { (Double($0), "n2") }).map {
            Sighting(time: start + $0.0, device: device, node: $0.1, rssi: -59)
        }
    }

    /// Whether `topic` is one Home Assistant's MQTT discovery takes:
    /// `<prefix>/<component>/[<node_id>/]<object_id>/config`, the component a word, node and object ids of
    /// `[a-zA-Z0-9_-]+` (its `TOPIC_MATCHER`).
    static func isDiscoveryTopic(_ topic: String, prefix: String = "homeassistant") -> Bool {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard levels.count == 4 || levels.count == 5, levels.first == prefix, levels.last == "config" else {
            return false
        }
        func isID(_ level: String) -> Bool {
            !level.isEmpty
                && level.unicodeScalars.allSatisfy {
                    ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
                }
        }
        return isID(levels[1]) && !levels[1].contains("-") && levels.dropFirst(2).dropLast().allSatisfy(isID)
    }

    @Test func theDiscoveryTopicRuleIsHomeAssistants() {
        #expect(Self.isDiscoveryTopic("homeassistant/device_tracker/indoor_tiny__anna_2Ewatch/config"))
        #expect(Self.isDiscoveryTopic("homeassistant/sensor/node-1/room/config"))
        #expect(!Self.isDiscoveryTopic("homeassistant/device_tracker/indoor_tiny_anna.watch/config"))
        #expect(!Self.isDiscoveryTopic("homeassistant/device_tracker/a/b/c/config"))
        #expect(!Self.isDiscoveryTopic("homeassistant/device_tracker//config"))
    }

    /// Object ids are distinct for any two (venue, device) pairs, those that only an escape tells apart included, and
    /// the first `__` after `indoor_` splits one back into its ids.
    @Test func objectIDsAreDistinctAndReversible() throws {
        let pairs = [
            ("tiny", "tab:1"), ("tiny", "tab_1"), ("tiny", "tab-1"), ("x.", "2Ey"), ("x", "2E.y"), ("x", ".y"),
            ("x_", "y"), ("x", "_y"), ("a__b", "c"), ("a", "_b__c"), ("", "d"), ("café", "anna.watch"),
        ]
        let keys = pairs.map { HomeAssistantDevice(venue: $0.0, device: $0.1) }
        #expect(Set(keys.map(\.objectID)).count == pairs.count)
        #expect(Set(keys.map(\.roomObjectID)).count == pairs.count)
        for key in keys {
            #expect(Self.isDiscoveryTopic(key.trackerConfigTopic(prefix: "homeassistant")), "\(key)")
            #expect(Self.isDiscoveryTopic(key.roomConfigTopic(prefix: "homeassistant")), "\(key)")
            let rest = key.objectID.dropFirst("indoor_".count)
            let split = try #require(rest.range(of: "__"))
            #expect(TopicLevel.unescape(String(rest[..<split.lowerBound])) == key.venue)
            #expect(TopicLevel.unescape(String(rest[split.upperBound...])) == key.device)
            // The config an earlier release made is never today's config of another device.
            if let legacy = key.legacyConfigTopic(prefix: "homeassistant") {
                #expect(!keys.contains { $0.trackerConfigTopic(prefix: "homeassistant") == legacy }, "\(legacy)")
            }
        }
    }

    @Test(.needsBroker) func discoveryIsValidUniqueAndDoesNotRepeatTheDevicesName() async throws {
        let broker = try Broker()
        let bridge = try await Bridge(broker)
        let devices = ["anna.watch", "tab:1", "tab_1", "phone-anna"]
        for device in devices { _ = try await bridge.hub.ingest(venue: "tiny", sightings: Self.walk(device)) }
        _ = try await bridge.hub.ingest(venue: "tiny2", sightings: Self.walk("tab:1"))
        let keys =
            devices.map { HomeAssistantDevice(venue: "tiny", device: $0) }
            + [HomeAssistantDevice(venue: "tiny2", device: "tab:1")]
        try await MQTTGatewayTests.eventually("every device's configs") {
            keys.allSatisfy {
                !bridge.peer.messages(on: $0.trackerConfigTopic(prefix: "homeassistant")).isEmpty
                    && !bridge.peer.messages(on: $0.roomConfigTopic(prefix: "homeassistant")).isEmpty
            }
        }
        let configs = bridge.peer.received.messages.withLock { messages in
            messages.filter { $0.topic.hasPrefix("homeassistant/") && !$0.payload.isEmpty }
        }
        for config in configs { #expect(Self.isDiscoveryTopic(config.topic), "\(config.topic)") }
        var uniqueIDs: Set<String> = []
        var stateTopics: Set<String> = []
        for key in keys {
            let tracker = try #require(try bridge.json(key.trackerConfigTopic(prefix: "homeassistant")))
            let room = try #require(try bridge.json(key.roomConfigTopic(prefix: "homeassistant")))
            // The tracker is its device's main entity: no name of its own (Home Assistant shows the device's).
            #expect(tracker["name"] is NSNull, "\(tracker)")
            #expect(room["name"] as? String == "Room")
            for config in [tracker, room] {
                let device = try #require(config["device"] as? [String: Any])
                #expect(device["name"] as? String == key.device)
                #expect(device["identifiers"] as? [String] == [key.objectID])
                uniqueIDs.insert(try #require(config["unique_id"] as? String))
                stateTopics.insert(try #require(config["state_topic"] as? String))
            }
            #expect(tracker["payload_home"] as? String == "home")
            #expect(tracker["payload_not_home"] as? String == "not_home")
            #expect(tracker["source_type"] as? String == "bluetooth_le")
        }
        #expect(uniqueIDs.count == 2 * keys.count, "\(uniqueIDs)")
        #expect(stateTopics.count == 2 * keys.count, "\(stateTopics)")
        let colon = HomeAssistantDevice(venue: "tiny", device: "tab:1").objectID
        let underscore = HomeAssistantDevice(venue: "tiny", device: "tab_1").objectID
        #expect(colon == "indoor_tiny__tab_3A1" && underscore == "indoor_tiny__tab_5F1")
        // The config of an earlier release (`indoor_<venue>_<device>`) is emptied, for Home Assistant to drop it.
        #expect(bridge.peer.messages(on: "homeassistant/device_tracker/indoor_tiny_phone-anna/config") == [""])
        await bridge.stop()
    }

    @Test(.needsBroker) func theTrackerIsHomeOrNotHomeAndTheRoomIsASensor() async throws {
        let broker = try Broker()
        let bridge = try await Bridge(broker)
        let anna = HomeAssistantDevice(venue: "tiny", device: "anna")
        let base = anna.base(root: "indoor")
        // Into the east room, then one heard by n1 only, in no room.
        _ = try await bridge.hub.ingest(venue: "tiny", sightings: Self.walk(anna.device))
        let west = (0..<11).map { Sighting(time: 12 + Double($0), device: "west", node: "n1", rssi: -50) }
        _ = try await bridge.hub.ingest(venue: "tiny", sightings: west)
        try await MQTTGatewayTests.eventually("anna's room") {
            bridge.peer.messages(on: "\(base)/room").last == "East room"
        }
        #expect(bridge.peer.messages(on: "\(base)/state") == ["home"])
        let westBase = HomeAssistantDevice(venue: "tiny", device: "west").base(root: "indoor")
        try await MQTTGatewayTests.eventually("west's state") {
            bridge.peer.messages(on: "\(westBase)/state") == ["home"]
        }
        // The room follows the state on the broker: waited for, not read at once.
        try await MQTTGatewayTests.eventually("west's room") {
            bridge.peer.messages(on: "\(westBase)/room").last == "none"
        }
        try await MQTTGatewayTests.eventually("anna's attributes in her room") {
            try bridge.json("\(base)/attributes")?["room"] as? String == "East room"
        }
        let attributes = try #require(try bridge.json("\(base)/attributes"))
        for key in ["x", "y", "latitude", "longitude", "gps_accuracy", "confidence"] {
            #expect(attributes[key] is Double || attributes[key] is Int, "\(key): \(attributes)")
        }
        #expect(attributes["room"] as? String == "East room")
        #expect(attributes.keys.contains("floor"))
        // Silent for long: anna is checked out as lost, and both are let go; both say not_home, with no position.
        _ = try await bridge.hub.ingest(venue: "tiny", sightings: Self.walk("bob", from: 300))
        for device in [anna.base(root: "indoor"), westBase] {
            try await MQTTGatewayTests.eventually("\(device) not_home") {
                bridge.peer.messages(on: "\(device)/state").last == "not_home"
            }
            try await MQTTGatewayTests.eventually("\(device)'s room none") {
                bridge.peer.messages(on: "\(device)/room").last == "none"
            }
            // The attributes without a position follow the room on the broker.
            try await MQTTGatewayTests.eventually("\(device)'s attributes without a position") {
                try bridge.json("\(device)/attributes")?["x"] == nil
            }
            let lost = try #require(try bridge.json("\(device)/attributes"))
            for key in ["x", "y", "latitude", "longitude", "gps_accuracy"] {
                #expect(lost[key] == nil || lost[key] is NSNull, "\(key): \(lost)")
            }
            #expect(lost["floor"] is NSNull && lost["room"] is NSNull, "\(lost)")
            #expect(lost["in_zones"] as? [String] == [], "\(lost)")
        }
        // The entities stay (Home Assistant's person sees anna away, not gone).
        #expect(!bridge.peer.messages(on: anna.trackerConfigTopic(prefix: "homeassistant")).contains(""))
        // Heard again: home, in her room.
        _ = try await bridge.hub.ingest(venue: "tiny", sightings: Self.walk(anna.device, from: 400))
        try await MQTTGatewayTests.eventually("anna home again") {
            bridge.peer.messages(on: "\(base)/state").last == "home"
                && bridge.peer.messages(on: "\(base)/room").last == "East room"
        }
        await bridge.stop()
    }

    @Test(.needsBroker) func homeAssistantOnlineGetsTheConfigsAndTheStatesAgain() async throws {
        let broker = try Broker()
        let bridge = try await Bridge(broker)
        let anna = HomeAssistantDevice(venue: "tiny", device: "anna")
        let base = anna.base(root: "indoor")
        _ = try await bridge.hub.ingest(venue: "tiny", sightings: Self.walk(anna.device))
        try await MQTTGatewayTests.eventually("anna's room") {
            bridge.peer.messages(on: "\(base)/room").last == "East room"
        }
        let topics = [
            anna.trackerConfigTopic(prefix: "homeassistant"), anna.roomConfigTopic(prefix: "homeassistant"),
            "\(base)/state", "\(base)/room", "\(base)/attributes",
        ]
        try await MQTTGatewayTests.eventually("anna's attributes") {
            !bridge.peer.messages(on: "\(base)/attributes").isEmpty
        }
        // The broker loses its retained messages (restarted without persistence): emptied here.
        for topic in topics {
            try await bridge.peer.client.publish(topic: topic, payload: [], qos: .atLeastOnce, retain: true)
        }
        try await MQTTGatewayTests.eventually("the retained messages emptied") {
            topics.allSatisfy { bridge.peer.messages(on: $0).last == "" }
        }
        // Home Assistant (re)starts and says so: every config and every state comes again.
        try await bridge.peer.publish("homeassistant/status", "online")
        try await MQTTGatewayTests.eventually("the configs and states sent again") {
            topics.allSatisfy { !(bridge.peer.messages(on: $0).last ?? "").isEmpty }
        }
        #expect(bridge.peer.messages(on: "\(base)/state").last == "home")
        #expect(bridge.peer.messages(on: "\(base)/room").last == "East room")
        // And retained: a subscriber that comes later (Home Assistant's entities, once set up) gets them.
        let late = MQTTGatewayTests.Peer(broker: broker, subscriptions: ["homeassistant/#", "indoor/#"])
        defer { Task { await late.stop() } }
        try await MQTTGatewayTests.eventually("the retained configs and states") {
            topics.allSatisfy { !(late.messages(on: $0).last ?? "").isEmpty }
        }
        await bridge.stop()
    }

    /// A still device's fixes (one a second) give few attributes: only a move of 1 m or more, 5 s apart, or a change
    /// of floor or room publishes them; `floor` is in every one.
    @Test(.needsBroker) func attributesArePublishedWhenTheyChangeMeaningfully() async throws {
        let broker = try Broker()
        let bridge = try await Bridge(broker, publish: .every)
        let anna = HomeAssistantDevice(venue: "tiny", device: "anna")
        let base = anna.base(root: "indoor")
        // Beside n2, in the east room, for 40 s.
        for second in 0..<40 {
            let t = Double(second)
            _ = try await bridge.hub.ingest(
                venue: "tiny",
                sightings: [
                    Sighting(time: t, device: anna.device, node: "n2", rssi: -50),
                    Sighting(time: t + 0.5, device: anna.device, node: "n1", rssi: -80),
                ])
        }
        // A fix a second (40 without the throttle gave 40 attributes).
        try await MQTTGatewayTests.eventually("anna's fixes") { bridge.peer.messages(on: base).count >= 35 }
        try await Task.sleep(for: .milliseconds(500))
        let fixes = bridge.peer.messages(on: base).count
        let attributes = bridge.peer.messages(on: "\(base)/attributes")
        #expect(!attributes.isEmpty)
        #expect(attributes.count * 2 <= fixes, "\(attributes.count) attributes for \(fixes) fixes")
        for text in attributes {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(json.keys.contains("floor") && json.keys.contains("room"), "\(json)")
        }
        await bridge.stop()
    }

    @Test func theAttributesThresholdIsTheDocumentedOne() {
        func attributes(x: Double, floor: Int? = 0, room: String? = "East room") -> TrackerAttributes {
            TrackerAttributes(
                fix: Fix(
                    time: 0, device: "anna", position: Point3D(x: x, y: 0, z: 0), floor: floor, accuracy: 2,
                    confidence: 0.9, method: "test"),
                venue: "tiny", room: room)
        }
        let last = attributes(x: 20)
        #expect(attributes(x: 20).worthPublishing(after: nil, seconds: 0))
        #expect(!attributes(x: 20.9).worthPublishing(after: last, seconds: 60))
        #expect(!attributes(x: 21).worthPublishing(after: last, seconds: 4))
        #expect(attributes(x: 21).worthPublishing(after: last, seconds: 5))
        #expect(attributes(x: 20, floor: 1).worthPublishing(after: last, seconds: 0))
        #expect(attributes(x: 20, room: nil).worthPublishing(after: last, seconds: 0))
        #expect(attributes(x: 20).worthPublishing(after: .lost(venue: "tiny"), seconds: 0))
    }
}
