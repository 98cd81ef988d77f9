/// CONNACK: the broker's answer to CONNECT.
public struct MQTTConnAck: Sendable, Hashable {
    /// Whether the broker resumed a session it held for this client id (subscriptions and queued messages).
    public var sessionPresent: Bool
    /// Return code (3.1.1) or reason code (5); 0 is success. See `reasonDescription`.
    public var code: UInt8
    /// MQTT 5 CONNACK properties (e.g. Server Keep Alive, Reason String); empty for 3.1.1.
    public var properties: MQTTProperties

    public init(sessionPresent: Bool, code: UInt8, properties: MQTTProperties = MQTTProperties()) {
        self.sessionPresent = sessionPresent
        self.code = code
        self.properties = properties
    }

    /// Whether the connection was accepted.
    public var isAccepted: Bool { code == 0 }

    /// The code in words, as the specification of `version` names it, e.g. "bad user name or password (0x86)".
    public func reasonDescription(version: MQTTProtocolVersion) -> String {
        let hex = "0x" + String(code, radix: 16, uppercase: true)
        let name: String
        switch version {
        case .v3_1_1:
            switch code {
            case 0: name = "connection accepted"
            case 1: name = "unacceptable protocol version"
            case 2: name = "client identifier rejected"
            case 3: name = "server unavailable"
            case 4: name = "bad user name or password"
            case 5: name = "not authorized"
            default: name = "unknown return code"
            }
        case .v5:
            name = MQTTReasonCode.name(code)
        }
        if let reason = properties.reasonString { return "\(name) (\(hex)): \(reason)" }
        return "\(name) (\(hex))"
    }
}
