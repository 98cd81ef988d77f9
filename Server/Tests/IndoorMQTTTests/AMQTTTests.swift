import Foundation
import IndoorMQTT
import IndoorServerTestSupport
import Testing

/// The client against a second broker, amqtt (logged in, so that it keeps sessions): QoS 1 both ways, a persistent
/// session that holds what was published while the client was away, and MQTT 5 falling back to 3.1.1 (amqtt answers
/// an MQTT 5 CONNECT with no CONNACK).
@Suite("MQTT client against amqtt", .serialized, .needsAMQTT)
struct AMQTTTests {
    static func configuration(
        _ broker: Broker, clientID: String, version: MQTTProtocolVersion = .v3_1_1, allowsFallBack: Bool = false
    ) -> MQTTConfiguration {
        MQTTConfiguration(
            host: "127.0.0.1", port: broker.port, clientID: clientID, username: broker.username,
            password: broker.password, protocolVersion: version, allowsFallBack: allowsFallBack,
            reconnectBackoff: MQTTReconnectBackoff(minimum: .milliseconds(100), maximum: .seconds(1)),
            connectTimeoutSeconds: 5)
    }

    @Test func qos1MessagesArriveAndThePersistentSessionHoldsThoseSentWhileAway() async throws {
        let broker = try Broker(kind: .amqtt)
        let gateway = MQTTClient(configuration: Self.configuration(broker, clientID: "gateway"))
        let publishing = Task { try await gateway.run(subscriptions: []) { _ in } }
        defer { publishing.cancel() }
        let server = MQTTClient(configuration: Self.configuration(broker, clientID: "server"))
        let collector = MessageCollector()
        let serving = Task {
            try await server.run(subscriptions: [MQTTSubscription("espresense/devices/+/+")]) { collector.append($0) }
        }
        try await eventually("both connected") {
            gateway.connectionState == .connected && server.connectionState == .connected
        }
        for index in 0..<5 {
            try await gateway.publish(
                topic: "espresense/devices/d\(index)/n1", payload: Array("\(index)".utf8), qos: .atLeastOnce)
        }
        try await eventually("5 messages") { collector.messages.count == 5 }
        await server.disconnect()
        try await serving.value

        // Sent while the server is away: the broker keeps them for its session.
        for index in 5..<10 {
            try await gateway.publish(
                topic: "espresense/devices/d\(index)/n1", payload: Array("\(index)".utf8), qos: .atLeastOnce)
        }
        let again = MQTTClient(configuration: Self.configuration(broker, clientID: "server"))
        let later = MessageCollector()
        let resumed = Task {
            try await again.run(subscriptions: [MQTTSubscription("espresense/devices/+/+")]) { later.append($0) }
        }
        defer { resumed.cancel() }
        try await eventually("the 5 messages sent while away") {
            Set(later.payloads).isSuperset(of: ["5", "6", "7", "8", "9"])
        }
        resumed.cancel()
        try await resumed.value
    }

    @Test func mqtt5IsRefusedAndTheClientFallsBackTo311() async throws {
        let broker = try Broker(kind: .amqtt)
        let client = MQTTClient(
            configuration: Self.configuration(broker, clientID: "five", version: .v5, allowsFallBack: true))
        let task = Task { try await client.run(subscriptions: [MQTTSubscription("t/#")]) { _ in } }
        defer { task.cancel() }
        try await eventually("the client to be connected") { client.connectionState == .connected }
        #expect(client.brokerReport.protocolVersion == .v3_1_1)
        #expect(client.brokerReport.fallBackReason != nil)
        try await client.publish(topic: "t/1", payload: [1], qos: .atLeastOnce)
        task.cancel()
        try await task.value
    }
}
