import IndoorMQTT
import IndoorServerTestSupport
import Testing

/// Broker URLs: `mqtt://[user@]host[:port]`, `mqtts://…`, and clear refusals.
@Suite("MQTT broker URLs")
struct URLTests {
    @Test func acceptedForms() throws {
        let plain = try MQTTURL(parsing: "mqtt://broker.local")
        #expect(plain == MQTTURL(isTLS: false, host: "broker.local", port: 1883, username: nil))
        let tls = try MQTTURL(parsing: "mqtts://indoor@broker.local:8884/")
        #expect(tls == MQTTURL(isTLS: true, host: "broker.local", port: 8884, username: "indoor"))
        #expect(try MQTTURL(parsing: "mqtts://10.0.0.2").port == 8883)
        let v6 = try MQTTURL(parsing: "mqtt://[::1]:1884")
        #expect(v6.host == "::1" && v6.port == 1884)
        #expect(v6.description == "mqtt://[::1]:1884")
        #expect(try MQTTURL(parsing: "mqtt://a%40b@h").username == "a@b")

        let configuration = MQTTConfiguration(url: tls, clientID: "indoor-1", password: "p")
        #expect(configuration.host == "broker.local" && configuration.port == 8884)
        #expect(configuration.username == "indoor" && configuration.password == "p")
        #expect(configuration.tls == MQTTTLSSettings())
        #expect(configuration.keepAliveSeconds == 30 && !configuration.cleanSession)
        #expect(configuration.protocolVersion == .v3_1_1)
    }

    static func refusal(_ text: String) -> String {
        do {
            _ = try MQTTURL(parsing: text)
            return "accepted"
        } catch {
            return error.message
        }
    }

    @Test func refusedForms() {
        #expect(Self.refusal("http://broker").contains("has scheme \"http\"; expected mqtt://"))
        #expect(Self.refusal("broker:1883").contains("expected mqtt://"))
        #expect(Self.refusal("mqtt://").contains("has no host"))
        #expect(Self.refusal("mqtt://user@:1883").contains("has no host"))
        #expect(Self.refusal("mqtt://broker:0").contains("a port is a number from 1 to 65535"))
        #expect(Self.refusal("mqtt://broker:99999").contains("port \"99999\""))
        #expect(Self.refusal("mqtt://broker:x").contains("port \"x\""))
        #expect(Self.refusal("mqtt://broker/topic").contains("path"))
        let password = Self.refusal("mqtt://user:secret@broker")
        #expect(password.contains("contains a password") && password.contains("INDOOR_MQTT_PASSWORD"))
    }

    @Test func backoffDoublesUpToTheMaximumWithJitter() {
        let backoff = MQTTReconnectBackoff()
        var random = SplitMix64(seed: 1)
        for attempt in 0..<12 {
            let full = min(Duration.milliseconds(500) * (1 << attempt), .seconds(30))
            let delay = backoff.delay(attempt: attempt, using: &random)
            #expect(delay >= full / 2 && delay <= full)
        }
    }
}
