import Foundation
import IndoorMQTT
import IndoorServerTestSupport
import Synchronization
import Testing

/// The client against a real broker (mosquitto, or amqtt logged in: `INDOOR_TEST_BROKER`): subscriptions, both QoS,
/// acknowledgement after the handler, redelivery to a persistent session, reconnecting after a broker restart,
/// keep-alive. One broker per test; each MQTT version the broker speaks (amqtt: 3.1.1 only).
@Suite("MQTT client against a real broker", .serialized, .needsBroker)
struct BrokerTests {
    /// The MQTT versions the tested broker speaks (mosquitto: 3.1.1 and 5; amqtt: 3.1.1).
    static let versions: [MQTTProtocolVersion] = (BrokerKind.tested ?? .mosquitto).protocolLevels.compactMap {
        MQTTProtocolVersion(rawValue: $0)
    }
    /// MQTT 5 where the tested broker speaks it, else 3.1.1.
    static var newestVersion: MQTTProtocolVersion { versions.last ?? .v3_1_1 }

    static func configuration(
        _ broker: Broker, clientID: String, version: MQTTProtocolVersion, keepAliveSeconds: UInt16 = 30
    ) -> MQTTConfiguration {
        MQTTConfiguration(
            host: "127.0.0.1", port: broker.port, clientID: clientID, username: broker.username,
            password: broker.password, keepAliveSeconds: keepAliveSeconds, protocolVersion: version,
            reconnectBackoff: MQTTReconnectBackoff(minimum: .milliseconds(100), maximum: .seconds(1)))
    }

    static func run(
        _ client: MQTTClient, _ subscriptions: [MQTTSubscription], into collector: MessageCollector
    ) -> Task<Void, any Error> {
        Task { try await client.run(subscriptions: subscriptions) { collector.append($0) } }
    }

    static func waitConnected(_ client: MQTTClient) async throws {
        try await eventually("the client to be connected (now \(client.connectionState))") {
            client.connectionState == .connected
        }
    }

    @Test(arguments: BrokerTests.versions)
    func wildcardSubscriptionsReceiveQoS0And1InOrder(version: MQTTProtocolVersion) async throws {
        let broker = try Broker()
        let client = MQTTClient(configuration: Self.configuration(broker, clientID: "wildcards", version: version))
        let collector = MessageCollector()
        let task = Self.run(
            client, [MQTTSubscription("espresense/devices/+/+"), MQTTSubscription("home/#", qos: .atMostOnce)],
            into: collector)
        defer { task.cancel() }
        try await Self.waitConnected(client)

        try broker.publish(
            topic: "espresense/devices/irk:0011/kitchen", message: "{\"rssi\":\"-61.00\"}", version5: version == .v5)
        try broker.publish(topic: "espresense/rooms/kitchen/status", message: "online")  // not subscribed
        try broker.publish(topic: "home/gw/BTtoMQTT/AABBCCDDEEFF", message: "{\"id\":\"AA\"}", qos: 0)
        try await eventually("2 messages from mosquitto_pub") { collector.messages.count == 2 }
        #expect(collector.topics == ["espresense/devices/irk:0011/kitchen", "home/gw/BTtoMQTT/AABBCCDDEEFF"])
        #expect(collector.messages.map(\.qos) == [.atLeastOnce, .atMostOnce])

        // The client's own messages, QoS 1 (each waits for its PUBACK) and 0, come back in order.
        for index in 0..<20 {
            try await client.publish(
                topic: "espresense/devices/d\(index)/hall", payload: Array("\(index)".utf8),
                qos: index % 2 == 0 ? .atLeastOnce : .atMostOnce)
        }
        try await eventually("the client's own 20 messages") { collector.messages.count == 22 }
        #expect(collector.payloads.suffix(20) == (0..<20).map { "\($0)" })
        // The QoS 1 ones are acknowledged: with mosquitto one from mosquitto_pub and ten of its own (each delivered at
        // the lower of its QoS and the subscription's, MQTT-3.8.4-6); amqtt 0.12 delivers each at the subscription's
        // QoS, so all 20 of its own come at QoS 1 there.
        let acknowledged = broker.kind == .amqtt ? 21 : 11
        try await eventually("\(acknowledged) acknowledgements (now \(client.statistics.messagesAcknowledged))") {
            client.statistics.messagesAcknowledged == acknowledged
        }
        #expect(client.statistics.messagesReceived == 22)
        #expect(client.statistics.messagesPublished == 20)

        task.cancel()
        try await task.value
        #expect(client.connectionState == .disconnected(reason: "stopped"))
    }

    @Test func publishingWhileNotConnectedSaysSo() async throws {
        let client = MQTTClient(
            configuration: MQTTConfiguration(host: "127.0.0.1", port: try Broker.freePort(), clientID: "nobody"))
        do {
            try await client.publish(topic: "a", payload: [1], qos: .atLeastOnce)
            Issue.record("publish without a connection did not throw")
        } catch let error as MQTTClientError {
            #expect(error.message.contains("not connected"))
        }
    }

