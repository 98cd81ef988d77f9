import Synchronization

/// The delays between a failing hook's retries: ``WebhookSettings/retryBaseSeconds`` doubled at each retry up to
/// ``WebhookSettings/retryMaxSeconds``, each drawn between half and all of that (jitter, so hooks failing together
/// do not retry together), from a seeded generator (SplitMix64), so tests can give the seed.
final class WebhookBackoff: Sendable {
    private let base: Double
    private let maximum: Double
    private let state: Mutex<UInt64>

    init(base: Double, maximum: Double, seed: UInt64) {
        self.base = base
        self.maximum = maximum
        state = Mutex(seed)
    }

    /// The delay before retry number `attempt` (0 for the first), seconds.
    func delay(attempt: Int) -> Double {
        let ceiling = min(maximum, base * Double(1 << min(max(0, attempt), 40)))
        return ceiling * (0.5 + 0.5 * next())
    }

    /// A number in 0..<1.
    private func next() -> Double {
        let value = state.withLock { state -> UInt64 in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return Double(value >> 11) / Double(UInt64(1) << 53)
    }
}
