/// An application message received on a subscription.
public struct MQTTMessage: Sendable, Hashable {
    public var topic: String
    public var payload: [UInt8]
    /// QoS the broker delivered it with (at most the subscription's).
    public var qos: MQTTQoS
    /// A retained message, sent because a subscription was made (not a new publication).
    public var retain: Bool
    /// The broker may have delivered this message before (a redelivery after a lost acknowledgement).
    public var duplicate: Bool
    /// MQTT 5: the seconds left of the message's Message Expiry Interval, when it has one (`nil` under 3.1.1).
    public var messageExpirySeconds: UInt32?

    public init(
        topic: String, payload: [UInt8], qos: MQTTQoS, retain: Bool = false, duplicate: Bool = false,
        messageExpirySeconds: UInt32? = nil
    ) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.duplicate = duplicate
        self.messageExpirySeconds = messageExpirySeconds
    }
}
