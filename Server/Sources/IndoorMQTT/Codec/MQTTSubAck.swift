/// SUBACK: the broker's answer to SUBSCRIBE, one code per requested filter in the same order.
public struct MQTTSubAck: Sendable, Hashable {
    public var packetID: UInt16
    /// 0, 1, 2: the QoS granted; 0x80 and above: the subscription failed (3.1.1 has only 0x80; MQTT 5 gives
    /// the reason, see `MQTTReasonCode.name`).
    public var codes: [UInt8]
    /// MQTT 5 properties; empty for 3.1.1.
    public var properties: MQTTProperties

    public init(packetID: UInt16, codes: [UInt8], properties: MQTTProperties = MQTTProperties()) {
        self.packetID = packetID
        self.codes = codes
        self.properties = properties
    }

    /// The granted QoS of each filter, or nil where the subscription failed.
    public var grantedQoS: [MQTTQoS?] {
        codes.map { $0 < 0x80 ? MQTTQoS(rawValue: $0) : nil }
    }
}
