/// A running trimmed mean of RSSI over a time window: the Android Beacon Library's default filter.
///
/// Keeps the samples of the last ``window`` seconds (at most ``capacity`` of them, the oldest
/// dropped first), and answers their mean after dropping the top and bottom ``trim`` fraction.
/// A value type: copy it freely; ``add(dBm:at:)`` and ``value(at:)`` never allocate after the first sample.
package struct TrimmedMeanFilter: Hashable, Sendable {
    /// Seconds of history that count.
    package var window: Double
    /// The fraction (0 ..< 0.5) dropped from each end of the sorted samples.
    package var trim: Double
    /// The most samples kept; older ones are dropped first.
    package let capacity: Int
    private var times: [Double] = []
    private var values: [Double] = []
    private var next = 0

    /// - Parameters:
    ///   - window: Seconds of history (default 20).
    ///   - trim: Fraction dropped from each end (default 0.1).
    ///   - capacity: The most samples kept (default 64).
    package init(window seconds: Double = 20, trim: Double = 0.1, capacity: Int = 64) {
        self.window = seconds.isFinite && seconds > 0 ? seconds : 20
        self.trim = trim.isFinite ? min(max(trim, 0), 0.49) : 0.1
        self.capacity = max(1, capacity)
    }

    /// The time of the newest sample, seconds, or `nil` before the first.
    ///
    /// The latest time heard, not the time of the sample added last: a late (out-of-order) sample does not move
    /// it back, as with the ARMA (``ExponentialFilter``) and ``KalmanRSSIFilter``.
    package private(set) var lastTime: Double?

    /// Adds a sample of `dBm` received at `time` seconds. Non-finite samples are ignored.
    package mutating func add(dBm: Double, at time: Double) {
        guard dBm.isFinite, time.isFinite else { return }
        lastTime = max(lastTime ?? time, time)
        if times.count < capacity {
            if times.isEmpty {
                times.reserveCapacity(capacity)
                values.reserveCapacity(capacity)
            }
            times.append(time)
            values.append(dBm)
            next = times.count % capacity
        } else {
            times[next] = time
            values[next] = dBm
            next = (next + 1) % capacity
        }
    }

    /// Forgets every sample.
    package mutating func reset() {
        times.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        next = 0
        lastTime = nil
    }

    /// The trimmed mean (dBm) of the samples in `(time − window, time]`, or `nil` when there are none.
    package func value(at time: Double) -> Double? {
        let count = times.count
        guard count > 0 else { return nil }
        let cutoff = time - window
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: count) { buffer -> Double? in
            var used = 0
            for index in 0..<count where times[index] > cutoff && times[index] <= time {
                buffer[used] = values[index]
                used += 1
            }
            guard used > 0 else { return nil }
            var slice = UnsafeMutableBufferPointer(rebasing: buffer[0..<used])
            slice.sort()
            let drop = Int((Double(used) * trim).rounded(.down))
            // Each term divided first, so absurd samples (±1e308 dBm) cannot overflow the sum.
            let kept = Double(used - 2 * drop)
            var mean = 0.0
            for index in drop..<(used - drop) { mean += slice[index] / kept }
            return mean
        }
    }
}
