/// PUBACK: acknowledges a QoS 1 PUBLISH, in either direction.
public struct MQTTPubAck: Sendable, Hashable {
    public var packetID: UInt16
    /// MQTT 5 reason code (0 success, 0x10 no matching subscribers, ≥ 0x80 failure); 0 for 3.1.1.
    public var reasonCode: UInt8
    /// MQTT 5 properties; empty for 3.1.1.
    public var properties: MQTTProperties

    public init(packetID: UInt16, reasonCode: UInt8 = 0, properties: MQTTProperties = MQTTProperties()) {
        self.packetID = packetID
        self.reasonCode = reasonCode
        self.properties = properties
    }
}
