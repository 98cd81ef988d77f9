/// e^x four lanes at a time, in plain IEEE arithmetic: the same bits on every platform, within a few units in the
/// last place of `Foundation.exp`, a few times cheaper than four calls of it.
///
/// x = k ln 2 + r with k an integer and |r| ≤ ½ ln 2 (ln 2 in two parts, so r is exact to the last bits), e^r by its
/// Taylor series to r¹³ (the remainder below 5 × 10⁻¹⁸ of e^r), and 2^k written into the exponent bits.
enum VectorExponential {
    /// Below this, e^x is taken as 0 (e^−708 ≈ 3 × 10⁻³⁰⁸, the smallest normal double's order).
    static let lowest = -708.0
    /// Above this, e^x would overflow; lanes above answer +∞.
    static let highest = 709.0

    /// e^x in each lane: 0 for x < ``lowest``, +∞ for x > ``highest``, NaN for NaN.
    @inline(__always)
    static func exp(_ x: SIMD4<Double>) -> SIMD4<Double> {
        var clamped = x.replacing(with: lowest, where: x .< lowest)
        clamped.replace(with: highest, where: clamped .> highest)
        // k = x / ln 2 rounded to the nearest integer: adding 1.5 × 2⁵² rounds to an integer and leaves k in the
        // low bits of the sum.
        let shifter = SIMD4<Double>(repeating: 6_755_399_441_055_744)
        let shifted = clamped * 1.442_695_040_888_963_4 + shifter
        let k = shifted - shifter
        let r = clamped - k * 0.693_147_180_369_123_816_49 - k * 1.908_214_929_270_587_700_02e-10
        // e^r = Σ rⁱ / i! for i ≤ 13, in pairs (Estrin's scheme: short chains of dependent operations).
        let r2 = r * r
        let r4 = r2 * r2
        let r8 = r4 * r4
        let p01 = 1 + r
        let p23 = 0.5 + r * 0.166_666_666_666_666_66
        let p45 = 4.166_666_666_666_666_4e-2 + r * 8.333_333_333_333_333e-3
        let p67 = 1.388_888_888_888_889e-3 + r * 1.984_126_984_126_984e-4
        let p89 = 2.480_158_730_158_73e-5 + r * 2.755_731_922_398_589_3e-6
        let p1011 = 2.755_731_922_398_589e-7 + r * 2.505_210_838_544_172e-8
        let p1213 = 2.087_675_698_786_81e-9 + r * 1.605_904_383_682_161_3e-10
        let low = (p01 + r2 * p23) + r4 * (p45 + r2 * p67)
        let high = (p89 + r2 * p1011) + r4 * p1213
        let p = low + r8 * high
        // 2^k: k + 1023 in the exponent bits (k lies in −1021…1023 after the clamp).
        let integer = unsafeBitCast(shifted, to: SIMD4<Int64>.self) &- unsafeBitCast(shifter, to: SIMD4<Int64>.self)
        let scale = unsafeBitCast((integer &+ 1023) &<< 52, to: SIMD4<Double>.self)
        var result = p * scale
        result.replace(with: 0, where: x .< lowest)
        result.replace(with: .infinity, where: x .> highest)
        result.replace(with: x, where: x .!= x)
        return result
    }
}
