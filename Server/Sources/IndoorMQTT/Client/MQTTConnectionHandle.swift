import NIOCore
import Synchronization

/// One TCP (or TLS) connection to the broker, shared by its reader, keep-alive and delivery loops and by
/// `MQTTClient.publish`.
final class MQTTConnectionHandle: Sendable {
    private struct State {
        var pingOutstanding = false
        var readerPaused = false
        var endReason: String?
        /// QoS 1 publishes sent (or about to be) and not yet settled.
        var inFlight = 0
        /// Publishes waiting for an in-flight slot, by ticket.
        var slotWaiters: [(ticket: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextTicket = 0
        /// Set once the connection is over: slots are no longer given.
        var slotsClosed: MQTTClientError?
    }

    let channel: any Channel
    /// The protocol version spoken on this connection.
    let version: MQTTProtocolVersion
    private let state = Mutex(State())

    init(channel: any Channel, version: MQTTProtocolVersion) {
        self.channel = channel
        self.version = version
    }

    /// Takes one of `limit` in-flight slots for a QoS 1 publish (the broker's Receive Maximum), waiting while all are
    /// taken; give it back with `releasePublishSlot()` once the publish is settled.
    /// - Throws: `MQTTClientError` once the connection is over, `CancellationError` when the task is cancelled.
    func acquirePublishSlot(limit: Int) async throws {
        let ticket: Int? = try state.withLock { state in
            if let closed = state.slotsClosed { throw closed }
            if state.inFlight < limit && state.slotWaiters.isEmpty {
                state.inFlight += 1
                return nil
            }
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
        guard let ticket else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let failure: (any Error)? = state.withLock { state in
                    if let closed = state.slotsClosed { return closed }
                    if Task.isCancelled { return CancellationError() }
                    state.slotWaiters.append((ticket, continuation))
                    return nil
                }
                if let failure { continuation.resume(throwing: failure) }
                // A slot may have come free before the waiter was listed.
                self.handOutSlots(limit: limit)
            }
        } onCancel: {
            state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.slotWaiters.firstIndex(where: { $0.ticket == ticket }) else { return nil }
                return state.slotWaiters.remove(at: index).continuation
            }?.resume(throwing: CancellationError())
        }
    }

    /// Gives back a slot taken by `acquirePublishSlot(limit:)` and hands it to the first waiter.
    func releasePublishSlot(limit: Int) {
        state.withLock { $0.inFlight = max(0, $0.inFlight - 1) }
        handOutSlots(limit: limit)
    }

    private func handOutSlots(limit: Int) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            var ready: [CheckedContinuation<Void, any Error>] = []
            while state.inFlight < limit, !state.slotWaiters.isEmpty {
                state.inFlight += 1
                ready.append(state.slotWaiters.removeFirst().continuation)
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// The connection is over: publishes waiting for a slot fail with `error`, and later ones at once.
    func closeSlots(_ error: MQTTClientError) {
        let waiters = state.withLock { state in
            state.slotsClosed = error
            defer { state.slotWaiters.removeAll() }
            return state.slotWaiters
        }
        for waiter in waiters { waiter.continuation.resume(throwing: error) }
    }

    /// Why the connection ended, when it was ended on purpose (keep-alive timeout, handshake timeout, stop).
    var endReason: String? { state.withLock { $0.endReason } }

    /// Writes and flushes one packet; throws if the connection is closed.
    func send(_ packet: MQTTPacket) async throws {
        try await channel.writeAndFlush(packet).get()
    }

    /// Writes several packets with one flush; throws if the connection is closed.
    func send(contentsOf packets: [MQTTPacket]) async throws {
        guard let last = packets.last else { return }
        for packet in packets.dropLast() { channel.write(packet, promise: nil) }
        try await channel.writeAndFlush(last).get()
    }

    /// Closes the connection, remembering the first reason given.
    func end(reason: String) {
        state.withLock { state in
            if state.endReason == nil { state.endReason = reason }
        }
        channel.close(promise: nil)
    }

    /// Records that a PINGREQ is about to be sent.
    func pingSent() {
        state.withLock { $0.pingOutstanding = true }
    }

    /// Records a PINGRESP.
    func pingAnswered() {
        state.withLock { $0.pingOutstanding = false }
    }

    /// Whether the last PINGREQ is still unanswered. While the reader is paused by back-pressure the answer
    /// cannot be read, so it is never overdue then.
    var isPingOverdue: Bool {
        state.withLock { $0.pingOutstanding && !$0.readerPaused }
    }

    /// The reader stops (true) or resumes (false) taking packets because the inbox is full. Resuming gives an
    /// outstanding PINGREQ a new interval, since its PINGRESP may be queued behind the messages not yet read.
    func setReaderPaused(_ paused: Bool) {
        state.withLock { state in
            state.readerPaused = paused
            if !paused { state.pingOutstanding = false }
        }
    }
}
