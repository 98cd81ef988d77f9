import Foundation

/// Wall-clock timing for the `indoor-bench` commands (the only place the command line reads a clock for work).
enum BenchStopwatch {
    /// Seconds that `body` takes, once.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return seconds(clock.now - start)
    }

    /// Repeats a unit of work until `seconds` have passed and answers items per second.
    ///
    /// - Parameter body: one pass; returns how many items it processed and a checksum that keeps the work alive.
    static func rate(seconds: Double, _ body: () -> (Int, Double)) -> Double {
        let clock = ContinuousClock()
        var items = 0
        var sink = 0.0
        let start = clock.now
        var elapsed = 0.0
        repeat {
            let (count, checksum) = body()
            items += count
            sink += checksum
            elapsed = Self.seconds(clock.now - start)
        } while elapsed < seconds
        if sink.isNaN { return 0 }
        return Double(items) / elapsed
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
