/// How long `MQTTClient` waits before connecting again after a lost or failed connection: doubling from
/// `minimum` up to `maximum`, each delay with random jitter (between half and all of it) so that many clients
/// do not reconnect in step. The doubling restarts once a connection has been accepted.
public struct MQTTReconnectBackoff: Sendable, Hashable {
    public var minimum: Duration
    public var maximum: Duration

    public init(minimum: Duration = .milliseconds(500), maximum: Duration = .seconds(30)) {
        self.minimum = minimum
        self.maximum = max(minimum, maximum)
    }

    /// The delay before attempt number `attempt` (0 for the first retry), jitter included.
    public func delay(attempt: Int, using random: inout some RandomNumberGenerator) -> Duration {
        var delay = minimum
        for _ in 0..<min(attempt, 32) where delay < maximum { delay *= 2 }
        delay = min(delay, maximum)
        return delay * Double.random(in: 0.5...1, using: &random)
    }
}
