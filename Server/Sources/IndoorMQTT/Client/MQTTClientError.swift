/// A failure of `MQTTClient`: not connected, the connection lost, the broker refusing something.
public struct MQTTClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure, for callers that act on it (count a refusal, retry a lost connection).
    public enum Code: String, Sendable, Hashable {
        /// Not connected to the broker (or the connection was lost) when the message was to be sent; sending it
        /// again once connected may work.
        case notConnected
        /// The connection was lost before the broker acknowledged the message: it may or may not have been delivered.
        case connectionLost
        /// The broker acknowledged the message with an error reason code (MQTT 5).
        case refusedByBroker
        /// Not sent: the message breaks a limit the broker announced in its CONNACK (MQTT 5 Maximum Packet Size,
        /// Maximum QoS, Retain Available). Sending it again would not help.
        case brokerLimit
        /// Anything else: misuse of the client, a setup problem.
        case other
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, in words, e.g. "the connection was lost before the broker acknowledged (PUBACK) …".
    public var message: String

    public init(_ message: String) {
        self.init(.other, message)
    }

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
