/// The MQTT control packet types: the high four bits of a packet's first byte.
public enum MQTTPacketType: UInt8, Sendable, Hashable, CustomStringConvertible {
    case connect = 1
    case connAck = 2
    case publish = 3
    case pubAck = 4
    case pubRec = 5
    case pubRel = 6
    case pubComp = 7
    case subscribe = 8
    case subAck = 9
    case unsubscribe = 10
    case unsubAck = 11
    case pingReq = 12
    case pingResp = 13
    case disconnect = 14
    case auth = 15

    /// The name used in the specification, e.g. `"PUBLISH"`.
    public var description: String {
        switch self {
        case .connect: "CONNECT"
        case .connAck: "CONNACK"
        case .publish: "PUBLISH"
        case .pubAck: "PUBACK"
        case .pubRec: "PUBREC"
        case .pubRel: "PUBREL"
        case .pubComp: "PUBCOMP"
        case .subscribe: "SUBSCRIBE"
        case .subAck: "SUBACK"
        case .unsubscribe: "UNSUBSCRIBE"
        case .unsubAck: "UNSUBACK"
        case .pingReq: "PINGREQ"
        case .pingResp: "PINGRESP"
        case .disconnect: "DISCONNECT"
        case .auth: "AUTH"
        }
    }
}
