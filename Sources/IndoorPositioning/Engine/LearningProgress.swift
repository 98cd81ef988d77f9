import Foundation

/// Tells an observer how far a long phase of learning has got (the radio map's cross-validation, the replays of the
/// survey's walks) as each of its parts finishes, on whichever core finished it.
///
/// The observer is told the phase's name, the parts done and the parts in all: once with none done when a phase
/// begins, then after each part. Calls come one at a time (under a lock), so an observer may write to a terminal
/// without locking of its own; parts finish in any order, the count only grows. What is learned does not depend on
/// whether anyone watches.
public final class LearningProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let observer: @Sendable (_ phase: String, _ done: Int, _ total: Int) -> Void
    private var phase = ""
    private var done = 0
    private var total = 0

    /// Progress told to `observer` (phase, parts done, parts in all).
    public init(_ observer: @escaping @Sendable (_ phase: String, _ done: Int, _ total: Int) -> Void) {
        self.observer = observer
    }

    /// Starts `phase`, of `parts` parts (at least 1).
    func begin(_ phase: String, parts: Int) {
        lock.lock()
        defer { lock.unlock() }
        self.phase = phase
        done = 0
        total = max(1, parts)
        observer(phase, done, total)
    }

    /// `count` more parts of the current phase are done (never more than its parts in all).
    func finished(_ count: Int = 1) {
        lock.lock()
        defer { lock.unlock() }
        guard count > 0, done < total else { return }
        done = min(total, done + count)
        observer(phase, done, total)
    }
}
