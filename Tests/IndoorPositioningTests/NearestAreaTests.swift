import IndoorModel
import Testing

@testable import IndoorPositioning

@Suite struct NearestAreaTests {
    static func reading(_ id: String, x: Double, rssi: Double, at time: Double) -> NodeReading {
        NodeReading(
            node: Node(id: id, position: Point3D(x: x, y: 0, z: 0), floor: 0), rssi: rssi, distance: 1,
            distanceVariance: 1, lastHeard: time)
    }

    @Test func distancesComeFromTheLocatorsOwnPathLoss() {
        let locator = NearestArea()
        #expect(abs(locator.distance(rssi: -55) - 1) < 1e-12)
        #expect(abs(locator.distance(rssi: -85) - 10) < 1e-9)  // 30 dB at exponent 3: ten times farther
    }

    @Test func withoutHistoryTheStrongestNodeAnswers() throws {
        let estimate = try NearestArea().estimate(from: [
            Self.reading("a", x: 0, rssi: -70, at: 0), Self.reading("b", x: 5, rssi: -60, at: 0),
        ]).get()
        #expect(estimate.position.x == 5)
        #expect(estimate.floor == 0)
        if case .failure(let failure) = NearestArea().estimate(from: []) { #expect(failure.code == .notHeard) }
    }

    @Test func aSlightlyNearerNodeDoesNotTakeTheDeviceAClearlyNearerOneDoes() throws {
        let locator = NearestArea()
        var belief = try #require(
            locator.start(
                device: "d",
                readings: [Self.reading("a", x: 0, rssi: -60, at: 0), Self.reading("b", x: 5, rssi: -75, at: 0)],
                at: 0))
        #expect(belief.current == "a")
        // b becomes a little stronger than a: distances 1.47 m against 1.67 m, a margin of 0.13: a stays.
        for time in 1...10 {
            let t = Double(time)
            locator.update(
                &belief,
                readings: [Self.reading("b", x: 5, rssi: -60, at: t), Self.reading("a", x: 0, rssi: -61.7, at: t)],
                at: t)
        }
        #expect(belief.current == "a")
        #expect(try locator.estimate(from: belief).get().position.x == 0)
        // a fades well away (−80 dBm, 6.8 m smoothed slowly upwards) while b stays at 1.47 m: b wins.
        for time in 11...40 {
            let t = Double(time)
            locator.update(
                &belief,
                readings: [Self.reading("b", x: 5, rssi: -60, at: t), Self.reading("a", x: 0, rssi: -80, at: t)],
                at: t)
        }
        #expect(belief.current == "b")
    }

    @Test func aNodeSilentPastTheTimeoutLeavesTheContest() throws {
        let locator = NearestArea()
        var belief = try #require(
            locator.start(device: "d", readings: [Self.reading("a", x: 0, rssi: -60, at: 0)], at: 0))
        locator.update(&belief, readings: [Self.reading("b", x: 9, rssi: -90, at: 31)], at: 31)
        #expect(belief.tracks["a"] == nil)
        #expect(belief.current == "b")
        // Beyond the 20 m radius (−95 dBm is 21.5 m) nothing answers.
        locator.update(&belief, readings: [Self.reading("b", x: 9, rssi: -95, at: 62)], at: 62)
        let far = NearestArea()
        #expect(far.start(device: "e", readings: [Self.reading("c", x: 0, rssi: -99, at: 0)], at: 0) == nil)
    }
}
