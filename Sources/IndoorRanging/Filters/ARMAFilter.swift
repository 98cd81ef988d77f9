/// An auto-regressive moving-average RSSI filter: `x ← x + c·(sample − x)`.
///
/// The Android Beacon Library's `ArmaRssiFilter` with coefficient ``coefficient`` (default 0.1).
/// The state expires: a sample arriving more than ``expiry`` seconds after the previous one restarts it.
package struct ARMAFilter: Hashable, Sendable {
    /// Weight of each new sample, 0 < c ≤ 1.
    package var coefficient: Double
    /// Seconds of silence after which the state is stale.
    package var expiry: Double
    /// The filtered value, dBm, or `nil` before the first sample.
    package private(set) var estimate: Double?
    /// The time of the newest sample, seconds.
    package private(set) var lastTime: Double?

    /// - Parameters:
    ///   - coefficient: Weight of each new sample, clamped to 0.001…1 (non-finite: 0.1).
    ///   - seconds: Seconds of silence after which the state restarts (non-positive or non-finite: 20).
    package init(coefficient: Double = 0.1, expiry seconds: Double = 20) {
        self.coefficient = coefficient.isFinite ? min(max(coefficient, 0.001), 1) : 0.1
        self.expiry = seconds.isFinite && seconds > 0 ? seconds : 20
    }

    /// Adds a sample of `dBm` received at `time` seconds. Non-finite samples are ignored.
    package mutating func add(dBm: Double, at time: Double) {
        guard dBm.isFinite, time.isFinite else { return }
        if let current = estimate, let last = lastTime, time - last <= expiry {
            let updated = current + coefficient * (dBm - current)
            // Absurd samples (±1e308 dBm) overflow: restart from this one rather than carry an infinity or NaN.
            estimate = updated.isFinite ? updated : dBm
        } else {
            estimate = dBm
        }
        // A late (out-of-order) sample counts, but does not move the clock back.
        lastTime = max(lastTime ?? time, time)
    }

    /// Forgets the state.
    package mutating func reset() {
        estimate = nil
        lastTime = nil
    }

    /// The filtered value (dBm) at `time`, or `nil` when never fed or stale.
    package func value(at time: Double) -> Double? {
        guard let estimate, let lastTime, time - lastTime <= expiry else { return nil }
        return estimate
    }
}
