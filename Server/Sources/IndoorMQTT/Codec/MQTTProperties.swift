/// The properties of an MQTT 5 packet, in the order they were read or are to be written.
///
/// Empty for MQTT 3.1.1 packets, which have none (and are written without a properties field).
public struct MQTTProperties: Sendable, Hashable {
    public var all: [MQTTProperty]

    public init(_ all: [MQTTProperty] = []) {
        self.all = all
    }

    public var isEmpty: Bool { all.isEmpty }

    /// The first value for an identifier, if present.
    public func first(_ identifier: UInt8) -> MQTTProperty.Value? {
        all.first { $0.identifier == identifier }?.value
    }

    /// Session Expiry Interval in seconds (CONNECT, CONNACK, DISCONNECT): how long the broker keeps the session
    /// after the connection closes. 0 or absent: the session ends with the connection; `UInt32.max`: never.
    public var sessionExpiryIntervalSeconds: UInt32? {
        get {
            if case .fourByteInteger(let value) = first(MQTTProperty.sessionExpiryInterval) { return value }
            return nil
        }
        set { set(MQTTProperty.sessionExpiryInterval, newValue.map { .fourByteInteger($0) }) }
    }

    /// Message Expiry Interval in seconds (PUBLISH): how long the broker keeps the message; from the broker, what is
    /// left of it.
    public var messageExpiryIntervalSeconds: UInt32? {
        if case .fourByteInteger(let value) = first(MQTTProperty.messageExpiryInterval) { return value }
        return nil
    }

    /// Reason String: a human-readable explanation a broker may add to an acknowledgement or DISCONNECT.
    public var reasonString: String? {
        if case .string(let value) = first(MQTTProperty.reasonString) { return value }
        return nil
    }

    /// Server Keep Alive in seconds (CONNACK): the keep-alive the broker wants instead of the client's.
    public var serverKeepAliveSeconds: UInt16? {
        if case .twoByteInteger(let value) = first(MQTTProperty.serverKeepAlive) { return value }
        return nil
    }

    /// Topic Alias (PUBLISH): a number standing for a topic on this connection.
    public var topicAlias: UInt16? {
        if case .twoByteInteger(let value) = first(MQTTProperty.topicAlias) { return value }
        return nil
    }

    /// Assigned Client Identifier (CONNACK): the id the broker chose when the client sent an empty one.
    public var assignedClientIdentifier: String? {
        if case .string(let value) = first(MQTTProperty.assignedClientIdentifier) { return value }
        return nil
    }

    /// Replaces every property with this identifier by one with the value (or removes them for nil).
    public mutating func set(_ identifier: UInt8, _ value: MQTTProperty.Value?) {
        all.removeAll { $0.identifier == identifier }
        if let value { all.append(MQTTProperty(identifier: identifier, value: value)) }
    }
}
