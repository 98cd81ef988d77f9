import Foundation
import Synchronization

/// The hub's learning from site surveys, done in the background on a thread of its own, one piece at a time (a
/// piece spreads its own work over the cores), in the order asked, so that a venue is served while it learns and
/// learning never takes more than the one piece's share of the machine.
///
/// A piece is asked for under a key (the venue id); asking again under the same key replaces a piece still waiting
/// (a venue put again need not learn its old version first).
final class LearningQueue: Sendable {
    private struct Piece: Sendable {
        let key: String
        let work: @Sendable () -> Void
    }

    private struct State: Sendable {
        var waiting: [Piece] = []
        /// The key of the piece running now.
        var running: String?
        /// Whether a task is running the pieces (it takes each next one until none is left).
        var draining = false
        var waiters: [(key: String, continuation: CheckedContinuation<Void, Never>)] = []

        func pending(_ key: String) -> Bool { running == key || waiting.contains { $0.key == key } }
    }

    private let state = Mutex(State())

    /// Runs `work` on the learning thread after the pieces asked for before it, in place of a piece of `key` still
    /// waiting.
    func schedule(key: String, _ work: @escaping @Sendable () -> Void) {
        let start = state.withLock { state -> Bool in
            state.waiting.removeAll { $0.key == key }
            state.waiting.append(Piece(key: key, work: work))
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        guard start else { return }
        // A thread of its own: a piece computes for seconds (minutes in a debug build), which would hold one of the
        // few threads Swift's tasks share (the server's requests run on them).
        let thread = Thread { [self] in drain() }
        thread.name = "indoor.learning"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// Returns once no piece of `key` is waiting or running.
    func finished(_ key: String) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                guard state.pending(key) else { return true }
                state.waiters.append((key, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Runs the waiting pieces one after the other until none is left.
    private func drain() {
        while true {
            let piece = state.withLock { state -> Piece? in
                guard !state.waiting.isEmpty else {
                    state.draining = false
                    return nil
                }
                let piece = state.waiting.removeFirst()
                state.running = piece.key
                return piece
            }
            guard let piece else { return }
            piece.work()
            let done = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.running = nil
                let current = state
                let ready = current.waiters.filter { !current.pending($0.key) }
                state.waiters = current.waiters.filter { current.pending($0.key) }
                return ready.map(\.continuation)
            }
            for continuation in done { continuation.resume() }
        }
    }
}
