/// The MQTT protocol version spoken on a connection; the raw value is the CONNECT packet's protocol level.
public enum MQTTProtocolVersion: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// MQTT 3.1.1 (OASIS standard, 2014), protocol level 4.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case v3_1_1 = 4
    /// MQTT 5.0 (OASIS standard, 2019), protocol level 5: adds properties and reason codes.
    case v5 = 5

    public var description: String {
        switch self {
        case .v3_1_1: "MQTT 3.1.1"
        case .v5: "MQTT 5"
        }
    }
}
