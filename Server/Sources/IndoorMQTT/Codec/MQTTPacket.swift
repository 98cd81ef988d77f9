/// One MQTT control packet, as decoded by `MQTTPacketDecoder` or to be encoded with `encode(version:)`.
///
/// QoS 2 (PUBREC, PUBREL, PUBCOMP) and AUTH are not modelled: the decoder reports them as unsupported.
public enum MQTTPacket: Sendable, Hashable {
    case connect(MQTTConnect)
    case connAck(MQTTConnAck)
    case publish(MQTTPublish)
    case pubAck(MQTTPubAck)
    case subscribe(MQTTSubscribe)
    case subAck(MQTTSubAck)
    case unsubscribe(MQTTUnsubscribe)
    case unsubAck(MQTTUnsubAck)
    case pingReq
    case pingResp
    case disconnect(MQTTDisconnect)

    /// The packet's type.
    public var type: MQTTPacketType {
        switch self {
        case .connect: .connect
        case .connAck: .connAck
        case .publish: .publish
        case .pubAck: .pubAck
        case .subscribe: .subscribe
        case .subAck: .subAck
        case .unsubscribe: .unsubscribe
        case .unsubAck: .unsubAck
        case .pingReq: .pingReq
        case .pingResp: .pingResp
        case .disconnect: .disconnect
        }
    }
}
