import Foundation
import IndoorMQTT
import Synchronization

/// Publishes batches to a broker as an ESPresense node would, so that `indoor serve --mqtt` (and Home Assistant's
/// ESPresense integrations) read them: `<root>/devices/<device>/<node>` with `{"id", "rssi", "rssi@1m"}` at QoS 1,
/// and `<root>/rooms/<node>/status` `online` (retained) on every connection, `offline` as the will and at the end.
///
/// Device ids become ESPresense's: a beacon `UUID/major/minor` is published as `iBeacon:<uuid>-<major>-<minor>`
/// and an address `AA:BB:CC:DD:EE:FF` as `aabbccddeeff`, which the server's ESPresense reader maps back; an id
/// that cannot be a topic segment (with `/`, `+` or `#`, e.g. an Eddystone URL) is not published and is counted as
/// rejected, as is a message a limit of the broker forbids (MQTT 5 Maximum Packet Size). A batch is delivered once
/// the broker acknowledged (PUBACK) every other message of it. A batch offered while the client is still connecting
/// waits for the connection (up to `connectWait`), however slowly the broker accepts; a broker that refuses the
/// connection (credentials, authorisation) turns the gateway away.
final class MQTTForwarder: SightingForwarder {
    let client: MQTTClient
    /// ESPresense's root topic (`espresense`).
    let root: String
    /// The gateway's node id.
    let node: String
    /// How long a batch waits for the connection.
    let connectWait: Duration
    private let state = Mutex(State())

    private struct State {
        /// The broker connection (its count) on which `online` was last published.
        var announcedConnection = 0
        /// Sightings whose device id cannot be a topic segment.
        var unpublishable = 0
        var runner: Task<Void, Never>?
    }

    /// The status topic of the node.
    var statusTopic: String { "\(root)/rooms/\(node)/status" }

    /// Sightings not published because their device id cannot be a topic segment.
    var unpublishable: Int { state.withLock { $0.unpublishable } }

    /// - Parameters:
    ///   - url: the broker, `mqtt://[user@]host[:port]` or `mqtts://…`.
    ///   - password: from `INDOOR_MQTT_PASSWORD`.
    ///   - version: `--mqtt-version`.
    ///   - connectWait: How long a batch waits for the connection before it is said not delivered (retried later).
    init(
        url: MQTTURL, clientID: String, password: String?, root: String, node: String,
        version: MQTTVersionOption = .mqtt311, connectWait: Duration = .seconds(5)
    ) {
        self.root = root
        self.node = node
        self.connectWait = connectWait
        var configuration = version.applied(to: MQTTConfiguration(url: url, clientID: clientID, password: password))
        configuration.will = MQTTWill(
            topic: "\(root)/rooms/\(node)/status", payload: Array("offline".utf8), qos: .atLeastOnce, retain: true)
        configuration.reconnectBackoff = MQTTReconnectBackoff(minimum: .milliseconds(200), maximum: .seconds(10))
        client = MQTTClient(configuration: configuration, logger: GatewayLog.logger(label: "indoor.gateway.mqtt"))
    }

    /// Starts keeping the connection (in a task of its own, reconnecting with backoff).
    func start() {
        let client = client
        let task = Task {
            do {
                try await client.run(subscriptions: [], onMessages: { _ in })
            } catch {
                GatewayLog.line("indoor gateway: MQTT: \(error)")
            }
        }
        state.withLock { $0.runner = task }
    }

    /// ESPresense's id for `device`, or nil when it cannot be a topic segment.
    static func espresenseID(_ device: String) -> String? {
        let parts = device.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 3, let uuid = UUID(uuidString: String(parts[0])), let major = UInt16(parts[1]),
            let minor = UInt16(parts[2])
        {
            return "iBeacon:\(uuid.uuidString.lowercased())-\(major)-\(minor)"
        }
        let octets = device.split(separator: ":", omittingEmptySubsequences: false)
        if octets.count == 6, octets.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) {
            return octets.joined().lowercased()
        }
        guard !device.isEmpty, !device.contains(where: { $0 == "/" || $0 == "+" || $0 == "#" }),
            !device.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        return device
    }

    /// Waits until the client is connected, the broker refused it, or `connectWait` has passed; returns the refusal.
    private func waitForConnection() async -> String? {
        let deadline = ContinuousClock.now + connectWait
        while client.connectionState != .connected {
            if let refusal = client.brokerReport.connectRefusal { return refusal }
            if ContinuousClock.now >= deadline { break }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    func send(_ sightings: [ForwardedSighting]) async -> ForwardOutcome {
        let broker = "the broker \(client.configuration.host):\(client.configuration.port)"
        if let refusal = await waitForConnection() {
            return .turnedAway("\(broker) refused the connection: \(refusal)")
        }
        var rejected = 0
        var firstProblem: String?
        do {
            let connection = client.statistics.connectionsEstablished
            if connection != state.withLock({ $0.announcedConnection }) {
                try await client.publish(
                    topic: statusTopic, payload: Array("online".utf8), qos: .atLeastOnce, retain: true)
                state.withLock { $0.announcedConnection = connection }
            }
            for sighting in sightings {
                guard let id = Self.espresenseID(sighting.device) else {
                    state.withLock { $0.unpublishable += 1 }
                    rejected += 1
                    firstProblem = firstProblem ?? "device id '\(sighting.device)' cannot be a topic level"
                    continue
                }
                do {
                    try await client.publish(
                        topic: "\(root)/devices/\(id)/\(node)", payload: Self.payload(id: id, sighting),
                        qos: .atLeastOnce)
                } catch let error as MQTTClientError where error.code == .brokerLimit {
                    rejected += 1
                    firstProblem = firstProblem ?? error.message
                }
            }
            return .delivered(rejected: rejected, firstProblem: firstProblem)
        } catch {
            return .retry("\(broker): \(error)")
        }
    }

    /// `{"id": …, "rssi": …, "rssi@1m": …}`.
    static func payload(id: String, _ sighting: ForwardedSighting) -> [UInt8] {
        var object: [String: JSONScalar] = ["id": .text(id), "rssi": .number(sighting.rssi)]
        if let tx = sighting.tx { object["rssi@1m"] = .number(tx) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(object)).map { Array($0) } ?? []
    }

    /// A JSON value of the payload.
    enum JSONScalar: Encodable {
        case text(String)
        case number(Int)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            }
        }
    }

    func close() async {
        if client.connectionState == .connected {
            try? await client.publish(
                topic: statusTopic, payload: Array("offline".utf8), qos: .atLeastOnce, retain: true)
        }
        await client.disconnect()
        let runner = state.withLock { $0.runner }
        runner?.cancel()
        await runner?.value
    }
}
