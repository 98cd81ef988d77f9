import Foundation
import Logging
import Synchronization

/// The audit log's writer: entries are appended to a buffer as requests are answered and written to the store in
/// the background, a batch per transaction (one write at a time), so that a read does not wait for a write.
///
/// At most ``capacity`` entries wait; beyond that new ones are dropped and counted (``dropped``), and the log says so.
/// ``flush()`` returns once every entry given before it is stored (`GET /v1/audit` flushes before reading).
public final class AuditLog: Sendable {
    /// The most entries waiting to be written.
    public static let capacity = 10_000

    private struct State {
        var waiting: [AuditEntry] = []
        var writer: Task<Void, Never>?
        var dropped = 0
    }

    private let store: any LocationStore
    private let logger: Logger
    private let state = Mutex(State())

    /// A log writing to `store`, saying problems to `logger`.
    public init(store: any LocationStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Entries dropped since the start because too many were waiting.
    public var dropped: Int { state.withLock { $0.dropped } }

    /// Queues `entry` to be written.
    public func record(_ entry: AuditEntry) {
        state.withLock { state in
            guard state.waiting.count < Self.capacity else {
                state.dropped += 1
                if state.dropped == 1 || state.dropped % 1000 == 0 {
                    logger.error(
                        "audit log: entries dropped, the store does not keep up",
                        metadata: ["dropped": "\(state.dropped)"])
                }
                return
            }
            state.waiting.append(entry)
            if state.writer == nil { state.writer = Task { await self.write() } }
        }
    }

    /// Returns once every entry recorded before the call is stored (or failed to be).
    public func flush() async {
        while let writer = state.withLock({ $0.writer }) { await writer.value }
    }

    /// Writes the waiting entries until none is left, then ends (the next ``record(_:)`` starts a writer again).
    private func write() async {
        while true {
            let batch = state.withLock { state -> [AuditEntry] in
                let batch = state.waiting
                state.waiting = []
                if batch.isEmpty { state.writer = nil }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                try await store.appendAudit(batch)
            } catch {
                logger.error(
                    "audit log: entries could not be stored",
                    metadata: ["entries": "\(batch.count)", "error": "\(error)"])
            }
        }
    }
}
