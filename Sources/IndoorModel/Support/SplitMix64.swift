import Foundation

/// A small, fast, seeded pseudo-random generator (SplitMix64): the same seed always gives the same sequence.
///
/// Not for cryptography. The simulator, the benchmarks and the tests draw all their randomness from
/// generators of this type, so that the same seed produces the same numbers on every platform.
/// The output sequence for a given seed is fixed: tests and benchmark reports pin it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state: `SplitMix64(seed: state)` continues the same sequence.
    public private(set) var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// An independent stream for one purpose, derived from `seed` and a stream number.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
        self.state = mixer.next()
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform number in [0, 1), with 53 random bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform number in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// A uniform integer in 0..<`count` (`count` ≥ 1).
    public mutating func index(below count: Int) -> Int {
        guard count > 1 else { return 0 }
        return Int(next() % UInt64(count))
    }

    /// A normally distributed number with mean `mean` and standard deviation `deviation` (Box–Muller).
    package mutating func gaussian(mean: Double = 0, deviation: Double) -> Double {
        guard deviation > 0 else { return mean }
        let u1 = 1 - unit()  // (0, 1]
        let u2 = unit()
        return mean + deviation * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A standard normal number (mean 0, standard deviation 1), by Box–Muller on the next two unit draws.
    ///
    /// Uses the draws differently from ``gaussian(mean:deviation:)`` (the first draw is clamped away
    /// from 0 rather than reflected), so the two give different sequences for the same seed; both are
    /// kept because existing benchmarks and tests pin their numbers.
    public mutating func standardNormal() -> Double {
        let u = max(unit(), 1e-300)
        let v = unit()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
