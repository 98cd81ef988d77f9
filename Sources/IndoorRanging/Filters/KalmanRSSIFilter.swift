/// A one-dimensional Kalman filter of RSSI with a random-walk process model.
///
/// The state is the true mean RSSI (dBm); between samples its variance grows by
/// ``processNoise`` dB² per second; each sample has variance ``measurementNoise`` dB².
/// A sample arriving more than ``expiry`` seconds after the previous one restarts the filter.
package struct KalmanRSSIFilter: Hashable, Sendable {
    /// Growth of the state variance, dB² per second.
    package var processNoise: Double
    /// Variance of one sample, dB².
    package var measurementNoise: Double
    /// Seconds of silence after which the state is stale.
    package var expiry: Double
    /// The filtered value, dBm, or `nil` before the first sample.
    package private(set) var estimate: Double?
    /// Variance of ``estimate``, dB².
    package private(set) var variance: Double = 0
    /// The time of the newest sample, seconds.
    package private(set) var lastTime: Double?

    /// - Parameters:
    ///   - processNoise: Growth of the state variance, dB² per second (negative: 0; non-finite: 2).
    ///   - measurementNoise: Variance of one sample, dB² (at least 1e-6; non-finite: 16).
    ///   - seconds: Seconds of silence after which the state restarts (non-positive or non-finite: 20).
    package init(processNoise: Double = 2, measurementNoise: Double = 16, expiry seconds: Double = 20) {
        self.processNoise = processNoise.isFinite ? max(processNoise, 0) : 2
        self.measurementNoise = measurementNoise.isFinite ? max(measurementNoise, 1e-6) : 16
        self.expiry = seconds.isFinite && seconds > 0 ? seconds : 20
    }

    /// Adds a sample of `dBm` received at `time` seconds. Non-finite samples are ignored.
    package mutating func add(dBm: Double, at time: Double) {
        guard dBm.isFinite, time.isFinite else { return }
        if let current = estimate, let last = lastTime, time - last <= expiry {
            let predicted = variance + processNoise * max(0, time - last)
            let gain = predicted / (predicted + measurementNoise)
            let updated = current + gain * (dBm - current)
            if updated.isFinite {
                estimate = updated
                variance = (1 - gain) * predicted
            } else {
                // Absurd samples (±1e308 dBm) overflowed: restart from this one rather than carry an infinity or NaN.
                estimate = dBm
                variance = measurementNoise
            }
        } else {
            estimate = dBm
            variance = measurementNoise
        }
        // A late (out-of-order) sample counts, but does not move the clock back.
        lastTime = max(lastTime ?? time, time)
    }

    /// Forgets the state.
    package mutating func reset() {
        estimate = nil
        variance = 0
        lastTime = nil
    }

    /// The filtered value (dBm) at `time`, or `nil` when never fed or stale.
    package func value(at time: Double) -> Double? {
        guard let estimate, let lastTime, time - lastTime <= expiry else { return nil }
        return estimate
    }
}
