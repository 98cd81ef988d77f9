import Foundation
import IndoorMQTT
import IndoorServerTestSupport
import Testing

/// User name and password against a broker that takes only a logged-in user (mosquitto with a password file, or
/// amqtt: `INDOOR_TEST_BROKER`), and TLS with a CA made for the test (mosquitto).
@Suite("MQTT client credentials and TLS against a real broker", .serialized, .needsBroker)
struct AuthenticationAndTLSTests {
    @Test(arguments: BrokerTests.versions)
    func goodCredentialsConnect(version: MQTTProtocolVersion) async throws {
        let broker = try Broker(requiresLogin: true)
        let url = try MQTTURL(parsing: broker.url)
        var configuration = MQTTConfiguration(url: url, clientID: "authorized", password: broker.password)
        configuration.protocolVersion = version
        let client = MQTTClient(configuration: configuration)
        let collector = MessageCollector()
        let task = BrokerTests.run(client, [MQTTSubscription("t/#")], into: collector)
        defer { task.cancel() }
        try await BrokerTests.waitConnected(client)
        try await client.publish(topic: "t/1", payload: Array("hello".utf8), qos: .atLeastOnce)
        try await eventually("the message") { collector.payloads == ["hello"] }
        task.cancel()
        try await task.value
    }

    @Test(arguments: BrokerTests.versions)
    func badCredentialsAreReportedWithTheConnAckReason(version: MQTTProtocolVersion) async throws {
        let broker = try Broker(requiresLogin: true)
        var configuration = BrokerTests.configuration(broker, clientID: "intruder", version: version)
        configuration.password = "wrong"
        let client = MQTTClient(configuration: configuration)
        let task = BrokerTests.run(client, [MQTTSubscription("t/#")], into: MessageCollector())
        defer { task.cancel() }
        try await eventually("the refusal (now \(client.connectionState))") {
            client.lastDisconnectReason?.contains("the broker refused the connection") == true
        }
        let reason = client.lastDisconnectReason ?? ""
        // mosquitto and amqtt answer "not authorized" (3.1.1: return code 5; MQTT 5: reason 0x87) for a wrong password.
        #expect(reason.contains("not authorized") || reason.contains("bad user name or password"))
        #expect(client.statistics.connectionsEstablished == 0)
        task.cancel()
        try await task.value
    }

    @Test(.needsMosquitto("a TLS listener made by mosquitto's configuration"))
    func mqttsWithACustomCA() async throws {
        let directory = try Broker.temporaryDirectory()
        try TestCertificates.make(in: directory, authority: "Indoor MQTT test CA")
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let broker = try Broker(
            kind: .mosquitto,
            extraConfig: [
                "cafile \(path("ca.pem"))", "certfile \(path("server.pem"))", "keyfile \(path("server.key"))",
            ],
            directory: directory)
        let url = try MQTTURL(parsing: "mqtts://localhost:\(broker.port)")
        #expect(url.isTLS)
        let client = MQTTClient(
            configuration: MQTTConfiguration(url: url, clientID: "tls", caFilePath: path("ca.pem")))
        let collector = MessageCollector()
        let task = BrokerTests.run(client, [MQTTSubscription("secure/#")], into: collector)
        defer { task.cancel() }
        try await BrokerTests.waitConnected(client)
        try await client.publish(topic: "secure/1", payload: Array("over TLS".utf8), qos: .atLeastOnce)
        try await eventually("the message over TLS") { collector.payloads == ["over TLS"] }
        task.cancel()
        try await task.value

        // Trusting only the system's roots, the test CA's certificate is refused.
        let untrusting = MQTTClient(configuration: MQTTConfiguration(url: url, clientID: "tls-untrusting"))
        let refused = BrokerTests.run(untrusting, [], into: MessageCollector())
        defer { refused.cancel() }
        try await eventually("the certificate to be refused (now \(untrusting.connectionState))") {
            untrusting.lastDisconnectReason != nil
        }
        let reason = untrusting.lastDisconnectReason ?? ""
        #expect(reason.uppercased().contains("CERTIFICATE"), "\(reason)")
        #expect(untrusting.statistics.connectionsEstablished == 0)
        refused.cancel()
        try await refused.value
    }

    @Test func anUnreadableCAFileIsAnErrorOfRun() async throws {
        let configuration = MQTTConfiguration(
            host: "localhost", clientID: "x", tls: MQTTTLSSettings(caFilePath: "/nonexistent/ca.crt"))
        await #expect(throws: MQTTClientError.self) {
            try await MQTTClient(configuration: configuration).run(subscriptions: []) { _ in }
        }
    }
}
