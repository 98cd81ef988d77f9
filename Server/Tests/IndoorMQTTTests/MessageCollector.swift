import IndoorMQTT
import IndoorServerTestSupport
import Synchronization
import Testing

/// Collects the batches a client delivers, for a test to wait on.
final class MessageCollector: Sendable {
    private let batches = Mutex<[[MQTTMessage]]>([])

    var messages: [MQTTMessage] { batches.withLock { $0.flatMap { $0 } } }

    var topics: [String] { messages.map(\.topic) }

    var payloads: [String] { messages.map { String(decoding: $0.payload, as: UTF8.self) } }

    func append(_ batch: [MQTTMessage]) {
        batches.withLock { $0.append(batch) }
    }
}

/// Waits until `condition` holds, polling every 20 ms; fails the test after `timeout` (generous: the machines
/// running the tests are shared and slow).
func eventually(
    _ what: String, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
            throw BrokerError("timed out waiting for \(what)")
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}
