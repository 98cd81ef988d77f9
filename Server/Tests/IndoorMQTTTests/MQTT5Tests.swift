import Foundation
import IndoorMQTT
import IndoorServerTestSupport
import Synchronization
import Testing

/// MQTT 5 by the broker's rules, against a real mosquitto: its Maximum Packet Size and Receive Maximum kept, its
/// limits and reason codes reported; and the fall-back to MQTT 3.1.1 when a broker refuses MQTT 5.
@Suite(
    "MQTT 5 against mosquitto", .serialized,
    .needsMosquitto("MQTT 5 and mosquitto's max_packet_size and max_inflight_messages: amqtt speaks MQTT 3.1.1 only"))
struct MQTT5Tests {
    static func configuration(
        port: Int, clientID: String, version: MQTTProtocolVersion, allowsFallBack: Bool = false
    ) -> MQTTConfiguration {
        MQTTConfiguration(
            host: "127.0.0.1", port: port, clientID: clientID, protocolVersion: version,
            allowsFallBack: allowsFallBack,
            reconnectBackoff: MQTTReconnectBackoff(minimum: .milliseconds(100), maximum: .seconds(1)),
            connectTimeoutSeconds: 5)
    }

    @Test func theBrokersMaximumPacketSizeAndReceiveMaximumAreKept() async throws {
        let broker = try Broker(kind: .mosquitto, extraConfig: ["max_packet_size 256", "max_inflight_messages 2"])
        let client = MQTTClient(configuration: Self.configuration(port: broker.port, clientID: "limits", version: .v5))
        let collector = MessageCollector()
        let task = Task { try await client.run(subscriptions: [MQTTSubscription("limits/#")]) { collector.append($0) } }
        defer { task.cancel() }
        try await eventually("the client to be connected") { client.connectionState == .connected }

        let report = client.brokerReport
        #expect(report.protocolVersion == .v5)
        #expect(report.connAck == MQTTReason(code: 0, reason: "success"))
        #expect(report.limits?.maximumPacketSizeBytes == 256)
        #expect(report.limits?.receiveMaximum == 2)
        #expect(report.limits?.topicAliasMaximum == 10)

        // A retained message whose PUBLISH would be 421 bytes: refused before sending, counted, never reported sent.
        let large = [UInt8](repeating: UInt8(ascii: "x"), count: 421 - 2 - 2 - "limits/large".utf8.count - 1 - 2 - 1)
        await #expect {
            try await client.publish(topic: "limits/large", payload: large, qos: .atLeastOnce, retain: true)
        } throws: { error in
            guard let error = error as? MQTTClientError else { return false }
            return error.code == .brokerLimit && error.message.contains("limits/large")
                && error.message.contains("421 bytes") && error.message.contains("256")
        }
        #expect(client.statistics.messagesRefusedForLimits == 1)
        #expect(client.statistics.messagesPublished == 0)

