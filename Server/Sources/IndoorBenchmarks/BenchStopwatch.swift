import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Timing for the `indoor-bench` commands (the only place the command line reads a clock for work).
///
/// ``time(_:)`` and ``rate(seconds:_:)`` time single-threaded, CPU-bound work by the CPU time of the calling thread
/// (`CLOCK_THREAD_CPUTIME_ID`): seconds the core spent on it, so other jobs on a shared machine lengthen the run
/// but not the figure (a busy sibling hyperthread or a shared cache still slows it). On an idle machine it equals
/// the wall time. Work that waits (disk flushes, a broker, a server) is timed by the wall clock where it is
/// measured, with `ContinuousClock` and ``seconds(_:)``.
enum BenchStopwatch {
    /// CPU seconds of the calling thread that `body` takes, once.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = threadCPUSeconds()
        try body()
        return threadCPUSeconds() - start
    }

    /// Repeats a unit of work until the calling thread has spent `seconds` of CPU time on it and answers items per
    /// CPU second.
    ///
    /// - Parameter body: one pass; returns how many items it processed and a checksum that keeps the work alive.
    static func rate(seconds: Double, _ body: () -> (Int, Double)) -> Double {
        var items = 0
        var sink = 0.0
        let start = threadCPUSeconds()
        var elapsed = 0.0
        repeat {
            let (count, checksum) = body()
            items += count
            sink += checksum
            elapsed = threadCPUSeconds() - start
        } while elapsed < seconds
        if sink.isNaN { return 0 }
        return Double(items) / elapsed
    }

    /// The CPU time the calling thread has used, in seconds.
    static func threadCPUSeconds() -> Double {
        var now = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0 else { return 0 }
        return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
