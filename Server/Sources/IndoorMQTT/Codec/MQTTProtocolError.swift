/// Malformed or unsupported MQTT bytes, or a packet that cannot be encoded.
///
/// The message names the packet type (when known), the byte offset from the start of the packet (its first
/// byte, the fixed header's type and flags, is offset 0) and what was wrong, so a log line is enough to find
/// the fault in a capture.
public struct MQTTProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The packet type, e.g. `"PUBLISH"`, or nil when the first byte could not be read as one.
    public var packetType: String?
    /// Offset in bytes from the packet's first byte where the problem was found, or nil (encoding).
    public var offset: Int?
    /// What was wrong, in words.
    public var problem: String

    public init(packetType: String?, offset: Int?, problem: String) {
        self.packetType = packetType
        self.offset = offset
        self.problem = problem
    }

    public var description: String {
        var text = "MQTT protocol error"
        if let packetType { text += " in \(packetType)" }
        if let offset { text += " at byte \(offset)" }
        return text + ": \(problem)"
    }
}
