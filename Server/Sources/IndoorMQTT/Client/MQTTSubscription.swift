/// A topic filter to subscribe to, with the highest QoS wanted.
public struct MQTTSubscription: Sendable, Hashable {
    /// A topic filter; `+` matches one level and `#` the rest (e.g. `espresense/devices/+/+`, `home/#`).
    public var topicFilter: String
    /// QoS 1 (the default): each message is acknowledged only after the handler has returned.
    public var qos: MQTTQoS

    public init(_ topicFilter: String, qos: MQTTQoS = .atLeastOnce) {
        self.topicFilter = topicFilter
        self.qos = qos
    }
}