    /// A batch whose handler had not returned when the client stopped is not acknowledged: the broker
    /// redelivers it to the next connection with the same client id (persistent session).
    @Test(arguments: BrokerTests.versions)
    func aBatchNotCommittedIsRedeliveredToThePersistentSession(version: MQTTProtocolVersion) async throws {
        let broker = try Broker()
        let configuration = Self.configuration(broker, clientID: "redelivery-\(version.rawValue)", version: version)
        let first = MQTTClient(configuration: configuration)
        let seen = MessageCollector()
        let blocked = Task {
            try await first.run(subscriptions: [MQTTSubscription("sightings/#")]) { batch in
                seen.append(batch)
                // The application never commits: it is stopped while "writing".
                try? await Task.sleep(for: .seconds(3_600))
            }
        }
        try await Self.waitConnected(first)
        try broker.publish(topic: "sightings/a", message: "one", version5: version == .v5)
        try await eventually("the handler to receive the message") { seen.messages.count == 1 }
        blocked.cancel()
        try await blocked.value
        #expect(first.statistics.messagesAcknowledged == 0)

        // Published while nobody is connected: queued for the session.
        try broker.publish(topic: "sightings/b", message: "two", version5: version == .v5)

        let second = MQTTClient(configuration: configuration)
        let collector = MessageCollector()
        let task = Self.run(second, [MQTTSubscription("sightings/#")], into: collector)
        defer { task.cancel() }
        // amqtt 0.12 drops a QoS 1 message it sent once no PUBACK came within 5 s or the connection closed (its
        // handler discards it from the session's in-flight messages: MQTT-4.4.0-1 not kept), so there only the
        // message sent while away comes; mosquitto redelivers both.
        let expected: Set<String> = broker.kind == .amqtt ? ["two"] : ["one", "two"]
        try await eventually("the redelivery of \(expected)") { collector.messages.count >= expected.count }
        try await Task.sleep(for: .milliseconds(300))
        #expect(Set(collector.payloads) == expected)
        try await eventually("all acknowledged") { second.statistics.messagesAcknowledged >= expected.count }
        task.cancel()
        try await task.value
    }

    /// `disconnect()` (a clean stop, as at SIGTERM) lets the handler call under way finish and acknowledges its
    /// batch: committed, it is not sent again to the next connection.
    @Test(arguments: BrokerTests.versions)
    func aCleanStopAcknowledgesTheBatchUnderWay(version: MQTTProtocolVersion) async throws {
        let broker = try Broker()
        let configuration = Self.configuration(broker, clientID: "clean-stop-\(version.rawValue)", version: version)
        let first = MQTTClient(configuration: configuration)
        let seen = MessageCollector()
        let committed = Mutex(0)
        let running = Task {
            try await first.run(subscriptions: [MQTTSubscription("sightings/#")]) { batch in
                seen.append(batch)
                // A commit that takes a while, and is not cancelled.
                let until = ContinuousClock.now + .milliseconds(500)
                while ContinuousClock.now < until { usleep(10_000) }
                committed.withLock { $0 += batch.count }
            }
        }
        try await Self.waitConnected(first)
        try broker.publish(topic: "sightings/a", message: "one", version5: version == .v5)
        try await eventually("the handler to receive the message") { seen.messages.count == 1 }
        await first.disconnect()
        try await running.value
        #expect(committed.withLock { $0 } == 1)
        #expect(first.statistics.messagesAcknowledged == 1)

        try broker.publish(topic: "sightings/b", message: "two", version5: version == .v5)
        let second = MQTTClient(configuration: configuration)
        let collector = MessageCollector()
        let task = Self.run(second, [MQTTSubscription("sightings/#")], into: collector)
        defer { task.cancel() }
        try await eventually("the message sent while away") { collector.messages.count >= 1 }
        try await Task.sleep(for: .milliseconds(300))
        #expect(collector.payloads == ["two"])
        task.cancel()
        try await task.value
    }

    @Test(arguments: BrokerTests.versions)
    func theClientReconnectsAndResubscribesAfterABrokerRestart(version: MQTTProtocolVersion) async throws {
        let broker = try Broker()
        let client = MQTTClient(configuration: Self.configuration(broker, clientID: "restart", version: version))
        let collector = MessageCollector()
        let task = Self.run(client, [MQTTSubscription("espresense/devices/+/+")], into: collector)
        defer { task.cancel() }
        try await Self.waitConnected(client)
        try broker.publish(topic: "espresense/devices/a/hall", message: "before")
        try await eventually("the message before the restart") { collector.messages.count == 1 }

        broker.stop()
        try await eventually("the client to notice the broker is gone") { client.lastDisconnectReason != nil }
        try broker.start()
        // The broker keeps no sessions across restarts (persistence false): only resubscribing brings messages.
        try await eventually("the second connection") {
            client.statistics.connectionsEstablished >= 2 && client.connectionState == .connected
        }
        try broker.publish(topic: "espresense/devices/a/hall", message: "after")
        try await eventually("the message after the restart") { collector.messages.count == 2 }
        #expect(collector.payloads == ["before", "after"])
        #expect(client.statistics.reconnectAttempts >= 1)
        task.cancel()
        try await task.value
    }

