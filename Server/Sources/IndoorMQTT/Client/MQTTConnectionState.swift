/// Where an `MQTTClient` is, for health checks.
public enum MQTTConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Connecting, or connected and waiting for CONNACK or the SUBACKs.
    case connecting
    /// CONNACK accepted and every subscription acknowledged: messages flow.
    case connected
    /// Not connected; the reason says why (the last error, or "stopped"). `run` retries unless stopped.
    case disconnected(reason: String)

    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .connected: "connected"
        case .disconnected(let reason): "disconnected: \(reason)"
        }
    }
}
