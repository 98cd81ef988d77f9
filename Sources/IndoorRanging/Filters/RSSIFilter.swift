/// The RSSI filter kept per (device, radio) by the positioning engine and by ``RSSIRanger``: one of the stack's
/// four filters, chosen by ``Kind``.
///
/// A compact value type (the chosen filter's state inline, about 64 bytes); updating one inside an array
/// does not copy or allocate, except the trimmed mean's sample ring on its first sample.
public struct RSSIFilter: Hashable, Sendable {
    /// Which filter, with its tuning.
    public enum Kind: Hashable, Sendable, Codable {
        /// ``TrimmedMeanFilter``: mean of the samples of the last `window` seconds without the top and bottom `trim`.
        case trimmedMean(window: Double, trim: Double)
        /// The ARMA filter with this coefficient (``ExponentialFilter/arma(coefficient:expiry:)``: the exponential
        /// average with the Android Beacon Library's restart after the `expiry` given to ``RSSIFilter/init(_:expiry:)``).
        case arma(coefficient: Double)
        /// ``KalmanRSSIFilter`` with process noise (dB²/s) and measurement noise (dB²).
        case kalman(processNoise: Double, measurementNoise: Double)
        /// ``ExponentialFilter``: `r ← r + weight · (rssi − r)`, restarted from the raw value after `resetAfter`
        /// seconds of silence (its own reset: the `expiry` given to ``RSSIFilter/init(_:expiry:)`` does not apply).
        case exponential(weight: Double, resetAfter: Double)

        /// The Android Beacon Library default: trimmed mean over 20 s, 10% off each end.
        public static let androidDefault = Kind.trimmedMean(window: 20, trim: 0.1)
        /// Geofencing's default: an exponential moving average of weight 0.3, restarted after 10 s of silence.
        public static let geofencingDefault = Kind.exponential(weight: 0.3, resetAfter: 10)
    }

    private enum State: Hashable, Sendable {
        case trimmed(TrimmedMeanFilter)
        case kalman(KalmanRSSIFilter)
        case exponential(ExponentialFilter)
        /// Only while a payload is being mutated, so that it stays uniquely referenced.
        case moving
    }

    /// The filter and its tuning.
    public let kind: Kind
    private var state: State

    /// An empty filter of `kind`, one per device and radio: add samples with ``add(dBm:at:)``.
    /// - Parameters:
    ///   - kind: The filter and its tuning.
    ///   - expiry: Seconds of silence after which the ARMA and Kalman filters restart (the trimmed mean
    ///     forgets each sample after its own window, the exponential filter restarts after its own `resetAfter`).
    public init(_ kind: Kind, expiry seconds: Double = 20) {
        self.kind = kind
        switch kind {
        case .trimmedMean(let window, let trim):
            state = .trimmed(TrimmedMeanFilter(window: window, trim: trim))
        case .arma(let coefficient):
            state = .exponential(ExponentialFilter.arma(coefficient: coefficient, expiry: seconds))
        case .kalman(let processNoise, let measurementNoise):
            state = .kalman(
                KalmanRSSIFilter(processNoise: processNoise, measurementNoise: measurementNoise, expiry: seconds))
        case .exponential(let weight, let resetAfter):
            state = .exponential(ExponentialFilter(weight: weight, resetAfter: resetAfter))
        }
    }

    /// Adds a sample of `dBm` received at `time` seconds.
    @inline(__always)
    public mutating func add(dBm: Double, at time: Double) {
        switch state {
        case .kalman(var filter):
            filter.add(dBm: dBm, at: time)
            state = .kalman(filter)
        case .exponential(var filter):
            filter.add(dBm: dBm, at: time)
            state = .exponential(filter)
        case .trimmed(var filter):
            state = .moving
            filter.add(dBm: dBm, at: time)
            state = .trimmed(filter)
        case .moving:
            break
        }
    }

    /// The filtered RSSI (dBm) at `time`, or `nil` when there is no fresh sample.
    @inline(__always)
    public func value(at time: Double) -> Double? {
        switch state {
        case .kalman(let filter): filter.value(at: time)
        case .exponential(let filter): filter.value(at: time)
        case .trimmed(let filter): filter.value(at: time)
        case .moving: nil
        }
    }

    /// The time of the newest sample, seconds.
    public var lastTime: Double? {
        switch state {
        case .kalman(let filter): filter.lastTime
        case .exponential(let filter): filter.lastTime
        case .trimmed(let filter): filter.lastTime
        case .moving: nil
        }
    }

    /// Forgets every sample.
    package mutating func reset() {
        switch state {
        case .kalman(var filter):
            filter.reset()
            state = .kalman(filter)
        case .exponential(var filter):
            filter.reset()
            state = .exponential(filter)
        case .trimmed(var filter):
            state = .moving
            filter.reset()
            state = .trimmed(filter)
        case .moving:
            break
        }
    }
}
