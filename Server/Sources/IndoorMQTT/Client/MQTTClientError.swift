/// A failure of `MQTTClient`: not connected, the connection lost, the broker refusing something.
public struct MQTTClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in words, e.g. "the connection was lost before the broker acknowledged (PUBACK) …".
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
