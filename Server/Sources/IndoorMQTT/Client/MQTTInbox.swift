import NIOCore
import Synchronization

/// Messages received on one connection and not yet handed to the handler, in arrival order.
///
/// The connection's reader appends (and waits while `capacity` messages are held, so the socket is no
/// longer read: back-pressure); the delivery loop takes batches. Closing drops what is held: QoS 1 messages
/// not acknowledged are redelivered by the broker on the next connection.
final class MQTTInbox: Sendable {
    /// A message and, for QoS 1, the packet identifier to acknowledge.
    struct Entry: Sendable {
        var message: MQTTMessage
        var packetID: UInt16?
    }

    private struct State {
        var entries = CircularBuffer<Entry>()
        var isClosed = false
        var waitingConsumer: CheckedContinuation<Void, Never>?
        var waitingProducer: CheckedContinuation<Void, Never>?
        var consumerFinished = false
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { state.withLock { $0.entries.count } }

    /// Whether the consumer (the delivery loop) has stopped taking batches, its last batch settled.
    var isConsumerFinished: Bool { state.withLock { $0.consumerFinished } }

    /// Said by the consumer when it stops taking batches.
    func finishConsumer() {
        state.withLock { $0.consumerFinished = true }
    }

    /// Appends an entry, first waiting while the inbox is full. Returns false if it was closed (or the task
    /// cancelled) instead.
    func append(_ entry: Entry) async -> Bool {
        while true {
            let full: Bool? = state.withLock { state in
                if state.isClosed { return nil }
                if state.entries.count >= capacity { return true }
                state.entries.append(entry)
                let consumer = state.waitingConsumer
                state.waitingConsumer = nil
                consumer?.resume()
                return false
            }
            guard let full else { return false }
            if !full { return true }
            if Task.isCancelled { return false }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let resumeNow = state.withLock { state in
                        if state.isClosed || state.entries.count < capacity { return true }
                        state.waitingProducer = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                state.withLock { state in
                    let producer = state.waitingProducer
                    state.waitingProducer = nil
                    return producer
                }?.resume()
            }
        }
    }

    /// Takes up to `maximumCount` entries, waiting until there is at least one; nil once closed or cancelled.
    func nextBatch(maximumCount: Int) async -> [Entry]? {
        while true {
            let batch: [Entry]? = state.withLock { state in
                if state.isClosed { return nil }
                let count = min(maximumCount, state.entries.count)
                if count == 0 { return [] }
                let batch = Array(state.entries.prefix(count))
                state.entries.removeFirst(count)
                let producer = state.waitingProducer
                state.waitingProducer = nil
                producer?.resume()
                return batch
            }
            guard let batch else { return nil }
            if !batch.isEmpty { return batch }
            if Task.isCancelled { return nil }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let resumeNow = state.withLock { state in
                        if state.isClosed || !state.entries.isEmpty { return true }
                        state.waitingConsumer = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                state.withLock { state in
                    let consumer = state.waitingConsumer
                    state.waitingConsumer = nil
                    return consumer
                }?.resume()
            }
        }
    }

    /// Drops what is held and wakes both sides; later appends and batches return at once.
    func close() {
        let (consumer, producer) = state.withLock { state in
            state.isClosed = true
            state.entries.removeAll()
            defer {
                state.waitingConsumer = nil
                state.waitingProducer = nil
            }
            return (state.waitingConsumer, state.waitingProducer)
        }
        consumer?.resume()
        producer?.resume()
    }
}
