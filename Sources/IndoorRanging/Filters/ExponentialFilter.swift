/// An exponential moving average of RSSI: `r ← r + w · (sample − r)`, restarted after silence.
///
/// Geofencing's default filter (the ranging behind `SmoothingRanger` and `BeaconMonitor`): weight ``weight``
/// (default 0.3), restarted from the raw sample when the radio was not heard for ``resetAfter`` seconds (default
/// 10). The same formula is the auto-regressive moving-average (ARMA) filter of the Android Beacon Library's
/// `ArmaRssiFilter`, made by ``arma(coefficient:expiry:)`` with that library's coefficient and expiry. A late
/// (out-of-order) sample blends in without moving the filter's time back; an update that overflows (±1e308 dBm
/// samples) restarts from the sample.
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

    /// The ARMA filter: `x ← x + c·(sample − x)`, restarted when a sample arrives more than `seconds` after the
    /// previous one.
    /// - Parameters:
    ///   - coefficient: Weight of each new sample, clamped to 0.001…1 (non-finite: 0.1, the library's default).
    ///   - seconds: Seconds of silence after which the state restarts (non-positive or non-finite: 20).
    package static func arma(coefficient: Double = 0.1, expiry seconds: Double = 20) -> ExponentialFilter {
        ExponentialFilter(
            checkedWeight: coefficient.isFinite ? min(max(coefficient, 0.001), 1) : 0.1,
            resetAfter: seconds.isFinite && seconds > 0 ? seconds : 20)
    }

    /// A filter of `weight` and `resetAfter` already within their ranges.
    private init(checkedWeight weight: Double, resetAfter: Double) {
        self.weight = weight
        self.resetAfter = resetAfter
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
