/// UNSUBSCRIBE: removes subscriptions by their exact filter strings.
public struct MQTTUnsubscribe: Sendable, Hashable {
    public var packetID: UInt16
    /// At least one topic filter, as subscribed.
    public var topicFilters: [String]
    /// MQTT 5 properties; empty for 3.1.1.
    public var properties: MQTTProperties

    public init(packetID: UInt16, topicFilters: [String], properties: MQTTProperties = MQTTProperties()) {
        self.packetID = packetID
        self.topicFilters = topicFilters
        self.properties = properties
    }
}
