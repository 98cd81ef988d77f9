import Foundation

/// Repeats a unit of work until enough time has passed and answers items per second.
enum PositioningStopwatch {
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
            let duration = clock.now - start
            elapsed = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        } while elapsed < seconds
        if sink.isNaN { return 0 }
        return Double(items) / elapsed
    }
}
