/// Reads MQTT messages of BLE gateways — ESPresense, Theengs Gateway, OpenMQTTGateway — as Indoor sightings and
/// node events. Pure: no networking, no clock; safe to share between tasks.
///
/// Topics (see ``GatewayTopicConfiguration`` for the roots):
/// - `<root>/devices/<device>/<node>`: an ESPresense sighting (``ESPresenseReader``);
///   `<root>/devices/<device>/<node>/<reportId>` (a GATT query result) and `<root>/devices/<device>` are ignored.
/// - `<root>/rooms/<node>/status` (`online` / `offline`), `<root>/rooms/<node>/telemetry`; other `rooms/`
///   subtopics and everything else under the root (`settings/…`) are ignored.
/// - `<prefix>/<gateway>/BTtoMQTT/<address>` or `<prefix>/<gateway>/BTtoMQTT`: a Theengs / OpenMQTTGateway
///   sighting (``TheengsReader``). The layout is recognised by its `BTtoMQTT` segment (second from last, or last)
///   with a known prefix before `<gateway>`; other topics under a known prefix (`SYStoMQTT`, `LWT`, …) are ignored.
/// - Anything else: `unknownTopic`.
///
/// Never traps: every input either reads or throws a ``GatewayPayloadError``. Payloads over the configured size are
/// refused before they are parsed.
public struct GatewayMessageParser: Sendable {
    /// The topic roots and the payload limit.
    public var configuration: GatewayTopicConfiguration
    /// The identity resolving keys, or nil for none.
    public var resolver: IRKResolver?

    /// A parser for `configuration`, resolving private addresses and ESPresense `irk:` ids with `resolver`.
    public init(configuration: GatewayTopicConfiguration = GatewayTopicConfiguration(), resolver: IRKResolver? = nil) {
        self.configuration = configuration
        self.resolver = resolver
    }

    /// What the message on `topic` with `payload` means.
    ///
    /// - Throws: ``GatewayPayloadError`` naming the topic, and the field when one is at fault.
    public func parse(topic: String, payload: [UInt8]) throws(GatewayPayloadError) -> GatewayMessage {
        guard topic.utf8.count <= GatewayTopicConfiguration.maximumTopicBytes else {
            throw GatewayPayloadError(
                .tooLarge, topic: String(topic.prefix(64)) + "…", field: nil,
                detail:
                    "the topic has \(topic.utf8.count) bytes; at most \(GatewayTopicConfiguration.maximumTopicBytes) are read"
            )
        }
        guard payload.count <= configuration.maximumPayloadBytes else {
            throw GatewayPayloadError(
                .tooLarge, topic: topic, field: nil,
                detail: "the payload has \(payload.count) bytes; at most \(configuration.maximumPayloadBytes) are read")
        }
        if let rest = Self.remainder(of: topic, after: configuration.espresenseRoot) {
            return try ESPresenseReader(topic: topic, resolver: resolver).read(path: rest, payload: payload)
        }
        let segments = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch theengsTopic(segments) {
        case .sighting(let gateway):
            return try TheengsReader(topic: topic, resolver: resolver).read(gateway: gateway, payload: payload)
        case .other:
            return .ignored(reason: "not a BTtoMQTT topic of a Theengs / OpenMQTTGateway gateway")
        case nil:
            break
        }
        throw GatewayPayloadError(
            .unknownTopic, topic: topic, field: nil,
            detail:
                "the topic is under neither ESPresense's root '\(configuration.espresenseRoot)' nor a BTtoMQTT prefix"
        )
    }

    /// ``parse(topic:payload:)`` for a payload in any byte collection (such as `Data`).
    public func parse(topic: String, payload: some Collection<UInt8>) throws(GatewayPayloadError) -> GatewayMessage {
        guard payload.count <= configuration.maximumPayloadBytes else {
            throw GatewayPayloadError(
                .tooLarge, topic: topic, field: nil,
                detail: "the payload has \(payload.count) bytes; at most \(configuration.maximumPayloadBytes) are read")
        }
        return try parse(topic: topic, payload: Array(payload))
    }

    /// The topic's segments after `root/`, or nil when the topic is not under `root`.
    static func remainder(of topic: String, after root: String) -> [String]? {
        guard !root.isEmpty, topic.hasPrefix(root + "/") else { return nil }
        return topic.dropFirst(root.count + 1).split(separator: "/", omittingEmptySubsequences: false).map(
            String.init)
    }

    /// A topic of a Theengs-style gateway.
    enum TheengsTopic: Equatable {
        /// `<prefix>/<gateway>/BTtoMQTT[/<address>]`.
        case sighting(gateway: String)
        /// Another topic under a known prefix.
        case other
    }

    /// What the topic is to a Theengs-style gateway; nil when it is under no known prefix.
    func theengsTopic(_ segments: [String]) -> TheengsTopic? {
        let count = segments.count
        for position in [count - 2, count - 1] where position >= 1 && segments[position] == "BTtoMQTT" {
            let prefix = segments[..<(position - 1)].joined(separator: "/")
            if prefixIsKnown(prefix) { return .sighting(gateway: segments[position - 1]) }
        }
        let topic = segments.joined(separator: "/")
        for prefix in configuration.theengsPrefixes where !prefix.isEmpty && topic.hasPrefix(prefix + "/") {
            return .other
        }
        return nil
    }

    /// Whether `prefix` (the segments before `<gateway>`, joined) is one of the configured prefixes.
    private func prefixIsKnown(_ prefix: String) -> Bool {
        configuration.theengsPrefixes.isEmpty || configuration.theengsPrefixes.contains(prefix)
    }
}
