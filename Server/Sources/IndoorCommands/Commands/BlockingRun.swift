import Dispatch
import Synchronization

/// Runs async work to its end from a synchronous `ParsableCommand.run()`, as `indoor serve` and `indoor gateway` do.
enum BlockingRun {
    /// Runs `work` in a task, waits for it, and throws what it threw.
    static func wait(_ work: @escaping @Sendable () async throws -> Void) throws {
        let outcome = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await work()
            } catch {
                outcome.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = outcome.withLock({ $0 }) { throw error }
    }
}
