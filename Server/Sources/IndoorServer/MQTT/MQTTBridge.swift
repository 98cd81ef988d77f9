import CoreMetrics
import Foundation
import IndoorGateways
import IndoorMQTT
import IndoorModel
import Logging
import ServiceLifecycle
import Synchronization

/// `indoor serve --mqtt`: takes what BLE gateways publish (ESPresense, Theengs Gateway, OpenMQTTGateway) through the
/// venues' sessions, as `POST /v1/sightings` does, and, when asked (`--publish`, `--home-assistant`), publishes the
/// fixes and zone events of the devices selected back, with Home Assistant's discovery (``MQTTPublisher``).
///
/// Delivery: the subscriptions are QoS 1 on a persistent session, and a batch of messages is acknowledged to the
/// broker only once its sightings are committed to the store; when the commit fails the batch is not acknowledged
/// and the connection is dropped, so the broker sends it again. A server killed mid-batch loses nothing the broker
/// held (a redelivered message is taken again: duplicates are possible, losses are not).
///
/// Time: a message carries none; each is stamped with the server's clock when its batch arrives (Unix seconds), so a
/// venue fed over MQTT is on Unix time, and HTTP sightings for it must be too.
///
/// Which venue: the venue that has a node whose id is the message's node (ESPresense's room id, the gateway's name).
/// A message of a node no venue has (`unknownNode`) or that two venues have (`ambiguousNode`) is refused. Every
/// refusal is counted by reason in `indoor_mqtt_refused_total` and logged at most once every 10 s.
public final class MQTTBridge: Service, Sendable {
    let hub: VenueHub
    let client: MQTTClient
    let parser: GatewayMessageParser
    let configuration: MQTTBridgeConfiguration
    let publisher: MQTTPublisher
    let metrics: ServerMetrics
    let logger: Logger
    private let lastLog = Mutex<(at: Double, suppressed: Int)>((-.infinity, 0))

    /// A bridge between `hub` and the broker of `client`.
    /// - Throws: ``IdentityResolvingKeyError`` for a key that is not 32 hex digits.
    public init(
        hub: VenueHub, client: MQTTClient, configuration: MQTTBridgeConfiguration, metrics: ServerMetrics,
        logger: Logger
    ) throws {
        self.hub = hub
        self.client = client
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        let resolver = configuration.irks.isEmpty ? nil : try IRKResolver(keys: configuration.irks)
        parser = GatewayMessageParser(configuration: configuration.topics, resolver: resolver)
        publisher = MQTTPublisher(
            client: client, configuration: configuration, metrics: metrics, logger: logger,
            venueName: { [hub] in hub.venue(id: $0)?.name })
    }

    /// The topics subscribed to, at QoS 1: ESPresense's devices (every depth, so that a device id a broker split into
    /// levels is seen and refused, `splitTopic`) and rooms, the Theengs / OpenMQTTGateway layout under each prefix, and
    /// Home Assistant's status when its discovery is on.
    public var subscriptions: [MQTTSubscription] {
        let root = configuration.topics.espresenseRoot
        var topics = ["\(root)/devices/#", "\(root)/rooms/+/status", "\(root)/rooms/+/telemetry"]
        let prefixes = configuration.topics.theengsPrefixes
        topics += prefixes.isEmpty ? ["+/+/BTtoMQTT/+"] : prefixes.map { "\($0)/+/BTtoMQTT/+" }
        if let homeAssistant = configuration.homeAssistant { topics.append("\(homeAssistant.prefix)/status") }
        return topics.map { MQTTSubscription($0, qos: .atLeastOnce) }
    }

