/// One MQTT 5 property: an identifier and a value of the type the specification gives that identifier.
///
/// Every property the specification defines is read (so unknown-to-the-client ones are skipped by their
/// length, not guessed); an identifier it does not define is a protocol error.
public struct MQTTProperty: Sendable, Hashable {
    /// A property value, typed as in MQTT 5 §2.2.2.2.
    public enum Value: Sendable, Hashable {
        case byte(UInt8)
        case twoByteInteger(UInt16)
        case fourByteInteger(UInt32)
        case variableByteInteger(UInt32)
        case string(String)
        case binary([UInt8])
        case stringPair(String, String)
    }

    /// The kind of value an identifier carries.
    enum Kind {
        case byte, twoByteInteger, fourByteInteger, variableByteInteger, string, binary, stringPair
    }

    public static let payloadFormatIndicator: UInt8 = 0x01
    public static let messageExpiryInterval: UInt8 = 0x02
    public static let contentType: UInt8 = 0x03
    public static let responseTopic: UInt8 = 0x08
    public static let correlationData: UInt8 = 0x09
    public static let subscriptionIdentifier: UInt8 = 0x0B
    public static let sessionExpiryInterval: UInt8 = 0x11
    public static let assignedClientIdentifier: UInt8 = 0x12
    public static let serverKeepAlive: UInt8 = 0x13
    public static let authenticationMethod: UInt8 = 0x15
    public static let authenticationData: UInt8 = 0x16
    public static let requestProblemInformation: UInt8 = 0x17
    public static let willDelayInterval: UInt8 = 0x18
    public static let requestResponseInformation: UInt8 = 0x19
    public static let responseInformation: UInt8 = 0x1A
    public static let serverReference: UInt8 = 0x1C
    public static let reasonString: UInt8 = 0x1F
    public static let receiveMaximum: UInt8 = 0x21
    public static let topicAliasMaximum: UInt8 = 0x22
    public static let topicAlias: UInt8 = 0x23
    public static let maximumQoS: UInt8 = 0x24
    public static let retainAvailable: UInt8 = 0x25
    public static let userProperty: UInt8 = 0x26
    public static let maximumPacketSize: UInt8 = 0x27
    public static let wildcardSubscriptionAvailable: UInt8 = 0x28
    public static let subscriptionIdentifierAvailable: UInt8 = 0x29
    public static let sharedSubscriptionAvailable: UInt8 = 0x2A

    /// The property identifier, e.g. `MQTTProperty.sessionExpiryInterval` (0x11).
    public var identifier: UInt8
    public var value: Value

    public init(identifier: UInt8, value: Value) {
        self.identifier = identifier
        self.value = value
    }

    /// The value type the specification gives an identifier, or nil for an identifier it does not define.
    static func kind(of identifier: UInt8) -> Kind? {
        switch identifier {
        case 0x01, 0x17, 0x19, 0x24, 0x25, 0x28, 0x29, 0x2A: .byte
        case 0x13, 0x21, 0x22, 0x23: .twoByteInteger
        case 0x02, 0x11, 0x18, 0x27: .fourByteInteger
        case 0x0B: .variableByteInteger
        case 0x03, 0x08, 0x12, 0x15, 0x1A, 0x1C, 0x1F: .string
        case 0x09, 0x16: .binary
        case 0x26: .stringPair
        default: nil
        }
    }
}
