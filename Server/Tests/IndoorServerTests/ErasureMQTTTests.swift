import Foundation
import IndoorMQTT
import IndoorModel
import IndoorServerTestSupport
import Logging
import Testing

@testable import IndoorServer

/// An erasure clears what the MQTT publisher published of the device on a real broker (mosquitto, or amqtt:
/// `INDOOR_TEST_BROKER`): its retained fix, tracker state and attributes, and its Home Assistant discovery; another
/// device's stay.
@Suite(.serialized) struct ErasureMQTTTests {
    static let anna = "phone-anna-7f3e"
    static let bob = "phone-bob-51c2"

    static func walk(_ device: String) -> [Sighting] {
        [(0.0, "n1"), (1, "n1"), (10, "n2"), (11, "n2")].map {
            Sighting(time: $0.0, device: device, node: $0.1, rssi: -59)
        }
    }

    /// The retained topics a new subscriber to everything is sent, once it has `bob`'s fix (sent after connecting).
    static func retained(_ broker: Broker) async throws -> [String] {
        let peer = MQTTGatewayTests.Peer(broker: broker, subscriptions: ["#"])
        defer { Task { await peer.stop() } }
        try await peer.connected()
        try await MQTTGatewayTests.eventually("bob's retained fix") {
            !peer.messages(on: "indoor/tiny/devices/\(bob)").isEmpty
        }
        try await Task.sleep(for: .milliseconds(300))
        return peer.received.messages.withLock { $0.filter { !$0.payload.isEmpty }.map(\.topic) }
    }

    @Test(.needsBroker) func anErasureEmptiesTheDevicesRetainedTopicsAndDiscovery() async throws {
        let broker = try Broker()
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        let hub = try await VenueHub(store: try await database.open(), metrics: ServerMetrics())
        _ = try await hub.putVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8))
        let client = MQTTClient(
            configuration: MQTTConfiguration(
                host: "127.0.0.1", port: broker.port, clientID: "indoor-publisher", username: broker.username,
                password: broker.password, cleanSession: true))
        let connection = Task { try await client.run(subscriptions: []) { _ in } }
        defer { connection.cancel() }
        let configuration = MQTTBridgeConfiguration(publish: .every, homeAssistant: .init(devices: .every))
        let publisher = MQTTPublisher(
            client: client, configuration: configuration, metrics: ServerMetrics(), logger: Logger(label: "test"))
        let feed = hub.observeAll()
        let publishing = Task { await publisher.run(feed) }
        defer { publishing.cancel() }
        try await MQTTGatewayTests.eventually("the publisher's connection") { client.connectionState == .connected }

        _ = try await hub.ingest(venue: "tiny", sightings: Self.walk(Self.anna))
        _ = try await hub.ingest(venue: "tiny", sightings: Self.walk(Self.bob))
        let annas = MQTTPublisher.retainedTopics(of: Self.anna, venue: "tiny", configuration: configuration)
        #expect(annas.contains("homeassistant/device_tracker/indoor_tiny__\(Self.anna)/config"))
        #expect(annas.contains("homeassistant/sensor/indoor_tiny__\(Self.anna)_room/config"))
        try await MQTTGatewayTests.eventually("anna's retained topics") {
            let topics = try await Self.retained(broker)
            return annas.allSatisfy(topics.contains)
        }

        let counts = try await hub.eraseDevice(Self.anna, venue: nil)
        #expect(counts.sightings == 4)
        try await MQTTGatewayTests.eventually("anna's retained topics emptied") {
            let topics = try await Self.retained(broker)
            return !topics.contains { $0.contains(Self.anna) } && topics.contains { $0.contains(Self.bob) }
        }
    }
}
