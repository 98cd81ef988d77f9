import Foundation
import IndoorMQTT
import IndoorModel
import IndoorServerTestSupport
import Logging
import Synchronization
import Testing

@testable import IndoorServer

/// Retained topics do not outlive what the server keeps (issue 50 item 5), on a real broker (mosquitto, or amqtt: `INDOOR_TEST_BROKER`): a device the session
/// lets go (lost) has its retained fix emptied and its Home Assistant tracker lost (`not_home`, no position), a device
/// whose latest fix expires has its retained fix, state, room, attributes and Home Assistant discovery emptied; under
/// MQTT 5 every retained message carries a Message Expiry Interval.
@Suite(.serialized) struct RetainedTopicsMQTTTests {
    static let anna = ErasureMQTTTests.anna
    static let bob = ErasureMQTTTests.bob

    /// `device` heard by n1 then n2, from `start` seconds of data time on.
    static func walk(_ device: String, from start: Double) -> [Sighting] {
        ErasureMQTTTests.walk(device).map { sighting in
            var moved = sighting
            moved.time += start
            return moved
        }
    }

    /// A hub with venues `tiny` and `tiny2` and a publisher of every device (fixes, events and Home Assistant) on `broker`,
    /// speaking `version`; the wall clock is `clock`'s (the real one without).
    final class Publishing: Sendable {
        let hub: VenueHub
        let client: MQTTClient
        let configuration: MQTTBridgeConfiguration
        let database: TestDatabase
        let tasks: Mutex<[Task<Void, Never>]>

        init(
            _ broker: Broker, version: MQTTProtocolVersion = .v3_1_1, expiry: Double? = nil,
            clock: TestClock? = nil
        ) async throws {
            let database = try TestDatabase(.sqlite)
            let wallClock: @Sendable () -> Double = { clock?.now ?? Date().timeIntervalSince1970 }
            let hub = try await VenueHub(
                store: try await database.open(), metrics: ServerMetrics(), wallClock: wallClock)
            _ = try await hub.putVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8))
            let second = ServerFixture.venueJSON.replacingOccurrences(of: #""id": "tiny""#, with: #""id": "tiny2""#)
            _ = try await hub.putVenue(id: "tiny2", json: Data(second.utf8))
            let client = MQTTClient(
                configuration: MQTTConfiguration(
                    host: "127.0.0.1", port: broker.port, clientID: "indoor-publisher", username: broker.username,
                    password: broker.password, cleanSession: true, protocolVersion: version))
            let configuration = MQTTBridgeConfiguration(
                publish: .every, homeAssistant: .init(devices: .every), retainedExpirySeconds: expiry)
            let publisher = MQTTPublisher(
                client: client, configuration: configuration, metrics: ServerMetrics(), logger: Logger(label: "test"))
            let feed = hub.observeAll()
            self.database = database
            self.hub = hub
            self.client = client
            self.configuration = configuration
            tasks = Mutex([
                Task { try? await client.run(subscriptions: []) { _ in } },
                Task { await publisher.run(feed) },
            ])
            try await MQTTGatewayTests.eventually("the publisher's connection") { client.connectionState == .connected }
        }

        func stop() {
            for task in tasks.withLock({ $0 }) { task.cancel() }
            database.remove()
        }

