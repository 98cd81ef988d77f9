import Synchronization

/// Runs jobs one at a time, in the order they were given, each to its end before the next starts, also across the
/// points where a job waits (an actor would let the next one in there): a venue's batches reach its session and its
/// store in one order, and a job that waits for the database suspends instead of blocking a thread.
///
/// A job runs in a task of its own, so it finishes (and its commit is kept) even when the caller is cancelled.
package final class SerialJobs: Sendable {
    /// Waits for the job given last, which returns when it and every job before it are done (a closure over that
    /// job's task, not a task of its own: one task a job).
    private let last = Mutex<(@Sendable () async -> Void)?>(nil)

    /// No jobs yet.
    package init() {}

    /// Runs `job` after every job given before it.
    package func run<T: Sendable>(_ job: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = last.withLock { last -> Task<T, any Error> in
            let previous = last
            let task = Task<T, any Error> {
                await previous?()
                return try await job()
            }
            last = { _ = await task.result }
            return task
        }
        return try await task.value
    }
}
