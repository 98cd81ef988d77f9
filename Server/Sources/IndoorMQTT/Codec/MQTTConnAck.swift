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
        let name = reasonName(version: version)
        if let reason = properties.reasonString { return "\(name) (\(hex)): \(reason)" }
        return "\(name) (\(hex))"
    }

    /// The code's name as the specification of `version` gives it, e.g. "bad user name or password".
    public func reasonName(version: MQTTProtocolVersion) -> String {
        switch version {
        case .v3_1_1:
            switch code {
            case 0: "connection accepted"
            case 1: "unacceptable protocol version"
            case 2: "client identifier rejected"
            case 3: "server unavailable"
            case 4: "bad user name or password"
            case 5: "not authorized"
            default: "unknown return code"
            }
        case .v5:
            // 1 to 5 are no MQTT 5 CONNACK reason codes: a broker that only speaks 3.1.1 answers with its return codes.
            (1...5).contains(code)
                ? reasonName(version: .v3_1_1) + " (an MQTT 3.1.1 return code)" : MQTTReasonCode.name(code)
        }
    }

    /// Whether the refusal says the broker does not speak the protocol version asked for (3.1.1 return code 1, MQTT
    /// 5 reason code 0x84): a broker that only knows 3.1.1 answers an MQTT 5 CONNECT so.
    public var refusesProtocolVersion: Bool { code == 0x01 || code == 0x84 }

    /// Whether the refusal may pass by itself (server unavailable or busy, connection rate exceeded), unlike a refusal
    /// of this client (credentials, authorisation, client id, protocol).
    public var isTransientRefusal: Bool { [0x03, 0x88, 0x89, 0x9F].contains(code) }
}
