import Foundation
import IndoorModel
import Testing

@testable import IndoorPositioning

@Suite("e^x four lanes at a time")
struct VectorExponentialTests {
    @Test("within a few units in the last place of the C library's exp, from e^−708 to e^709")
    func asTheCLibrary() {
        var random = SplitMix64(seed: 3)
        for _ in 0..<20_000 {
            let x = SIMD4<Double>(
                -708 + random.unit() * 1417, -10 + random.unit() * 10, random.unit() - 0.5, -random.unit() * 40)
            let y = VectorExponential.exp(x)
            for lane in 0..<4 {
                let exact = Foundation.exp(x[lane])
                #expect(abs(y[lane] - exact) <= 4 * exact.ulp, "e^\(x[lane]): \(y[lane]) against \(exact)")
            }
        }
    }

    @Test("0 below e^−708, +∞ above e^709, NaN for NaN, 1 at 0")
    func edges() {
        let y = VectorExponential.exp(SIMD4(-709, -1e300, 710, .nan))
        #expect(y[0] == 0 && y[1] == 0 && y[2] == .infinity && y[3].isNaN)
        let z = VectorExponential.exp(SIMD4(0, -.infinity, .infinity, 1))
        #expect(z[0] == 1 && z[1] == 0 && z[2] == .infinity && abs(z[3] - Foundation.exp(1)) <= Foundation.exp(1).ulp)
    }
}
