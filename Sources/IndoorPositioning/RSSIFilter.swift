/// The RSSI filter the engine keeps per (device, node): one of the three filters, chosen by ``Kind``.
///
/// A value type whose state lives inline, so an array of them updates in place without allocating.
public struct RSSIFilter: Hashable, Sendable {
    /// Which filter, with its tuning.
    public enum Kind: Hashable, Sendable, Codable {
        /// ``TrimmedMeanFilter``: mean of the samples of the last `window` seconds without the top and bottom `trim`.
        case trimmedMean(window: Double, trim: Double)
        /// ``ARMAFilter`` with this coefficient.
        case arma(coefficient: Double)
        /// ``KalmanRSSIFilter`` with process noise (dB²/s) and measurement noise (dB²).
        case kalman(processNoise: Double, measurementNoise: Double)

        /// The Android Beacon Library default: trimmed mean over 20 s, 10% off each end.
        public static let androidDefault = Kind.trimmedMean(window: 20, trim: 0.1)
    }

    public let kind: Kind
    private var trimmed: TrimmedMeanFilter
    private var arma: ARMAFilter
    private var kalman: KalmanRSSIFilter

    /// - Parameters:
    ///   - kind: The filter and its tuning.
    ///   - expiry: Seconds of silence after which the filter has no value.
    public init(_ kind: Kind, expiry seconds: Double = 20) {
        self.kind = kind
        switch kind {
        case .trimmedMean(let window, let trim):
            trimmed = TrimmedMeanFilter(window: min(window, seconds), trim: trim)
            arma = ARMAFilter()
            kalman = KalmanRSSIFilter()
        case .arma(let coefficient):
            trimmed = TrimmedMeanFilter(capacity: 1)
            arma = ARMAFilter(coefficient: coefficient, expiry: seconds)
            kalman = KalmanRSSIFilter()
        case .kalman(let processNoise, let measurementNoise):
            trimmed = TrimmedMeanFilter(capacity: 1)
            arma = ARMAFilter()
            kalman = KalmanRSSIFilter(processNoise: processNoise, measurementNoise: measurementNoise, expiry: seconds)
        }
    }

    /// Adds a sample of `dBm` received at `time` seconds.
    @inline(__always)
    public mutating func add(dBm: Double, at time: Double) {
        switch kind {
        case .trimmedMean: trimmed.add(dBm: dBm, at: time)
        case .arma: arma.add(dBm: dBm, at: time)
        case .kalman: kalman.add(dBm: dBm, at: time)
        }
    }

    /// The filtered RSSI (dBm) at `time`, or `nil` when there is no fresh sample.
    @inline(__always)
    public func value(at time: Double) -> Double? {
        switch kind {
        case .trimmedMean: trimmed.value(at: time)
        case .arma: arma.value(at: time)
        case .kalman: kalman.value(at: time)
        }
    }

    /// The time of the newest sample, seconds.
    public var lastTime: Double? {
        switch kind {
        case .trimmedMean: trimmed.lastTime
        case .arma: arma.lastTime
        case .kalman: kalman.lastTime
        }
    }

    /// Forgets every sample.
    public mutating func reset() {
        trimmed.reset()
        arma.reset()
        kalman.reset()
    }
}