    @Test func keepAlivePingsHoldAnIdleConnectionAndAMissingPingResponseEndsIt() async throws {
        let broker = try Broker()
        let client = MQTTClient(
            configuration: Self.configuration(broker, clientID: "pinger", version: .v3_1_1, keepAliveSeconds: 1))
        let task = Self.run(client, [MQTTSubscription("a/b")], into: MessageCollector())
        defer { task.cancel() }
        try await Self.waitConnected(client)
        // A broker closes a connection silent for 1.5 keep-alives; PINGREQs keep this one open. mosquitto logs each
        // PINGREQ; amqtt logs none at its default level, so there the connection is watched for 4 keep-alives.
        switch broker.kind {
        case .mosquitto:
            try await eventually("mosquitto to log the client's PINGREQs") {
                broker.log.components(separatedBy: "Received PINGREQ from pinger").count > 3
            }
        case .amqtt:
            try await Task.sleep(for: .seconds(4))
        }
        #expect(client.connectionState == .connected)
        #expect(client.statistics.connectionsEstablished == 1)

        // A frozen broker answers no PINGREQ: the client takes the connection as dead.
        broker.suspend(true)
        try await eventually("the client to give the connection up") {
            client.lastDisconnectReason?.contains("no PINGRESP") == true
        }
        broker.suspend(false)
        try await eventually("the reconnection") {
            client.statistics.connectionsEstablished >= 2 && client.connectionState == .connected
        }
        task.cancel()
        try await task.value
    }

    @Test func disconnectEndsRun() async throws {
        let broker = try Broker()
        let client = MQTTClient(
            configuration: Self.configuration(broker, clientID: "leaver", version: Self.newestVersion))
        let task = Self.run(client, [], into: MessageCollector())
        try await Self.waitConnected(client)
        let released = "0/∞ connections acquired"
        let releasedBefore = broker.log.components(separatedBy: released).count
        await client.disconnect()
        try await task.value
        #expect(client.connectionState == .disconnected(reason: "stopped"))
        // mosquitto logs the DISCONNECT packet; amqtt logs no packet at its default level, only each connection its
        // listener releases (the client's, once the broker has closed it after the DISCONNECT).
        switch broker.kind {
        case .mosquitto:
            try await eventually("mosquitto to log the DISCONNECT") {
                broker.log.contains("Received DISCONNECT from leaver")
            }
        case .amqtt:
            try await eventually("amqtt to release the connection") {
                broker.log.components(separatedBy: released).count > releasedBefore
            }
        }
    }
}

/// A slow handler: messages wait in a bounded inbox, come in bounded batches, in order, and are all
/// acknowledged in the end.
@Suite("MQTT client back-pressure against a real broker", .needsBroker)
struct BackPressureTests {
    @Test func aSlowHandlerGetsBoundedBatchesInOrder() async throws {
        let broker = try Broker()
        var configuration = BrokerTests.configuration(broker, clientID: "slow", version: BrokerTests.newestVersion)
        configuration.maximumBufferedMessages = 10
        configuration.maximumBatchSize = 4
        let client = MQTTClient(configuration: configuration)
        let batchSizes = Mutex<[Int]>([])
        let collector = MessageCollector()
        let task = Task {
            try await client.run(subscriptions: [MQTTSubscription("load/#")]) { batch in
                batchSizes.withLock { $0.append(batch.count) }
                collector.append(batch)
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        defer { task.cancel() }
        try await BrokerTests.waitConnected(client)
        let publisher = MQTTClient(
            configuration: BrokerTests.configuration(broker, clientID: "fast", version: BrokerTests.newestVersion))
        let publishing = Task { try await publisher.run(subscriptions: []) { _ in } }
        defer { publishing.cancel() }
        try await BrokerTests.waitConnected(publisher)
        for index in 0..<300 {
            try await publisher.publish(topic: "load/\(index % 7)", payload: Array("\(index)".utf8), qos: .atLeastOnce)
        }
        try await eventually("300 messages") { collector.messages.count >= 300 }
        #expect(collector.payloads == (0..<300).map { "\($0)" })
        #expect(batchSizes.withLock { $0.allSatisfy { $0 >= 1 && $0 <= 4 } })
        try await eventually("300 acknowledgements") { client.statistics.messagesAcknowledged == 300 }
        task.cancel()
        publishing.cancel()
        try await task.value
        try await publishing.value
    }
}
