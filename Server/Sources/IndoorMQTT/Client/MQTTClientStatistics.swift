/// Counters of an `MQTTClient` since it was made, for metrics.
public struct MQTTClientStatistics: Sendable, Hashable {
    /// PUBLISH packets received from the broker (redeliveries included).
    public var messagesReceived: Int = 0
    /// QoS 1 messages acknowledged (PUBACK sent) after the handler returned.
    public var messagesAcknowledged: Int = 0
    /// Messages handed to the handler.
    public var messagesDelivered: Int = 0
    /// Messages published by `publish` (QoS 1: acknowledged by the broker).
    public var messagesPublished: Int = 0
    /// Messages `publish` did not send because a limit the broker announced forbids them (MQTT 5 Maximum Packet
    /// Size, Maximum QoS, Retain Available).
    public var messagesRefusedForLimits: Int = 0
    /// The most QoS 1 publishes that were unacknowledged at once (with MQTT 5, at most the broker's Receive Maximum).
    public var largestInFlightPublishes: Int = 0
    /// Connections accepted by the broker (CONNACK success).
    public var connectionsEstablished: Int = 0
    /// Connection attempts after a lost or failed connection.
    public var reconnectAttempts: Int = 0

    public init() {}
}
