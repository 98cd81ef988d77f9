import Foundation
import IndoorGateways
import IndoorMQTT
import IndoorModel
import IndoorServer
import IndoorServerTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `indoor serve --mqtt` against a real broker (mosquitto, or amqtt logged in: `INDOOR_TEST_BROKER`): ESPresense and Theengs messages end in the same fixes as the same
/// sightings posted over HTTP; node health; bad messages counted without stalling the subscription; Home Assistant
/// discovery, state and attributes; nothing acknowledged is lost when the server is killed; a broker that is down.
@Suite(.serialized) struct MQTTGatewayTests {
    /// A broker, and a publisher / subscriber connected to it.
    final class Peer: Sendable {
        final class Inbox: Sendable {
            let messages = Mutex<[MQTTMessage]>([])
        }

        let client: MQTTClient
        let received = Inbox()
        let task: Task<Void, any Error>

        init(broker: Broker, subscriptions: [String] = []) {
            let client = MQTTClient(
                configuration: MQTTConfiguration(
                    host: "127.0.0.1", port: broker.port, clientID: "peer-\(UUID().uuidString.prefix(8))",
                    username: broker.username, password: broker.password, cleanSession: true))
            self.client = client
            let received = received
            task = Task {
                try await client.run(subscriptions: subscriptions.map { MQTTSubscription($0) }) { batch in
                    received.messages.withLock { $0.append(contentsOf: batch) }
                }
            }
        }

        func connected() async throws {
            try await MQTTGatewayTests.eventually("the test's MQTT client to connect") {
                self.client.connectionState == .connected
            }
        }

        func publish(_ topic: String, _ text: String, qos: MQTTQoS = .atLeastOnce) async throws {
            try await client.publish(topic: topic, payload: Array(text.utf8), qos: qos)
        }

        func messages(on topic: String) -> [String] {
            received.messages.withLock {
                $0.filter { $0.topic == topic }.map { String(decoding: $0.payload, as: UTF8.self) }
            }
        }

        func stop() async {
            await client.disconnect()
            task.cancel()
        }
    }

