/// The will (last-will-and-testament) message of a CONNECT: published by the broker when the connection
/// ends without a DISCONNECT (a crash, a lost network, a missed keep-alive).
public struct MQTTWill: Sendable, Hashable {
    /// Topic the broker publishes the will on; no wildcards.
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    /// Whether the broker keeps the will as the topic's retained message.
    public var retain: Bool
    /// MQTT 5 will properties (e.g. Will Delay Interval); ignored for 3.1.1.
    public var properties: MQTTProperties

    public init(
        topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false,
        properties: MQTTProperties = MQTTProperties()
    ) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.properties = properties
    }
}
