/// PUBLISH: an application message, in either direction.
public struct MQTTPublish: Sendable, Hashable {
    /// Topic name (no wildcards). May be empty in MQTT 5 when a topic alias stands for it.
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    /// Retain flag: from the client, keep as the topic's retained message; from the broker, this message is
    /// a retained one sent because of a new subscription.
    public var retain: Bool
    /// DUP flag: this may be a redelivery of an earlier attempt. Always false for QoS 0.
    public var duplicate: Bool
    /// Packet identifier for QoS 1 and 2 (non-zero); nil for QoS 0.
    public var packetID: UInt16?
    /// MQTT 5 PUBLISH properties; empty for 3.1.1.
    public var properties: MQTTProperties

    public init(
        topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false,
        duplicate: Bool = false, packetID: UInt16? = nil, properties: MQTTProperties = MQTTProperties()
    ) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.duplicate = duplicate
        self.packetID = packetID
        self.properties = properties
    }
}