        func topics(of device: String, venue: String = "tiny") -> [String] {
            MQTTPublisher.retainedTopics(of: device, venue: venue, configuration: configuration)
        }
    }

    /// The retained messages a new subscriber to everything is sent, by topic, once `device`'s retained fix in
    /// `venue` is among them.
    static func retained(
        _ broker: Broker, version: MQTTProtocolVersion = .v3_1_1, having device: String, venue: String = "tiny"
    ) async throws -> [String: MQTTMessage] {
        let client = MQTTClient(
            configuration: MQTTConfiguration(
                host: "127.0.0.1", port: broker.port, clientID: "peer-\(UUID().uuidString.prefix(8))",
                username: broker.username, password: broker.password, cleanSession: true, protocolVersion: version))
        let received = Mutex<[String: MQTTMessage]>([:])
        let task = Task {
            try await client.run(subscriptions: [MQTTSubscription("#")]) { batch in
                received.withLock { messages in
                    for message in batch where !message.payload.isEmpty { messages[message.topic] = message }
                }
            }
        }
        defer {
            task.cancel()
            Task { await client.disconnect() }
        }
        try await MQTTGatewayTests.eventually("\(device)'s retained fix") {
            received.withLock { $0["indoor/\(venue)/devices/\(device)"] != nil }
        }
        try await Task.sleep(for: .milliseconds(300))
        return received.withLock { $0 }
    }

    /// A device the session lets go has its retained fix emptied; given to Home Assistant, its tracker says
    /// `not_home`, its room `none` and its attributes carry no position (the entities stay, for Home Assistant's
    /// `person` to see it away rather than gone).
    @Test(.needsBroker) func aDeviceTheSessionLetsGoHasItsFixEmptiedAndItsTrackerLost() async throws {
        let broker = try Broker()
        let publishing = try await Publishing(broker)
        defer { publishing.stop() }
        let live = MQTTGatewayTests.Peer(broker: broker, subscriptions: ["indoor/#"])
        defer { Task { await live.stop() } }
        try await live.connected()
        _ = try await publishing.hub.ingest(venue: "tiny", sightings: Self.walk(Self.anna, from: 0))
        try await MQTTGatewayTests.eventually("anna's retained topics") {
            let topics = try await Self.retained(broker, having: Self.anna).keys
            return publishing.topics(of: Self.anna).allSatisfy(topics.contains)
        }
        // Bob heard 1000 s later: anna, silent beyond the session's device memory, is let go.
        _ = try await publishing.hub.ingest(venue: "tiny", sightings: Self.walk(Self.bob, from: 1000))
        let fix = "indoor/tiny/devices/\(Self.anna)"
        var retained: [String: MQTTMessage] = [:]
        try await MQTTGatewayTests.eventually("anna's fix emptied") {
            retained = try await Self.retained(broker, having: Self.bob)
            return retained[fix] == nil && publishing.topics(of: Self.bob).allSatisfy(retained.keys.contains)
        }
        func text(_ topic: String) -> String? {
            retained[topic].map { String(decoding: $0.payload, as: UTF8.self) }
        }
        #expect(text("\(fix)/state") == "not_home")
        #expect(text("\(fix)/room") == "none")
        let attributes = try #require(text("\(fix)/attributes"))
        #expect(!attributes.contains("latitude") && !attributes.contains("\"x\""), "\(attributes)")
        for topic in publishing.topics(of: Self.anna) where topic.hasPrefix("homeassistant/") {
            #expect(retained[topic] != nil, "\(topic)")
        }
        // Live subscribers saw her go.
        #expect(live.messages(on: "\(fix)/state") == ["home", "not_home"])
        #expect(live.messages(on: fix).last == "")
    }

    @Test(.needsBroker) func aDeviceWhoseDataExpiresHasItsRetainedTopicsEmptied() async throws {
        let broker = try Broker()
        let clock = TestClock(1000)
        let publishing = try await Publishing(broker, clock: clock)
        defer { publishing.stop() }
        _ = try await publishing.hub.ingest(venue: "tiny", sightings: Self.walk(Self.anna, from: 0))
        // Bob in the other venue, later by the wall clock (anna's venue hears nothing more: she is not let go).
        clock.advance(by: 4000)
        _ = try await publishing.hub.ingest(venue: "tiny2", sightings: Self.walk(Self.bob, from: 0))
        let bobs = publishing.topics(of: Self.bob, venue: "tiny2")
        try await MQTTGatewayTests.eventually("both devices' retained topics") {
            let topics = try await Self.retained(broker, having: Self.bob, venue: "tiny2").keys
            return (publishing.topics(of: Self.anna) + bobs).allSatisfy(topics.contains)
        }
        // Events stored before 3000 expire: all of tiny's, and with them anna's latest fix.
        let pruned = try await publishing.hub.prune(
            Retention(sightings: .infinity, events: 2000, visits: .infinity, audit: .infinity, openVisits: .infinity))
        #expect(pruned.expiredDevices == [ExpiredDevice(venue: "tiny", device: Self.anna)])
        try await MQTTGatewayTests.eventually("anna's retained topics emptied") {
            let topics = try await Self.retained(broker, having: Self.bob, venue: "tiny2").keys
            return !topics.contains { $0.contains(Self.anna) } && bobs.allSatisfy(topics.contains)
        }
    }

    @Test(.needsMosquitto("MQTT 5's message expiry: amqtt speaks MQTT 3.1.1 only"))
    func underMQTT5RetainedMessagesCarryTheirExpiry() async throws {
        let broker = try Broker(kind: .mosquitto)
        let publishing = try await Publishing(broker, version: .v5, expiry: 2 * 86400)
        defer { publishing.stop() }
        _ = try await publishing.hub.ingest(venue: "tiny", sightings: Self.walk(Self.anna, from: 0))
        var retained: [String: MQTTMessage] = [:]
        try await MQTTGatewayTests.eventually("anna's retained topics") {
            retained = try await Self.retained(broker, version: .v5, having: Self.anna)
            return publishing.topics(of: Self.anna).allSatisfy(retained.keys.contains)
        }
        for topic in publishing.topics(of: Self.anna) {
            let left = try #require(retained[topic]?.messageExpirySeconds, "\(topic) has no expiry")
            #expect((2 * 86400 - 60...2 * 86400).contains(left), "\(topic): \(left) s left")
        }
        // Under MQTT 3.1.1 the same messages carry none (the property does not exist there).
        let old = try await Self.retained(broker, having: Self.anna)
        #expect(old.values.allSatisfy { $0.messageExpirySeconds == nil })
    }
}
