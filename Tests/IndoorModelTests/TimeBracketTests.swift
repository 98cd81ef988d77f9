import IndoorModel
import Testing

@Suite("Time brackets and point interpolation")
struct TimeBracketTests {
    static let times: [Double] = [0, 1, 2.5, 4]

    @Test(arguments: [
        (-3.0, 0, 1), (0.0, 0, 1), (0.5, 0, 1), (1.0, 1, 2), (3.0, 2, 3), (4.0, 2, 3), (9.0, 2, 3),
    ])
    func bracketAroundTime(time: Double, lower: Int, upper: Int) {
        let bracket = Self.times.bracket(time: time, by: { $0 })
        #expect(bracket.lower == lower)
        #expect(bracket.upper == upper)
    }

    @Test func oneElementBracketsItself() {
        let bracket = [7.0].bracket(time: 3, by: { $0 })
        #expect(bracket.lower == 0 && bracket.upper == 0)
    }

    @Test func interpolationGoesAlongTheSegment() {
        let a = Point2D(x: 1, y: 2)
        let b = Point2D(x: 5, y: -2)
        #expect(a.interpolated(to: b, fraction: 0) == a)
        #expect(a.interpolated(to: b, fraction: 1) == b)
        #expect(
            a.interpolated(to: b, fraction: 0.25).isApproximatelyEqual(
                to: Point2D(x: 2, y: 1), absoluteTolerance: 1e-12))
    }
}
