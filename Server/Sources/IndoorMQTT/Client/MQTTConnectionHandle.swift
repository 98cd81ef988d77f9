import NIOCore
import Synchronization

/// One TCP (or TLS) connection to the broker, shared by its reader, keep-alive and delivery loops and by
/// `MQTTClient.publish`.
final class MQTTConnectionHandle: Sendable {
    private struct State {
        var pingOutstanding = false
        var readerPaused = false
        var endReason: String?
    }

    let channel: any Channel
    private let state = Mutex(State())

    init(channel: any Channel) {
        self.channel = channel
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
