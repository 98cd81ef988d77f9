/// DISCONNECT: a clean end of the connection (from the client; in MQTT 5 also from the broker, with a reason).
public struct MQTTDisconnect: Sendable, Hashable {
    /// MQTT 5 reason code (0 normal disconnection, 0x04 with will message, ≥ 0x80 error); 0 for 3.1.1.
    public var reasonCode: UInt8
    /// MQTT 5 properties (e.g. Session Expiry Interval, Reason String); empty for 3.1.1.
    public var properties: MQTTProperties

    public init(reasonCode: UInt8 = 0, properties: MQTTProperties = MQTTProperties()) {
        self.reasonCode = reasonCode
        self.properties = properties
    }
}
