import Foundation
import IndoorServerTestSupport
import Testing

/// `indoor serve --mqtt` without `--irks` on a real broker (mosquitto or amqtt): an unresolved ESPresense `irk:` id and
/// a Theengs address are stored, answered and published only as their pseudonyms (issue 50).
@Suite(.serialized) struct PseudonymMQTTTests {
    static let irk = "irk:00112233445566778899aabbccddeeff"
    static let mac = "C0:11:22:33:44:55"

    @Test(.needsBroker) func noRawIdReachesATableATopicOrAnAnswer() async throws {
        let broker = try Broker()
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await MQTTGatewayTests.server(broker, folder: folder, options: ["--publish"])
        let peer = MQTTGatewayTests.Peer(broker: broker, subscriptions: ["indoor/#"])
        defer { Task { await peer.stop() } }
        try await peer.connected()
        for _ in 0..<3 {
            try await peer.publish("espresense/devices/\(Self.irk)/n1", #"{"rssi":-60}"#)
            try await peer.publish(
                "home/n2/BTtoMQTT/C01122334455", #"{"id":"\#(Self.mac)","mac_type":0,"rssi":-61}"#)
            try await Task.sleep(for: .milliseconds(600))
        }
        var devices: [String] = []
        try await MQTTGatewayTests.eventually("two devices") {
            let (_, json) = try await DurabilityTests.request(
                server.port, "GET", "/v1/venues/tiny/devices?within=100000", key: "r-key-2d8a64f0c5e19b37")
            devices = (json["devices"] as? [[String: Any]] ?? []).compactMap { $0["device"] as? String }
            return devices.count == 2
        }
        #expect(devices.allSatisfy { $0.hasPrefix("anon-") }, "\(devices)")
        let topics = peer.received.messages.withLock { $0.map(\.topic) }
        #expect(!topics.isEmpty)
        #expect(!topics.contains { $0.contains("irk") || $0.contains("C0_11") || $0.contains("C0:11") }, "\(topics)")
        let payloads = peer.received.messages.withLock { $0.map { String(decoding: $0.payload, as: UTF8.self) } }
        #expect(!payloads.contains { $0.contains("irk:") || $0.contains(Self.mac) })
        server.stop()
        for file in ["indoor.sqlite", "indoor.sqlite-wal"] {
            let bytes = (try? Data(contentsOf: folder.appendingPathComponent(file))) ?? Data()
            #expect(bytes.range(of: Data("irk:0011".utf8)) == nil, "\(file)")
            #expect(bytes.range(of: Data(Self.mac.utf8)) == nil, "\(file)")
        }
    }
}
