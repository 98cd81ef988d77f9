import Dispatch

/// Independent pieces of learning (the folds of a cross-validation, the replays of a survey) spread over the
/// processor's cores, their results in index order: the same results as one after the other, in less time.
///
/// Each piece reads only `Sendable` values it shares with the others and builds its own state (engines, generators
/// seeded per piece); so the outcome does not depend on which core ran which piece or when, and a choice made from it
/// is the same on every run.
enum ParallelWork {
    /// `body(0)`, `body(1)`, … `body(count − 1)`, run on the available cores, in index order; an empty array when
    /// `count` is 0 or less. Returns when every piece has.
    static func map<Result: Sendable>(_ count: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
        guard count > 1 else { return (0..<max(count, 0)).map(body) }
        let slots = Slots<Result>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in slots.store(body(index), at: index) }
        return slots.results()
    }

    /// One slot per piece, each written by its own piece only, read once every piece has returned.
    private final class Slots<Result: Sendable>: @unchecked Sendable {
        private let buffer: UnsafeMutableBufferPointer<Result?>

        init(count: Int) {
            buffer = .allocate(capacity: count)
            buffer.initialize(repeating: nil)
        }

        deinit {
            buffer.deinitialize()
            buffer.deallocate()
        }

        /// Stores piece `index`'s result (only that piece calls this with `index`).
        func store(_ result: Result, at index: Int) { buffer[index] = result }

        /// The results in index order, once every piece has stored its own.
        func results() -> [Result] { buffer.compactMap { $0 } }
    }
}
