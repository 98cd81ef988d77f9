import Foundation
import Synchronization

/// The work of `indoor gateway` apart from its command line: a thread reads and decodes the input into batches
/// queued on disk; the sending loop offers the oldest queued batch to the forwarder and deletes it once
/// acknowledged, backing off exponentially (0.5 s to 30 s) while the destination cannot be reached.
///
/// Every batch goes through the disk queue, so a batch is either acknowledged, refused for good, dropped for the
/// queue's bound (each counted and said), or still on disk for the next run.
final class GatewayRun: Sendable {
    /// How the run batches and reports.
    struct Settings: Sendable {
        /// The input, a path or `-`.
        var input: String
        /// Follow a regular file at its end (`tail -f`).
        var follow = true
        /// A batch is closed this long after its first sighting, seconds.
        var batchSeconds = 1.0
        /// A batch is closed at this many sightings.
        var batchSize = 500
        /// The status line comes this often, seconds.
        var statusSeconds = 10.0
        /// The shortest and longest wait before trying an unreachable destination again.
        var minimumBackoff: Duration = .milliseconds(500)
        var maximumBackoff: Duration = .seconds(30)
    }

    private struct Shared {
        var pending: [ForwardedSighting] = []
        var pendingSince: ContinuousClock.Instant?
        var counters = GatewayCounters()
        var stopRequested = false
        var inputEnded = false
        var inputFailure: GatewayFailure?
        /// Refusal texts already said (each is said once).
        var refusalsSaid: Set<String> = []
    }

    let settings: Settings
    let queue: DiskQueue
    let forwarder: any SightingForwarder
    let decoder: GatewayDecoder
    private let shared = Mutex(Shared())

    init(settings: Settings, queue: DiskQueue, forwarder: any SightingForwarder, decoder: GatewayDecoder) {
        self.settings = settings
        self.queue = queue
        self.forwarder = forwarder
        self.decoder = decoder
    }

    /// Asks the run to flush what it holds and end (SIGINT, SIGTERM).
    ///
    /// - Returns: false when a stop was asked for already.
    func requestStop() -> Bool {
        shared.withLock { shared in
            defer { shared.stopRequested = true }
            return !shared.stopRequested
        }
    }

    /// The counters now.
    var counters: GatewayCounters { shared.withLock { $0.counters } }

