/// UNSUBACK: the broker's answer to UNSUBSCRIBE.
public struct MQTTUnsubAck: Sendable, Hashable {
    public var packetID: UInt16
    /// MQTT 5: one reason code per filter (0 success, 0x11 no subscription existed, ≥ 0x80 failure);
    /// always empty for 3.1.1.
    public var reasonCodes: [UInt8]
    /// MQTT 5 properties; empty for 3.1.1.
    public var properties: MQTTProperties

    public init(packetID: UInt16, reasonCodes: [UInt8] = [], properties: MQTTProperties = MQTTProperties()) {
        self.packetID = packetID
        self.reasonCodes = reasonCodes
        self.properties = properties
    }
}
