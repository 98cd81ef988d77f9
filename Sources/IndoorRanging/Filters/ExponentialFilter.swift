/// An exponential moving average of RSSI: `r ← r + w · (sample − r)`, restarted after silence.
///
/// Geofencing's default filter (the ranging behind `SmoothingRanger` and `BeaconMonitor`): weight ``weight``
/// (default 0.3), restarted from the raw sample when the radio was not heard for ``resetAfter`` seconds (default
/// 10). A late (out-of-order) sample blends in without moving the filter's time back. Like ``ARMAFilter`` (whose
/// formula it shares), an update that overflows (±1e308 dBm samples) restarts from the sample.
package struct ExponentialFilter: Hashable, Sendable {
    /// Weight of a new sample, 0.01…1 (1 means no smoothing).
    package var weight: Double
    /// Seconds of silence after which the filter restarts from the next raw sample.
    package var resetAfter: Double
    /// The filtered value, dBm, or `nil` before the first sample.
    package private(set) var estimate: Double?
    /// The time of the newest sample, seconds (a late sample does not move it back).
    package private(set) var lastTime: Double?

    /// - Parameters:
    ///   - weight: Weight of a new sample, clamped to 0.01…1 (non-finite: 0.3).
    ///   - seconds: Seconds of silence that restart the filter (NaN or negative: 10; `.infinity`: never).
    package init(weight: Double = 0.3, resetAfter seconds: Double = 10) {
        self.weight = weight.isFinite ? min(1, max(0.01, weight)) : 0.3
        self.resetAfter = seconds.isNaN || seconds < 0 ? 10 : seconds
    }

    /// Adds a sample of `dBm` received at `time` seconds. Non-finite samples and times are ignored.
    package mutating func add(dBm: Double, at time: Double) {
        guard dBm.isFinite, time.isFinite else { return }
        if let current = estimate, let last = lastTime, time - last <= resetAfter {
            let updated = current + weight * (dBm - current)
            estimate = updated.isFinite ? updated : dBm
        } else {
            estimate = dBm
        }
        lastTime = max(lastTime ?? time, time)
    }

    /// Forgets the state.
    package mutating func reset() {
        estimate = nil
        lastTime = nil
    }

    /// The filtered value (dBm) at `time`, or `nil` when never fed or silent for more than ``resetAfter`` seconds.
    package func value(at time: Double) -> Double? {
        guard let estimate, let lastTime, time - lastTime <= resetAfter else { return nil }
        return estimate
    }
}