    /// Reads, queues and sends until the input ends or a stop is requested. When the input ended by itself (a FIFO,
    /// standard input, a file not followed) it then keeps sending, backing off, until the queue is empty, the
    /// destination turns the gateway away, or a stop is requested; after a stop it sends at once what it can.
    ///
    /// - Returns: The counters at the end.
    /// - Throws: ``GatewayFailure`` when the input cannot be read or is not btsnoop (after flushing what it read), or
    ///   when the broker refused the connection (the batches stay queued).
    func run() async throws(GatewayFailure) -> GatewayCounters {
        if queue.count > 0 {
            GatewayLog.line(
                "indoor gateway: \(queue.count) batches (\(queue.sightingCount) sightings) queued in "
                    + "'\(queue.folder.path)' by an earlier run are sent first")
        }
        startReader()
        var backoff: Duration = .zero
        var nextAttempt = ContinuousClock.now
        var nextStatus = ContinuousClock.now + .seconds(settings.statusSeconds)
        while true {
            let (stop, ended, age) = shared.withLock { shared in
                (shared.stopRequested, shared.inputEnded, shared.pendingSince.map { ContinuousClock.now - $0 })
            }
            if stop || ended { break }
            if let age, age >= .seconds(settings.batchSeconds) { flushPending() }
            if ContinuousClock.now >= nextAttempt, case (let batch, let sightings)? = queue.oldest() {
                switch await offer(batch, sightings) {
                case .delivered, .refused:
                    if backoff != .zero {
                        GatewayLog.line("indoor gateway: the destination answers again; sending the queued batches")
                    }
                    backoff = .zero
                    continue
                case .retry(let reason), .turnedAway(let reason):
                    if backoff == .zero {
                        GatewayLog.line(
                            "indoor gateway: \(reason); batches are queued in '\(queue.folder.path)' and sent when "
                                + "it answers")
                    }
                    backoff = min(max(backoff * 2, settings.minimumBackoff), settings.maximumBackoff)
                    nextAttempt = ContinuousClock.now + backoff
                }
            }
            if ContinuousClock.now >= nextStatus {
                status()
                nextStatus = ContinuousClock.now + .seconds(settings.statusSeconds)
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        // The reader looks at the stop request between chunks; standard input may block it, so wait briefly only.
        let readerDeadline = ContinuousClock.now + .seconds(2)
        while !shared.withLock({ $0.inputEnded }), ContinuousClock.now < readerDeadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        flushPending()
        let ending = await drain(persistent: !shared.withLock { $0.stopRequested })
        await forwarder.close()
        status()
        if let failure = shared.withLock({ $0.inputFailure }) { throw failure }
        if case .turnedAway(let reason) = ending {
            throw GatewayFailure(
                "\(reason); \(queue.count) batches (\(queue.sightingCount) sightings) stay queued in "
                    + "'\(queue.folder.path)' for the next run")
        }
        return counters
    }

    /// How the sending ended.
    private enum Ending {
        /// Every queued batch was delivered (or refused for good, counted).
        case queueEmpty
        /// The destination could not be reached when a stop was asked for: the batches stay queued.
        case leftQueued
        /// The destination refused this gateway itself (``ForwardOutcome/turnedAway(_:)``).
        case turnedAway(String)
    }

    /// Sends the queued batches, oldest first, until the queue is empty, and says how it ended.
    ///
    /// - Parameter persistent: Whether to keep trying a destination that cannot be reached yet (the input ended by
    ///   itself: a file without `--no-follow`… a FIFO, standard input), backing off, until it takes every batch,
    ///   refuses this gateway, or a stop is asked for (SIGINT, SIGTERM). Otherwise each batch is offered once.
    private func drain(persistent: Bool) async -> Ending {
        var backoff: Duration = .zero
        var waitSaid = false
        while case (let batch, let sightings)? = queue.oldest() {
            switch await offer(batch, sightings) {
            case .delivered, .refused:
                backoff = .zero
                continue
            case .turnedAway(let reason):
                return .turnedAway(reason)
            case .retry(let reason):
                if !persistent || shared.withLock({ $0.stopRequested }) {
                    GatewayLog.line(
                        "indoor gateway: \(reason); \(queue.count) batches (\(queue.sightingCount) sightings) stay "
                            + "queued in '\(queue.folder.path)' for the next run")
                    return .leftQueued
                }
                if !waitSaid {
                    waitSaid = true
                    GatewayLog.line(
                        "indoor gateway: the input ended; \(reason); trying until it takes the \(queue.count) "
                            + "queued batches (SIGINT or SIGTERM leaves them queued for the next run)")
                }
                backoff = min(max(backoff * 2, settings.minimumBackoff), settings.maximumBackoff)
                let deadline = ContinuousClock.now + backoff
                while ContinuousClock.now < deadline, !shared.withLock({ $0.stopRequested }) {
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
        }
        GatewayLog.line("indoor gateway: the queue is empty; ending")
        return .queueEmpty
    }

    /// Sends one queued batch and settles it: deleted when acknowledged or refused, kept otherwise.
    private func offer(_ batch: DiskQueue.Batch, _ sightings: [ForwardedSighting]) async -> ForwardOutcome {
        let outcome = await forwarder.send(sightings)
        switch outcome {
        case .delivered(let rejected, let problem):
            queue.remove(batch)
            shared.withLock {
                $0.counters.sent += sightings.count - rejected
                $0.counters.rejected += rejected
            }
            if let problem, sayOnce("rejected: " + problem) {
                GatewayLog.line(
                    "indoor gateway: the destination rejected \(rejected) sightings of a batch, e.g. \(problem)")
            }
        case .refused(let reason):
            queue.remove(batch)
            shared.withLock { $0.counters.refused += sightings.count }
            if sayOnce(reason) { GatewayLog.line("indoor gateway: \(reason); the batch is dropped") }
        case .retry, .turnedAway:
            break
        }
        return outcome
    }

    /// Whether `text` was not said before (remembering at most 100 texts).
    private func sayOnce(_ text: String) -> Bool {
        shared.withLock { shared in
            guard !shared.refusalsSaid.contains(text) else { return false }
            if shared.refusalsSaid.count < 100 { shared.refusalsSaid.insert(text) }
            return true
        }
    }

    /// Closes the pending batch: writes it to the queue.
    private func flushPending() {
        let batch = shared.withLock { shared in
            defer {
                shared.pending.removeAll(keepingCapacity: true)
                shared.pendingSince = nil
            }
            return shared.pending
        }
        enqueue(batch)
    }

    private func enqueue(_ batch: [ForwardedSighting]) {
        guard !batch.isEmpty else { return }
        do {
            let dropped = try queue.enqueue(batch)
            guard dropped.batches > 0 else { return }
            shared.withLock { $0.counters.dropped += dropped.sightings }
            GatewayLog.line(
                "indoor gateway: the queue is over its bound of \(queue.limitBytes / 1_048_576) MB (--queue-limit): "
                    + "dropped the oldest \(dropped.batches) batches (\(dropped.sightings) sightings)")
        } catch {
            shared.withLock { $0.counters.dropped += batch.count }
            GatewayLog.line("indoor gateway: \(error); \(batch.count) sightings dropped")
        }
    }

    /// The status line.
    private func status() {
        let line = counters.line(
            queuedSightings: queue.sightingCount + shared.withLock { $0.pending.count }, queuedBatches: queue.count,
            queuedBytes: queue.totalBytes)
        GatewayLog.line("indoor gateway: " + line)
    }

    /// Starts the thread that reads and decodes the input.
    private func startReader() {
        let follower = BtsnoopFollower(path: settings.input, follow: settings.follow)
        let batchSize = settings.batchSize
        let thread = Thread { [self] in
            var decoder = self.decoder
            do throws(GatewayFailure) {
                try follower.run(
                    decoder: &decoder, shouldStop: { shared.withLock { $0.stopRequested } },
                    onSighting: { sighting in
                        let full = shared.withLock { shared -> [ForwardedSighting]? in
                            shared.counters.read += 1
                            if shared.pending.isEmpty { shared.pendingSince = ContinuousClock.now }
                            shared.pending.append(sighting)
                            guard shared.pending.count >= batchSize else { return nil }
                            defer {
                                shared.pending.removeAll(keepingCapacity: true)
                                shared.pendingSince = nil
                            }
                            return shared.pending
                        }
                        if let full { enqueue(full) }
                    },
                    onProblem: { GatewayLog.line("indoor gateway: " + $0) },
                    onProgress: { counts in shared.withLock { $0.counters.unresolved = counts.unresolved } })
            } catch {
                shared.withLock { $0.inputFailure = error }
            }
            shared.withLock { $0.inputEnded = true }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
