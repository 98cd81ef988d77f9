/// What the broker said of this client's connections, for logs and health pages: the protocol version in use, the
/// limits it announced, and the reason codes of its last CONNACK and DISCONNECT.
public struct MQTTBrokerReport: Sendable, Hashable {
    /// The version of the current connection, or the one the next connection tries.
    public var protocolVersion: MQTTProtocolVersion
    /// Why MQTT 3.1.1 is spoken though MQTT 5 was asked for (the broker refused MQTT 5); nil otherwise.
    public var fallBackReason: String?
    /// The limits of the last accepted MQTT 5 CONNACK; nil with MQTT 3.1.1 or before any connection.
    public var limits: MQTTBrokerLimits?
    /// The reason (return) code of the last CONNACK.
    public var connAck: MQTTReason?
    /// The reason code of the last DISCONNECT the broker sent (MQTT 5 only: a 3.1.1 broker just closes).
    public var brokerDisconnect: MQTTReason?
    /// Why the broker refused the last connection, when it did and retrying as such is unlikely to help (bad
    /// credentials, not authorised, protocol refused); nil once a connection is accepted.
    public var connectRefusal: String?

    public init(protocolVersion: MQTTProtocolVersion) {
        self.protocolVersion = protocolVersion
    }
}

/// A reason code and its meaning, e.g. 0x95 "packet too large".
public struct MQTTReason: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// The code as sent (MQTT 5 reason code, or MQTT 3.1.1 CONNACK return code).
    public var code: Int
    /// The specification's name of the code, with the broker's Reason String when it sent one.
    public var reason: String

    public init(code: UInt8, reason: String) {
        self.code = Int(code)
        self.reason = reason
    }

    public var description: String { "\(reason) (0x\(String(code, radix: 16, uppercase: true)))" }
}
