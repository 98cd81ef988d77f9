/// Quality of service of a PUBLISH or a subscription.
///
/// The codec reads and writes all three levels; the client publishes and subscribes with 0 or 1 only.
public enum MQTTQoS: UInt8, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Fire and forget: no acknowledgement, lost if the connection drops.
    case atMostOnce = 0
    /// Acknowledged with PUBACK; redelivered (possibly twice) until acknowledged.
    case atLeastOnce = 1
    /// Four-way handshake (PUBREC, PUBREL, PUBCOMP); not used by `MQTTClient`.
    case exactlyOnce = 2

    public static func < (lhs: MQTTQoS, rhs: MQTTQoS) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "QoS \(rawValue)" }
}