        // QoS 1 publishes at once: never more in flight than the broker's Receive Maximum; all delivered.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<30 {
                group.addTask {
                    try await client.publish(
                        topic: "limits/\(index)", payload: Array("\(index)".utf8), qos: .atLeastOnce)
                }
            }
            try await group.waitForAll()
        }
        #expect(client.statistics.messagesPublished == 30)
        #expect((1...2).contains(client.statistics.largestInFlightPublishes))
        try await eventually("the 30 messages back") { collector.messages.count == 30 }
        #expect(!collector.topics.contains("limits/large"))
        // The broker never had cause to disconnect the client.
        #expect(client.statistics.connectionsEstablished == 1)
        #expect(client.brokerReport.brokerDisconnect == nil)
        task.cancel()
        try await task.value
    }

    @Test func mqtt311IsUnchangedAndAnnouncesNoLimits() async throws {
        let broker = try Broker(kind: .mosquitto, extraConfig: ["max_packet_size 256"])
        let client = MQTTClient(configuration: Self.configuration(port: broker.port, clientID: "v3", version: .v3_1_1))
        let task = Task { try await client.run(subscriptions: []) { _ in } }
        defer { task.cancel() }
        try await eventually("the client to be connected") { client.connectionState == .connected }
        #expect(client.brokerReport.protocolVersion == .v3_1_1)
        #expect(client.brokerReport.limits == nil)
        #expect(client.brokerReport.connAck?.code == 0)
        // No limit is known with 3.1.1: the message is sent, and the broker closes the connection for it.
        try await client.publish(topic: "big", payload: [UInt8](repeating: 1, count: 400), qos: .atMostOnce)
        #expect(client.statistics.messagesRefusedForLimits == 0)
        try await eventually("the broker to drop the connection") { client.lastDisconnectReason != nil }
        task.cancel()
        try await task.value
    }

    /// A broker that refuses MQTT 5 with a CONNACK (as a 3.1.1-only broker does), or with no CONNACK at all (as
    /// RabbitMQ 3.10 and amqtt do): the client connects with 3.1.1 instead, and says so.
    @Test(arguments: [true, false])
    func aBrokerRefusingMQTT5GetsMQTT311(answers: Bool) async throws {
        let broker = try Broker(kind: .mosquitto)
        let proxy = try BrokerProxy(to: broker.port, mode: .refuseMQTT5(answer: answers))
        defer { proxy.stop() }
        let client = MQTTClient(
            configuration: Self.configuration(
                port: proxy.port, clientID: "fallback", version: .v5, allowsFallBack: true))
        let collector = MessageCollector()
        let task = Task { try await client.run(subscriptions: [MQTTSubscription("f/#")]) { collector.append($0) } }
        defer { task.cancel() }
        try await eventually("the client to be connected") { client.connectionState == .connected }
        let report = client.brokerReport
        #expect(report.protocolVersion == .v3_1_1)
        #expect(report.fallBackReason?.contains("refused MQTT 5") == true)
        #expect(report.limits == nil)
        #expect(proxy.connections.mqtt5 == 1)
        try await client.publish(topic: "f/1", payload: Array("one".utf8), qos: .atLeastOnce)
        try await eventually("the message back") { collector.payloads == ["one"] }
        task.cancel()
        try await task.value
    }

    @Test func withoutFallBackMQTT5IsKeptAndTheRefusalSaid() async throws {
        let broker = try Broker(kind: .mosquitto)
        let proxy = try BrokerProxy(to: broker.port, mode: .refuseMQTT5(answer: true))
        defer { proxy.stop() }
        let client = MQTTClient(configuration: Self.configuration(port: proxy.port, clientID: "strict", version: .v5))
        let task = Task { try await client.run(subscriptions: []) { _ in } }
        defer { task.cancel() }
        try await eventually("two refused connections") { proxy.connections.mqtt5 >= 2 }
        #expect(client.connectionState != .connected)
        #expect(client.brokerReport.protocolVersion == .v5)
        #expect(client.brokerReport.connAck?.code == 1)
        #expect(client.brokerReport.connectRefusal?.contains("unacceptable protocol version") == true)
        task.cancel()
        try await task.value
    }

    @Test func aRefusalOfTheCredentialsIsReportedAndClearedOnceAccepted() async throws {
        let broker = try Broker(kind: .mosquitto, requiresLogin: true)
        var configuration = Self.configuration(port: broker.port, clientID: "credentials", version: .v5)
        configuration.username = "indoor"
        configuration.password = "wrong"
        let refused = MQTTClient(configuration: configuration)
        let task = Task { try await refused.run(subscriptions: []) { _ in } }
        defer { task.cancel() }
        try await eventually("the refusal") { refused.brokerReport.connectRefusal != nil }
        // mosquitto answers 0x87 "not authorized" (others 0x86 "bad user name or password").
        #expect([0x86, 0x87].contains(refused.brokerReport.connAck?.code))
        #expect(refused.brokerReport.connectRefusal?.contains(refused.brokerReport.connAck?.reason ?? "?") == true)
        task.cancel()
        try await task.value

        configuration.password = "s3cret"
        let accepted = MQTTClient(configuration: configuration)
        let second = Task { try await accepted.run(subscriptions: []) { _ in } }
        defer { second.cancel() }
        try await eventually("the client to be connected") { accepted.connectionState == .connected }
        #expect(accepted.brokerReport.connectRefusal == nil)
        second.cancel()
        try await second.value
    }
}