    static func eventually(
        _ what: String, seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: () async throws -> Bool
    ) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try await !condition() {
            guard Date() < deadline else {
                Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
                throw BrokerError("timed out waiting for \(what)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    static func binary() throws -> URL {
        try #require(
            DurabilityTests.binary, "no indoor binary: build it with swift build --package-path Server --product indoor"
        )
    }

    /// `indoor serve --mqtt` on `broker`, with venue `tiny` put and the broker connected.
    static func server(
        _ broker: Broker, folder: URL, database: String = "indoor.sqlite", options: [String] = [],
        putVenue: Bool = true
    ) async throws -> DurabilityTests.Child {
        let child = try DurabilityTests.Child(
            binary: try binary(), database: folder.appendingPathComponent(database).path,
            options: ["--mqtt", broker.url, "--mqtt-client-id", "indoor-test"] + options,
            environment: broker.environment)
        if putVenue {
            let (status, _) = try await DurabilityTests.request(
                child.port, "PUT", "/v1/venues/tiny", key: "a-key-6f1c2a9e4b7d0358", body: ServerFixture.venueJSON)
            #expect(status == 201 || status == 200)
        }
        try await eventually("the server's MQTT connection") {
            let (_, health) = try await DurabilityTests.request(
                child.port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37")
            return (health["mqtt"] as? [String: Any])?["state"] as? String == "connected"
        }
        return child
    }

    static func metric(_ line: String, port: Int) async throws -> Double? {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/metrics")!)
        request.setValue("Bearer r-key-2d8a64f0c5e19b37", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        let found = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(line + " ") }
        return found.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// The latest fix of `device` in venue `tiny`, from the device list (ids with a `/` are not one path segment).
    static func fix(port: Int, device: String) async throws -> [String: Any]? {
        let (_, json) = try await DurabilityTests.request(
            port, "GET", "/v1/venues/tiny/devices?within=100000", key: "r-key-2d8a64f0c5e19b37")
        return (json["devices"] as? [[String: Any]] ?? []).first { $0["device"] as? String == device }
    }

    @Test(.needsBroker) func espresenseMessagesGiveTheFixesTheSameSightingsGiveOverHTTP() async throws {
        let broker = try Broker()
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.server(broker, folder: folder)
        defer { server.stop() }
        let peer = Peer(broker: broker)
        defer { Task { await peer.stop() } }
        try await peer.connected()

        // Three devices heard once each (a fix from one reading does not depend on how the broker batches the
        // messages): rssi as ESPresense's string and as a number, with and without rssi@1m.
        let heard: [(device: String, node: String, payload: String, http: String)] = [
            ("p1", "n1", #"{"id":"p1","rssi":"-58.00","rssi@1m":-59,"distance":1.1}"#, #""rssi": -58, "tx": -59"#),
            ("p2", "n2", #"{"id":"p2","rssi":-75,"rssi@1m":-65}"#, #""rssi": -75, "tx": -65"#),
            ("p3", "n1", #"{"rssi":-81.5}"#, #""rssi": -81.5"#),
        ]
        for item in heard { try await peer.publish("espresense/devices/\(item.device)/\(item.node)", item.payload) }
        try await peer.publish("espresense/rooms/n1/status", "online")
        try await Self.eventually("the devices' fixes") {
            for item in heard where try await Self.fix(port: server.port, device: item.device) == nil { return false }
            return true
        }

        // The same sightings over HTTP, to a server without MQTT.
        let plain = try DurabilityTests.Child(
            binary: try Self.binary(), database: folder.appendingPathComponent("http.sqlite").path)
        defer { plain.stop() }
        _ = try await DurabilityTests.request(
            plain.port, "PUT", "/v1/venues/tiny", key: "a-key-6f1c2a9e4b7d0358", body: ServerFixture.venueJSON)
        let t = Date().timeIntervalSince1970
        let items = heard.map { #"{"t": \#(t), "device": "\#($0.device)", "node": "\#($0.node)", \#($0.http)}"# }
        let (posted, _) = try await DurabilityTests.request(
            plain.port, "POST", "/v1/sightings", key: "i-key-93be0d5c71a4f826",
            body: #"{"venue": "tiny", "sightings": [\#(items.joined(separator: ","))]}"#)
        #expect(posted == 200)
        // A device's first fix is made half a second (its first-fix delay) after its first sighting, here by the
        // server's tick.
        try await Self.eventually("the devices' fixes over HTTP") {
            for item in heard where try await Self.fix(port: plain.port, device: item.device) == nil { return false }
            return true
        }
        var accuracies: Set<String> = []
        for item in heard {
            let overMQTT = try #require(try await Self.fix(port: server.port, device: item.device))
            let overHTTP = try #require(try await Self.fix(port: plain.port, device: item.device))
            for key in ["x", "y", "accuracy", "confidence", "method"] {
                #expect("\(overMQTT[key] ?? "none")" == "\(overHTTP[key] ?? "none")", "\(item.device) \(key)")
            }
            accuracies.insert("\(overMQTT["accuracy"] ?? "none")")
        }
        // The readings' strengths and powers reached the positioning: the three radii differ.
        #expect(accuracies.count == 3, "\(accuracies)")

        // Node health: n1 and n2 heard; n1's gateway said online.
        let (_, nodes) = try await DurabilityTests.request(
            server.port, "GET", "/v1/venues/tiny/nodes", key: "r-key-2d8a64f0c5e19b37")
        let health = (nodes["nodes"] as? [[String: Any]] ?? []).reduce(into: [String: [String: Any]]()) {
            $0[$1["id"] as? String ?? ""] = $1
        }
        #expect(health["n1"]?["status"] as? String == "online")
        #expect(health["n1"]?["reported"] as? String == "online")
        #expect(health["n2"]?["status"] as? String == "online")
        #expect((health["n1"]?["sightingsPerMinute"] as? Double ?? 0) > 0)
        try await peer.publish("espresense/rooms/n2/status", "offline")
        try await Self.eventually("n2 offline") {
            let (_, nodes) = try await DurabilityTests.request(
                server.port, "GET", "/v1/venues/tiny/nodes", key: "r-key-2d8a64f0c5e19b37")
            let n2 = (nodes["nodes"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "n2" }
            return n2?["status"] as? String == "offline"
        }
    }

    @Test(.needsBroker) func theengsBeaconsAreNamedAsIndoorDecodeNamesThemAndBadMessagesAreCounted() async throws {
        let broker = try Broker()
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Raw ids, to compare the names (pseudonymous by default: PseudonymMQTTTests).
        let server = try await Self.server(broker, folder: folder, options: ["--raw-device-ids"])
        defer { server.stop() }
        let peer = Peer(broker: broker)
        defer { Task { await peer.stop() } }
        try await peer.connected()

        // Every kind of bad message first; the good one after them must still arrive.
        let bad: [(String, String, String)] = [
            ("espresense/devices/a/n1", "not json", "notJSON"),
            ("espresense/devices/a/n1", #"{"rssi": true}"#, "wrongType"),
            ("espresense/devices/a/nowhere", #"{"rssi": -60}"#, "unknownNode"),
            (
                "home/n1/BTtoMQTT/AABBCCDDEEFF", #"{"id":"AA:BB:CC:DD:EE:FF","rssi":-60,"manufacturerdata":"4c0"}"#,
                "badHex"
            ),
            ("espresense/devices/a/n1", "{\"rssi\": \"" + String(repeating: "9", count: 1_000_000) + "\"}", "tooLarge"),
        ]
        for (topic, payload, _) in bad { try await peer.publish(topic, payload) }
        // An iBeacon heard by gateway n2, as Theengs Gateway publishes it with raw advertising data.
        let ibeacon =
            #"{"id":"C0:11:22:33:44:55","mac_type":0,"rssi":-61,"manufacturerdata":"4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5"}"#
        try await peer.publish("home/n2/BTtoMQTT/C01122334455", ibeacon)
        let device = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/2"
        try await Self.eventually("the beacon's fix") { try await Self.fix(port: server.port, device: device) != nil }
        for (_, _, reason) in bad {
            #expect(
                try await Self.metric(#"indoor_mqtt_refused_total{reason="\#(reason)"}"#, port: server.port) == 1,
                "\(reason)")
        }
        #expect(try await Self.metric(#"indoor_mqtt_messages_total{result="taken"}"#, port: server.port) == 1)

        // The same sighting over HTTP (the frame's measured power, −59 dBm at 1 m, as tx) gives the same fix.
        let overMQTT = try #require(try await Self.fix(port: server.port, device: device))
        let plain = try DurabilityTests.Child(
            binary: try Self.binary(), database: folder.appendingPathComponent("http.sqlite").path,
            options: ["--raw-device-ids"])
        defer { plain.stop() }
        _ = try await DurabilityTests.request(
            plain.port, "PUT", "/v1/venues/tiny", key: "a-key-6f1c2a9e4b7d0358", body: ServerFixture.venueJSON)
        let sighting =
            #"{"t": \#(Date().timeIntervalSince1970), "device": "\#(device)", "node": "n2", "rssi": -61, "tx": -59}"#
        let (posted, _) = try await DurabilityTests.request(
            plain.port, "POST", "/v1/sightings", key: "i-key-93be0d5c71a4f826",
            body: #"{"venue": "tiny", "sightings": [\#(sighting)]}"#)
        #expect(posted == 200)
        try await Self.eventually("the beacon's fix over HTTP") {
            try await Self.fix(port: plain.port, device: device) != nil
        }
        let overHTTP = try #require(try await Self.fix(port: plain.port, device: device))
        for key in ["x", "y", "accuracy", "confidence", "method"] {
            #expect("\(overMQTT[key] ?? "none")" == "\(overHTTP[key] ?? "none")", "\(key)")
        }
    }

    @Test(.needsBroker) func homeAssistantGetsADeviceTrackerWithStateAndAttributes() async throws {
        let broker = try Broker()
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.server(
            broker, folder: folder, options: ["--publish", "--home-assistant", "--home-assistant-device", "phone*"])
        defer { server.stop() }
        let peer = Peer(broker: broker, subscriptions: ["homeassistant/#", "indoor/#"])
        defer { Task { await peer.stop() } }
        try await peer.connected()
        // In the east room (around n2), then a device the pattern leaves out.
        for second in 0..<4 {
            try await peer.publish("espresense/devices/phone-1/n2", #"{"rssi":-50}"#)
            try await peer.publish("espresense/devices/phone-1/n1", #"{"rssi":-80}"#)
            try await peer.publish("espresense/devices/tag-7/n1", #"{"rssi":-60}"#)
            if second < 3 { try await Task.sleep(for: .seconds(1)) }
        }
        let config = "homeassistant/device_tracker/indoor_tiny__phone-1/config"
        try await Self.eventually("the discovery config") { !peer.messages(on: config).isEmpty }
        let discovery = try #require(
            try JSONSerialization.jsonObject(with: Data((peer.messages(on: config).first ?? "").utf8))
                as? [String: Any])
        #expect(discovery["unique_id"] as? String == "indoor_tiny__phone-1")
        #expect(discovery["state_topic"] as? String == "indoor/tiny/devices/phone-1/state")
        #expect(discovery["json_attributes_topic"] as? String == "indoor/tiny/devices/phone-1/attributes")
        #expect(discovery["source_type"] as? String == "bluetooth_le")
        #expect((discovery["device"] as? [String: Any])?["identifiers"] as? [String] == ["indoor_tiny__phone-1"])
        try await Self.eventually("the room 'East room'") {
            peer.messages(on: "indoor/tiny/devices/phone-1/room").contains("East room")
        }
        #expect(peer.messages(on: "indoor/tiny/devices/phone-1/state") == ["home"])
        let attributes = try #require(
            try JSONSerialization.jsonObject(
                with: Data((peer.messages(on: "indoor/tiny/devices/phone-1/attributes").last ?? "").utf8))
                as? [String: Any])
        for key in ["x", "y", "latitude", "longitude", "gps_accuracy", "confidence"] {
            #expect(attributes[key] is Double || attributes[key] is Int, "\(key)")
        }
        #expect(!peer.messages(on: "indoor/tiny/devices/phone-1").isEmpty)
        // The pattern leaves tag-7 out of Home Assistant; its fixes are still published.
        #expect(peer.messages(on: "homeassistant/device_tracker/indoor_tiny__tag-7/config").isEmpty)
        #expect(!peer.messages(on: "indoor/tiny/devices/tag-7").isEmpty)
        // Home Assistant restarting: the config is sent again.
        let before = peer.messages(on: config).count
        try await peer.publish("homeassistant/status", "online")
        try await peer.publish("espresense/devices/phone-1/n2", #"{"rssi":-50}"#)
        try await Self.eventually("the config sent again") { peer.messages(on: config).count > before }
    }

    /// Publishing is asked for: without `--publish` the broker is only read from (the fixes are made and stored, nothing
    /// is published); with `--publish --publish-device PATTERN` only the matching devices' fixes and events are.
    @Test(.needsBroker) func nothingIsPublishedUnlessAskedForAndThenOnlyTheListedDevices() async throws {
        let broker = try Broker()
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let peer = Peer(broker: broker, subscriptions: ["indoor/#", "homeassistant/#"])
        defer { Task { await peer.stop() } }
        try await peer.connected()
        // Into the east room (around n2), where each device checks in.
        func walk(_ devices: [String]) async throws {
            for second in 0..<4 {
                for device in devices {
                    try await peer.publish("espresense/devices/\(device)/n2", #"{"rssi":-50}"#)
                    try await peer.publish("espresense/devices/\(device)/n1", #"{"rssi":-80}"#)
                }
                if second < 3 { try await Task.sleep(for: .seconds(1)) }
            }
        }

        let quiet = try await Self.server(broker, folder: folder)
        defer { quiet.stop() }
        try await walk(["phone-1", "tag-7"])
        try await Self.eventually("both devices' fixes") {
            let phone = try await Self.fix(port: quiet.port, device: "phone-1")
            let tag = try await Self.fix(port: quiet.port, device: "tag-7")
            return phone != nil && tag != nil
        }
        try await Task.sleep(for: .seconds(1))
        quiet.stop()
        #expect(peer.received.messages.withLock { $0.map(\.topic) } == [])

        let server = try await Self.server(
            broker, folder: folder, options: ["--publish", "--publish-device", "phone-*"], putVenue: false)
        defer { server.stop() }
        // New devices (those of the first walk are still checked in: the restart resumed their visits).
        try await walk(["phone-2", "tag-8"])
        try await Self.eventually("phone-2's fix and a zone event") {
            !peer.messages(on: "indoor/tiny/devices/phone-2").isEmpty
                && !peer.messages(on: "indoor/tiny/events").isEmpty
        }
        try await Task.sleep(for: .seconds(1))
        let topics = Set(peer.received.messages.withLock { $0.map(\.topic) })
        // And the zones' occupancy (counts, no device): every zone's state at the start, then east's changes.
        #expect(
            topics == [
                "indoor/tiny/devices/phone-2", "indoor/tiny/events", "indoor/tiny/zones/east", "indoor/tiny/zones/gate",
            ], "\(topics)")
        for event in peer.messages(on: "indoor/tiny/events") {
            #expect(event.contains("phone-2") && !event.contains("tag-8"), "\(event)")
        }
    }

    /// Device ids with `.`, `/`, `+`, `#`, `_`, a space and non-ASCII characters, through a broker and back: each is
    /// one topic level by the documented rule, Home Assistant's object id and state topic use the same, and the
    /// level reads back as the id.
    @Test(.needsBroker) func idsWithAnyCharacterAreOneTopicLevelByOneRule() async throws {
        let broker = try Broker()
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.server(
            broker, folder: folder, options: ["--publish", "--home-assistant", "--home-assistant-device", "*"])
        defer { server.stop() }
        let peer = Peer(broker: broker, subscriptions: ["indoor/#", "homeassistant/#"])
        defer { Task { await peer.stop() } }
        try await peer.connected()
        let ids = ["anna.phone", "beacon/1/7", "c+d", "e#f", "tag_7", "café b"]
        for round in 0..<3 {
            let t = Date().timeIntervalSince1970
            let items = ids.flatMap { id in
                [
                    #"{"t": \#(t), "device": "\#(id)", "node": "n2", "rssi": -50}"#,
                    #"{"t": \#(t), "device": "\#(id)", "node": "n1", "rssi": -80}"#,
                ]
            }
            let (posted, _) = try await DurabilityTests.request(
                server.port, "POST", "/v1/sightings", key: "i-key-93be0d5c71a4f826",
                body: #"{"venue": "tiny", "sightings": [\#(items.joined(separator: ","))]}"#)
            #expect(posted == 200)
            if round < 2 { try await Task.sleep(for: .seconds(1)) }
        }
        for id in ids {
            let level = TopicLevel.escape(id)
            try await Self.eventually("the state of \(id)") {
                !peer.messages(on: "indoor/tiny/devices/\(level)/state").isEmpty
            }
            let config = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(
                        (peer.messages(on: "homeassistant/device_tracker/indoor_tiny__\(level)/config").first ?? "")
                            .utf8)) as? [String: Any], "\(id)")
            #expect(config["state_topic"] as? String == "indoor/tiny/devices/\(level)/state")
            #expect(config["unique_id"] as? String == "indoor_tiny__\(level)")
            // The entity takes its device's name alone (`name` null), the device's name being the id.
            #expect(config["name"] is NSNull)
            #expect((config["device"] as? [String: Any])?["name"] as? String == id)
        }
        #expect(!peer.messages(on: "indoor/tiny/devices/anna_2Ephone").isEmpty)
        // Every level under devices/ reads back as one of the ids.
        let levels = Set(
            peer.received.messages.withLock { $0.map(\.topic) }.compactMap { topic -> String? in
                let parts = topic.split(separator: "/")
                return parts.count >= 4 && parts[2] == "devices" ? String(parts[3]) : nil
            })
        #expect(Set(levels.compactMap(TopicLevel.unescape)) == Set(ids))
    }

    /// A device id a broker split into levels (RabbitMQ delivers `tag.1` as `tag/1`) is refused and counted as
    /// `splitTopic`, not dropped unsaid; a GATT report (a level after the node) is still ignored.
    @Test(.needsBroker) func aDeviceIdABrokerSplitIsRefusedAndCounted() async throws {
        let broker = try Broker()
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.server(broker, folder: folder)
        defer { server.stop() }
        let peer = Peer(broker: broker)
        defer { Task { await peer.stop() } }
        try await peer.connected()
        try await peer.publish("espresense/devices/tag/1/n1", #"{"rssi":-60}"#)
        try await peer.publish("espresense/devices/phone/n1/cmd", #"{"rssi":-60}"#)
        try await peer.publish("espresense/devices/phone/n1", #"{"rssi":-60}"#)
        try await Self.eventually("the sighting taken") {
            try await Self.metric(#"indoor_mqtt_messages_total{result="taken"}"#, port: server.port) == 1
        }
        #expect(try await Self.metric(#"indoor_mqtt_refused_total{reason="splitTopic"}"#, port: server.port) == 1)
        #expect(try await Self.metric(#"indoor_mqtt_messages_total{result="ignored"}"#, port: server.port) == 1)
    }

    /// A device heard once: its fix comes from the venue's clock tick (after the first-fix delay), and carries its
    /// held room all the same, so Home Assistant gets its state.
    @Test(.needsBroker) func homeAssistantsStateFollowsAFixTheTickMade() async throws {
        let broker = try Broker()
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.server(
            broker, folder: folder, options: ["--publish", "--home-assistant", "--home-assistant-device", "*"])
        defer { server.stop() }
        let peer = Peer(broker: broker, subscriptions: ["indoor/#"])
        defer { Task { await peer.stop() } }
        try await peer.connected()
        try await peer.publish("espresense/devices/quiet-1/n2", #"{"rssi":-50}"#)
        try await peer.publish("espresense/devices/quiet-1/n1", #"{"rssi":-80}"#)
        try await Self.eventually("the tick's fix") { !peer.messages(on: "indoor/tiny/devices/quiet-1").isEmpty }
        let fix = try #require(
            try JSONSerialization.jsonObject(
                with: Data((peer.messages(on: "indoor/tiny/devices/quiet-1").last ?? "").utf8)) as? [String: Any])
        // The tick's fix carries the held room (the device's only fixes are the tick's: without it, no state).
        #expect(fix["room"] is [String: Any], "\(fix)")
        try await Self.eventually("a state") { !peer.messages(on: "indoor/tiny/devices/quiet-1/state").isEmpty }
    }

    /// `--mqtt-version 5` against a broker with a small Maximum Packet Size: what does not fit (Home Assistant's
    /// discovery config) is not sent but counted, the rest flows, the connection stays, and `/health` says it all.
    @Test(.needsMosquitto("MQTT 5 and mosquitto's max_packet_size: amqtt speaks MQTT 3.1.1 only"))
    func withMQTT5TheBrokersMaximumPacketSizeIsKeptAndHealthSaysSo() async throws {
        let broker = try Broker(kind: .mosquitto, extraConfig: ["max_packet_size 256"])
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.server(
            broker, folder: folder,
            options: ["--mqtt-version", "5", "--home-assistant", "--home-assistant-device", "*"])
        defer { server.stop() }
        let peer = Peer(broker: broker, subscriptions: ["indoor/#", "homeassistant/#"])
        defer { Task { await peer.stop() } }
        try await peer.connected()
        for _ in 0..<3 {
            try await peer.publish("espresense/devices/phone-1/n2", #"{"rssi":-50}"#)
            try await peer.publish("espresense/devices/phone-1/n1", #"{"rssi":-80}"#)
            try await Task.sleep(for: .seconds(1))
        }
        try await Self.eventually("the room 'East room'") {
            peer.messages(on: "indoor/tiny/devices/phone-1/room").contains("East room")
        }
        try await Self.eventually("the refused discovery config counted") {
            try await Self.metric(#"indoor_mqtt_publish_refused_total{reason="brokerLimit"}"#, port: server.port)
                ?? 0 > 0
        }
        #expect(peer.messages(on: "homeassistant/device_tracker/indoor_tiny__phone-1/config").isEmpty)
        let (_, health) = try await DurabilityTests.request(
            server.port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37")
        let mqtt = try #require(health["mqtt"] as? [String: Any])
        #expect(mqtt["state"] as? String == "connected")
        #expect(mqtt["protocol"] as? String == "5")
        #expect(mqtt["fallBack"] == nil)
        #expect((mqtt["connAck"] as? [String: Any])?["code"] as? Int == 0)
        #expect(mqtt["brokerDisconnect"] == nil)
        #expect((mqtt["brokerLimits"] as? [String: Any])?["maximumPacketSizeBytes"] as? Int == 256)
        #expect(mqtt["publishesRefused"] as? Int ?? 0 > 0)
        #expect(mqtt["lastError"] == nil, "\(mqtt)")
    }

    /// `--mqtt-version 5` against a broker that refuses MQTT 5: the server speaks 3.1.1, and `/health` says why.
    @Test(.needsBroker) func aBrokerRefusingMQTT5IsSpokenToInMQTT311() async throws {
        let broker = try Broker()
        let proxy = try BrokerProxy(to: broker.port, mode: .refuseMQTT5(answer: false))
        defer { proxy.stop() }
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try DurabilityTests.Child(
            binary: try Self.binary(), database: folder.appendingPathComponent("indoor.sqlite").path,
            options: [
                "--mqtt", broker.url(port: proxy.port), "--mqtt-client-id", "indoor-test", "--mqtt-version", "5",
            ], environment: broker.environment)
        defer { server.stop() }
        try await Self.eventually("the server's MQTT connection") {
            let (_, health) = try await DurabilityTests.request(
                server.port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37")
            return (health["mqtt"] as? [String: Any])?["state"] as? String == "connected"
        }
        let (_, health) = try await DurabilityTests.request(
            server.port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37")
        let mqtt = try #require(health["mqtt"] as? [String: Any])
        #expect(mqtt["protocol"] as? String == "3.1.1")
        #expect((mqtt["fallBack"] as? String)?.contains("refused MQTT 5") == true, "\(mqtt)")
        #expect(mqtt["brokerLimits"] == nil)
        #expect(proxy.connections.mqtt5 == 1)
    }

    @Test(.needsBroker) func nothingAcknowledgedIsLostWhenTheServerIsKilled() async throws {
        let broker = try Broker()
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var server = try await Self.server(broker, folder: folder)
        let peer = Peer(broker: broker)
        defer { Task { await peer.stop() } }
        try await peer.connected()
        let count = 600
        // Each message a device of its own, so each is one stored fix; the server is killed half-way.
        for index in 0..<count {
            try await peer.publish("espresense/devices/d\(index)/n\(index % 2 + 1)", #"{"rssi":-6\#(index % 10)}"#)
            if index == count / 2 { server.kill() }
        }
        server = try await Self.server(broker, folder: folder, putVenue: false)
        // amqtt 0.12 drops a QoS 1 message it sent once the connection closes before its PUBACK (MQTT-4.4.0-1 not
        // kept: its handler discards the session's in-flight messages), so there those the server had been sent but
        // not acknowledged at the kill are lost; every one sent while the server was away still comes. mosquitto
        // loses none.
        let expected = Set((broker.kind == .amqtt ? count / 2 + 1..<count : 0..<count).map { "d\($0)" })
        try await Self.eventually("every device's fix", seconds: 120) {
            let (_, json) = try await DurabilityTests.request(
                server.port, "GET", "/v1/venues/tiny/devices?within=100000", key: "r-key-2d8a64f0c5e19b37")
            let devices = (json["devices"] as? [[String: Any]] ?? []).compactMap { $0["device"] as? String }
            return expected.isSubset(of: devices)
        }
        server.stop()
        let store = try SQLiteStore(path: folder.appendingPathComponent("indoor.sqlite").path)
        let devices = Set(try await store.devices(venue: "tiny", since: 0).map(\.device))
        #expect(expected.isSubset(of: devices))
        #expect(devices.isSubset(of: Set((0..<count).map { "d\($0)" })))
        if broker.kind == .mosquitto { #expect(try await store.sightingCount(venue: "tiny") >= count) }
    }

    @Test(.needsBroker) func afterABrokerRestartTheServerTakesMessagesAgain() async throws {
        let broker = try Broker()
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.server(broker, folder: folder)
        defer { server.stop() }
        broker.stop()
        try await Self.eventually("the server to see the broker gone") {
            let (_, health) = try await DurabilityTests.request(
                server.port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37")
            return (health["mqtt"] as? [String: Any])?["state"] as? String != "connected"
        }
        try broker.start()
        try await Self.eventually("the server to connect again") {
            let (_, health) = try await DurabilityTests.request(
                server.port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37")
            return (health["mqtt"] as? [String: Any])?["state"] as? String == "connected"
        }
        let peer = Peer(broker: broker)
        defer { Task { await peer.stop() } }
        try await peer.connected()
        try await peer.publish("espresense/devices/after/n1", #"{"rssi":-60}"#)
        try await Self.eventually("a fix after the restart") {
            try await Self.fix(port: server.port, device: "after") != nil
        }
    }

    @Test(.needsBroker) func aBrokerThatIsDownLeavesHTTPServingAndIsConnectedToOnceUp() async throws {
        let port = try Broker.freePort()
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let address = Broker.address(port: port)
        let server = try DurabilityTests.Child(
            binary: try Self.binary(), database: folder.appendingPathComponent("indoor.sqlite").path,
            options: ["--mqtt", address.url], environment: address.environment)
        defer { server.stop() }
        let (status, health) = try await DurabilityTests.request(
            server.port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37")
        #expect(status == 200)
        #expect((health["mqtt"] as? [String: Any])?["state"] as? String != "connected")
        let (created, _) = try await DurabilityTests.request(
            server.port, "PUT", "/v1/venues/tiny", key: "a-key-6f1c2a9e4b7d0358", body: ServerFixture.venueJSON)
        #expect(created == 201)
        let broker = try Broker(port: port)
        try await Self.eventually("the connection once the broker is up") {
            let (_, health) = try await DurabilityTests.request(
                server.port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37")
            return (health["mqtt"] as? [String: Any])?["state"] as? String == "connected"
        }
        withExtendedLifetime(broker) {}
    }
}
