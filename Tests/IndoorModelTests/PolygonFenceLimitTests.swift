import Foundation
import Testing

@testable import IndoorModel

@Suite struct PolygonFenceLimitTests {
    @Test func aFenceBeyondTheVertexLimitIsRefusedNamingTheLimit() {
        let count = ZoneFence.maximumVertices + 1
        let vertices = (0..<count).map { index -> Point2D in
            let angle = Double(index) / Double(count) * 2 * Double.pi
            return Point2D(x: 10 * cos(angle), y: 10 * sin(angle))
        }
        #expect(
            ZoneFence.problem(with: Polygon(vertices))
                == "a polygon fence may have at most 10000 vertices, not 10001: simplify the outline")
        // At the limit, a simple outline passes (the sweep tests only edges that overlap in x).
        #expect(ZoneFence.problem(with: Polygon(Array(vertices.dropLast()))) == nil)
    }

    @Test func theFieldIsNamedWhenAVenueFenceHasTooManyVertices() throws {
        let points = (0...ZoneFence.maximumVertices).map { "[\($0), \($0 % 2)]" }.joined(separator: ",")
        let json = Data(#"{"polygon": [\#(points)]}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ZoneFence.self, from: json) }
    }

    @Test func theSweepNamesTheSameCrossingAsTestingEveryPair() {
        var random = SplitMix64(seed: 4)
        for _ in 0..<300 {
            let count = 4 + Int(random.next() % 9)
            let vertices = (0..<count).map { _ in
                Point2D(x: Double(random.next() % 8), y: Double(random.next() % 8))
            }
            let edges = Polygon(vertices).edges
            var expected: (Int, Int)?
            search: for i in edges.indices {
                for j in stride(from: i + 2, to: edges.count, by: 1) where !(i == 0 && j == edges.count - 1) {
                    if edges[i].intersects(edges[j]) {
                        expected = (i, j)
                        break search
                    }
                }
            }
            let found = ZoneFence.firstCrossing(edges)
            #expect(found?.0 == expected?.0 && found?.1 == expected?.1, "\(vertices)")
        }
    }
}

@Suite struct DataClockTests {
    @Test func oneSourceFarOffIsAnOutlierUntilASecondAgrees() {
        var clock = DataClock(horizon: 100)
        do {
            let result = clock.observe(0, source: "a")
            #expect(result == .accepted)
        }
        do {
            let result = clock.observe(5, source: "b")
            #expect(result == .accepted)
        }
        do {
            let result = clock.observe(1e9, source: "rogue")
            #expect(result == .outlier)
        }
        do {
            let result = clock.observe(6, source: "a")
            #expect(result == .accepted)
        }
        // An accepted time in between forgets the pending jump: a second far source alone is an outlier again.
        do {
            let result = clock.observe(1e9 + 1, source: "other")
            #expect(result == .outlier)
        }
        #expect(clock.present == 6)
        do {
            let result = clock.observe(1e9 + 2, source: "third") == .jumped(from: 6)
            #expect(result)
        }
        #expect(clock.present == 1e9 + 2)
        #expect(clock.outliers == 2)
        do {
            let result = clock.advance(to: 1e9 + 50)
            #expect(result)
        }
        do {
            let result = clock.advance(to: 2e9)
            #expect(!result)
        }
        #expect(clock.present == 1e9 + 50)
    }

    @Test func aSoleSourceIsTakenEvenWhenItJumps() {
        var clock = DataClock(horizon: 100)
        do {
            let result = clock.observe(0, source: "me")
            #expect(result == .accepted)
        }
        do {
            let result = clock.observe(86_400, source: "me") == .jumped(from: 0)
            #expect(result)
        }
        do {
            let result = clock.observe(86_399, source: "me")
            #expect(result == .accepted)
        }
        #expect(clock.present == 86_400)
        do {
            let result = clock.observe(.nan, source: "me")
            #expect(result == .outlier)
        }
    }

    @Test func aFollowerTakesEveryTimeFromAnySourceAndEveryAdvance() {
        var clock = DataClock.follower(horizon: 100)
        var outcomes = [clock.observe(0, source: "a"), clock.observe(5, source: "b")]
        // Judged elsewhere: a far time from a new source is a jump at once, not an outlier.
        outcomes.append(clock.observe(1e9, source: "c"))
        outcomes.append(clock.observe(1e9 - 10, source: "a"))
        #expect(outcomes == [.accepted, .accepted, .jumped(from: 5), .accepted])
        #expect(clock.present == 1e9)
        let advanced = clock.advance(to: 2e9)
        #expect(advanced)
        #expect(clock.present == 2e9)
        let notANumber = clock.observe(.nan, source: "a")
        #expect(notANumber == .outlier)
        #expect(clock.outliers == 1)
    }
}
