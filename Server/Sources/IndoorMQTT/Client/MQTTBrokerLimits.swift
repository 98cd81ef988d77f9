/// What an MQTT 5 broker allows this client, as its CONNACK says (MQTT 5 §3.2.2.3); the client keeps to it.
///
/// An MQTT 3.1.1 broker announces nothing: the client then has no limits but its own.
public struct MQTTBrokerLimits: Sendable, Hashable, Encodable {
    /// The largest packet the broker accepts, in bytes, fixed header included (Maximum Packet Size); nil: no limit
    /// but the protocol's. A message whose PUBLISH would be larger is refused before it is sent.
    public var maximumPacketSizeBytes: Int?
    /// The most QoS 1 publishes the broker takes unacknowledged at once (Receive Maximum, 65,535 when not said).
    /// Further QoS 1 publishes wait for a PUBACK.
    public var receiveMaximum: Int
    /// The highest topic alias the broker accepts (Topic Alias Maximum, 0 when not said: none). This client sends
    /// no topic aliases, so it never goes beyond it.
    public var topicAliasMaximum: Int
    /// The highest QoS the broker takes from this client (Maximum QoS; 2 when not said).
    public var maximumQoS: Int
    /// Whether the broker keeps retained messages (Retain Available; true when not said).
    public var retainAvailable: Bool

    public init(
        maximumPacketSizeBytes: Int? = nil, receiveMaximum: Int = 65_535, topicAliasMaximum: Int = 0,
        maximumQoS: Int = 2, retainAvailable: Bool = true
    ) {
        self.maximumPacketSizeBytes = maximumPacketSizeBytes
        self.receiveMaximum = receiveMaximum
        self.topicAliasMaximum = topicAliasMaximum
        self.maximumQoS = maximumQoS
        self.retainAvailable = retainAvailable
    }

    /// The limits a CONNACK's properties announce (the specification's defaults for those it leaves out).
    public init(connAck properties: MQTTProperties) {
        self.init()
        if case .fourByteInteger(let value) = properties.first(MQTTProperty.maximumPacketSize), value > 0 {
            maximumPacketSizeBytes = Int(value)
        }
        if case .twoByteInteger(let value) = properties.first(MQTTProperty.receiveMaximum), value > 0 {
            receiveMaximum = Int(value)
        }
        if case .twoByteInteger(let value) = properties.first(MQTTProperty.topicAliasMaximum) {
            topicAliasMaximum = Int(value)
        }
        if case .byte(let value) = properties.first(MQTTProperty.maximumQoS), value <= 2 { maximumQoS = Int(value) }
        if case .byte(let value) = properties.first(MQTTProperty.retainAvailable) { retainAvailable = value != 0 }
    }
}
