/// SUBSCRIBE: asks for the messages on one or more topic filters.
public struct MQTTSubscribe: Sendable, Hashable {
    /// One topic filter and its options. Wildcards (`+`, `#`) are part of the string; the broker checks them.
    public struct Subscription: Sendable, Hashable {
        public var topicFilter: String
        /// The highest QoS the client wants messages delivered with.
        public var qos: MQTTQoS
        /// MQTT 5 subscription options byte, bits 2–5 (No Local, Retain As Published, Retain Handling);
        /// must be 0 for 3.1.1. The QoS bits are taken from `qos`.
        public var options: UInt8

        public init(topicFilter: String, qos: MQTTQoS = .atLeastOnce, options: UInt8 = 0) {
            self.topicFilter = topicFilter
            self.qos = qos
            self.options = options
        }
    }

    /// Non-zero packet identifier, echoed by the SUBACK.
    public var packetID: UInt16
    /// At least one subscription.
    public var subscriptions: [Subscription]
    /// MQTT 5 properties; empty for 3.1.1.
    public var properties: MQTTProperties

    public init(packetID: UInt16, subscriptions: [Subscription], properties: MQTTProperties = MQTTProperties()) {
        self.packetID = packetID
        self.subscriptions = subscriptions
        self.properties = properties
    }
}