    /// The broker connection's state for `/health`: `connected`, `connecting` or `disconnected`, and why.
    public var health: MQTTHealth {
        let state: String
        switch client.connectionState {
        case .connected: state = "connected"
        case .connecting: state = "connecting"
        case .disconnected: state = "disconnected"
        }
        let scheme = client.configuration.tls == nil ? "mqtt" : "mqtts"
        let report = client.brokerReport
        return MQTTHealth(
            state: state, broker: "\(scheme)://\(client.configuration.host):\(client.configuration.port)",
            lastError: client.lastDisconnectReason, protocol: report.protocolVersion == .v5 ? "5" : "3.1.1",
            fallBack: report.fallBackReason, connAck: report.connAck, brokerDisconnect: report.brokerDisconnect,
            brokerLimits: report.limits, publishesRefused: client.statistics.messagesRefusedForLimits)
    }

    public func run() async throws {
        let events = hub.observeAll()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // At graceful shutdown the batch under way is let finish and acknowledged (not cancelled: committed
                // but not acknowledged, the broker would send it again to the next run, to be stored twice).
                try await withGracefulShutdownHandler {
                    try await self.client.run(subscriptions: self.subscriptions) { messages in
                        try await self.take(messages)
                    }
                } onGracefulShutdown: {
                    Task { await self.client.disconnect() }
                }
            }
            group.addTask {
                await cancelWhenGracefulShutdown {
                    // Every zone's state first, once connected (the feed, subscribed before, carries on from there).
                    while self.client.connectionState != .connected, !Task.isCancelled {
                        try? await Task.sleep(for: .milliseconds(50))
                    }
                    for venue in self.hub.ownedVenueIDs {
                        await self.publisher.announceZones(self.hub.zoneStates(venue: venue), venue: venue)
                        await self.publisher.announcePersons(self.hub.persons(venue: venue) ?? [], venue: venue)
                    }
                    await self.publisher.run(events)
                }
            }
            try await group.next()
            group.cancelAll()
        }
        await client.disconnect()
    }

    /// Takes one batch of messages: parses each, stamps its sightings with the hub's clock and admits them venue by
    /// venue; answers once they are committed.
    /// - Throws: The store's error when a commit fails (the batch is then not acknowledged).
    func take(_ messages: [MQTTMessage]) async throws {
        let now = hub.now
        var batches: [String: [Sighting]] = [:]
        var order: [String] = []
        for message in messages {
            if let homeAssistant = configuration.homeAssistant, message.topic == "\(homeAssistant.prefix)/status" {
                if String(decoding: message.payload, as: UTF8.self) == "online" { publisher.resendToHomeAssistant() }
                continue
            }
            let parsed: GatewayMessage
            do {
                parsed = try parser.parse(topic: message.topic, payload: message.payload)
            } catch {
                refuse(error.reason.rawValue, error.message)
                continue
            }
            switch parsed {
            case .sighting(let heard):
                guard let venue = venue(of: heard.node, topic: message.topic) else { continue }
                if batches[venue] == nil { order.append(venue) }
                batches[venue, default: []].append(heard.sighting(time: now))
            case .nodeStatus(let node, let online):
                for venue in hub.venues(withNode: node) {
                    hub.nodeHealth.reported(venue: venue, node: node, status: online ? "online" : "offline", at: now)
                }
                count("status")
            case .nodeTelemetry(let node, let telemetry):
                for venue in hub.venues(withNode: node) {
                    hub.nodeHealth.telemetry(
                        venue: venue, node: node,
                        NodeTelemetry(
                            uptime: telemetry.uptimeSeconds, firmware: telemetry.firmware ?? telemetry.version,
                            wifiRSSI: telemetry.wifiRSSI, ip: telemetry.ipAddress))
                }
                count("telemetry")
            case .ignored:
                if let device = splitDevice(topic: message.topic) {
                    refuse(
                        "splitTopic",
                        "\(message.topic): the device id '\(device)' was split into topic levels (RabbitMQ turns a '.' "
                            + "in a level into a '/'); give the device an id without '.' or use another broker")
                    continue
                }
                count("ignored")
            }
        }
        for venue in order {
            guard let sightings = batches[venue] else { continue }
            let admission: VenueHub.Admission
            do {
                admission = try await hub.admit(venue: venue, sightings: sightings)
            } catch let error as APIError where error.status == .notFound {
                // The venue was deleted since its node was looked up.
                refuse("unknownNode", "venue '\(venue)' was deleted; \(sightings.count) sightings of it are dropped")
                continue
            }
            count("taken", by: sightings.count - admission.refused.count)
            for refusal in admission.refused {
                refuse(refusal.field == "t" ? "time" : refusal.field, "venue '\(venue)': \(refusal.message)")
            }
        }
    }

    /// The device id of an ESPresense sighting topic whose id a broker split into levels
    /// (`<root>/devices/<part>/<part>/<node>`, the last level a node of a venue); nil for any other topic (a GATT
    /// report `<root>/devices/<device>/<node>/<reportId>` ends in no node).
    private func splitDevice(topic: String) -> String? {
        let prefix = "\(configuration.topics.espresenseRoot)/devices/"
        guard topic.hasPrefix(prefix) else { return nil }
        let levels = topic.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count >= 3, let node = levels.last, !hub.venues(withNode: String(node)).isEmpty else { return nil }
        return levels.dropLast().joined(separator: ".")
    }

    /// The venue whose node `node` is; `nil` (counted and logged) when none or several are.
    private func venue(of node: String, topic: String) -> String? {
        let venues = hub.venues(withNode: node)
        switch venues.count {
        case 1: return venues[0]
        case 0:
            refuse("unknownNode", "\(topic): node '\(node)' is not a node of any venue; add it to the venue's nodes")
        default:
            refuse(
                "ambiguousNode",
                "\(topic): node '\(node)' is a node of venues \(venues.joined(separator: ", ")); give nodes distinct ids"
            )
        }
        return nil
    }

    private func count(_ result: String, by amount: Int = 1) {
        guard amount > 0 else { return }
        CoreMetrics.Counter(
            label: "indoor_mqtt_messages_total", dimensions: [("result", result)], factory: metrics.factory
        ).increment(by: amount)
    }

    /// Counts a refused message by `reason` and logs `message`, at most once every 10 s (saying how many were not).
    private func refuse(_ reason: String, _ message: String) {
        CoreMetrics.Counter(
            label: "indoor_mqtt_refused_total", dimensions: [("reason", reason)], factory: metrics.factory
        ).increment()
        let now = Date().timeIntervalSince1970
        let suppressed = lastLog.withLock { last -> Int? in
            guard now - last.at >= 10 else {
                last.suppressed += 1
                return nil
            }
            defer { last = (now, 0) }
            return last.suppressed
        }
        guard let suppressed else { return }
        let more = suppressed > 0 ? " (and \(suppressed) more refused in the last 10 s)" : ""
        // Never a raw address or irk: id in the log when ids are pseudonymous.
        logger.warning("MQTT message refused (\(reason)): \(hub.pseudonyms.scrub(message))\(more)")
    }
}

/// The broker connection, as `/health` says it.
public struct MQTTHealth: Hashable, Sendable, Encodable {
    /// `connected`, `connecting` or `disconnected`.
    public var state: String
    /// The broker's address (no credentials).
    public var broker: String
    /// Why the last connection ended or failed, when one did.
    public var lastError: String?
    /// The MQTT version spoken (or tried next): `3.1.1` or `5`.
    public var `protocol`: String
    /// Why MQTT 3.1.1 is spoken though `--mqtt-version 5` asked for 5 (the broker refused it).
    public var fallBack: String?
    /// The reason (return) code of the broker's last CONNACK.
    public var connAck: MQTTReason?
    /// The reason code of the last DISCONNECT the broker sent (MQTT 5).
    public var brokerDisconnect: MQTTReason?
    /// What the broker allows, as its last MQTT 5 CONNACK said.
    public var brokerLimits: MQTTBrokerLimits?
    /// Messages not published because a limit the broker announced forbids them (e.g. larger than its Maximum
    /// Packet Size), since the start.
    public var publishesRefused: Int
}
