import Foundation
import IndoorModel
import IndoorRanging
import Testing

@testable import IndoorPositioning

@Suite struct RangingTests {
    @Test func trimmedMeanDropsTheExtremesOfTheWindow() {
        var filter = TrimmedMeanFilter(window: 20, trim: 0.1)
        // Ten samples: 10% off each end drops −100 and −20.
        let values: [Double] = [-100, -60, -61, -59, -60, -62, -58, -60, -60, -20]
        for (index, value) in values.enumerated() { filter.add(dBm: value, at: Double(index)) }
        let mean = filter.value(at: 9)
        #expect(mean.map { abs($0 - (-60)) < 1e-9 } == true)
    }

    @Test func trimmedMeanForgetsSamplesOlderThanTheWindow() {
        var filter = TrimmedMeanFilter(window: 20, trim: 0.1)
        filter.add(dBm: -90, at: 0)
        filter.add(dBm: -50, at: 15)
        #expect(filter.value(at: 15) == -70)
        #expect(filter.value(at: 25) == -50)
        #expect(filter.value(at: 40) == nil)
    }

    @Test func trimmedMeanKeepsAtMostItsCapacity() {
        var filter = TrimmedMeanFilter(window: 1000, trim: 0, capacity: 4)
        for index in 0..<10 { filter.add(dBm: Double(-index), at: Double(index)) }
        // Only the last four (−6…−9) remain.
        #expect(filter.value(at: 9) == -7.5)
        #expect(filter.lastTime == 9)
    }

    @Test func armaFollowsItsRecurrenceAndExpires() {
        var filter = ExponentialFilter.arma(coefficient: 0.1, expiry: 10)
        filter.add(dBm: -60, at: 0)
        filter.add(dBm: -70, at: 1)
        #expect(filter.value(at: 1).map { abs($0 - (-61)) < 1e-12 } == true)
        #expect(filter.value(at: 12) == nil)
        filter.add(dBm: -80, at: 30)
        #expect(filter.value(at: 30) == -80)
    }

    @Test func kalmanConvergesOnAConstantSignalAndIgnoresNonFiniteSamples() {
        var filter = KalmanRSSIFilter(processNoise: 0.01, measurementNoise: 16, expiry: 10)
        var random = SplitMix64(seed: 7)
        for index in 0..<400 { filter.add(dBm: -65 + 4 * random.standardNormal(), at: Double(index) * 0.1) }
        filter.add(dBm: .nan, at: 40)
        let value = filter.value(at: 40)
        #expect(value.map { abs($0 - (-65)) < 1.5 } == true)
        #expect(filter.variance < 4)
        #expect(filter.value(at: 60) == nil)
    }

    @Test(arguments: [
        RSSIFilter.Kind.trimmedMean(window: 20, trim: 0.1), .arma(coefficient: 0.5),
        .kalman(processNoise: 1, measurementNoise: 4),
    ])
    func everyFilterKindAnswersItsFirstSampleAndExpires(kind: RSSIFilter.Kind) {
        var filter = RSSIFilter(kind, expiry: 5)
        #expect(filter.value(at: 0) == nil)
        filter.add(dBm: -70, at: 1)
        #expect(filter.value(at: 1) == -70)
        #expect(filter.lastTime == 1)
        #expect(filter.value(at: 100) == nil)
        filter.reset()
        #expect(filter.lastTime == nil)
    }

    @Test(arguments: [
        RSSIFilter.Kind.trimmedMean(window: 20, trim: 0), .arma(coefficient: 0.5),
        .kalman(processNoise: 4, measurementNoise: 16),
    ])
    func absurdSamplesNeverLeaveAnInfinityOrNaNBehind(kind: RSSIFilter.Kind) throws {
        // ±1e308 dBm overflows a plain sum or difference; the filter must stay finite and recover.
        var filter = RSSIFilter(kind, expiry: 60)
        for (index, dBm) in [1e308, 1e308, -1e308].enumerated() {
            filter.add(dBm: dBm, at: Double(index))
            let value = try #require(filter.value(at: Double(index)))
            #expect(value.isFinite, "\(kind) after \(dBm) dBm")
        }
        // After the window (trimmed mean) or the expiry (ARMA, Kalman) plain readings come back.
        for second in 70..<75 { filter.add(dBm: -60, at: Double(second)) }
        let settled = try #require(filter.value(at: 74))
        #expect(abs(settled - -60) < 1e-6, "\(kind): \(settled)")
    }

    @Test(arguments: [0.0, -2.0, Double.nan, Double.infinity])
    func aBadExponentCountsAsTwoForTheVarianceAsForTheDistance(exponent: Double) {
        let bad = NodeCalibration(rssiAtOneMeter: -59, pathLossExponent: exponent)
        #expect(
            LogDistance.distance(rssi: -79, calibration: bad) == LogDistance.distance(rssi: -79, calibration: .typical))
        #expect(
            LogDistance.logRangeVariance(sigma: 6, exponent: exponent)
                == LogDistance.logRangeVariance(sigma: 6, exponent: 2))
        // σ 6 dB, n 2: (6 · ln 10 / 20)² ≈ 0.477171.
        #expect(abs(LogDistance.logRangeVariance(sigma: 6, exponent: 2) - 0.477171) < 1e-6)
    }

    @Test func lateSamplesDoNotMoveTheClockBack() {
        var kalman = KalmanRSSIFilter()
        kalman.add(dBm: -60, at: 10)
        kalman.add(dBm: -70, at: 5)
        #expect(kalman.lastTime == 10)
        var arma = ExponentialFilter.arma()
        arma.add(dBm: -60, at: 10)
        arma.add(dBm: -70, at: 5)
        #expect(arma.lastTime == 10)
        #expect(arma.value(at: 10).map { abs($0 - (-61)) < 1e-12 } == true)
        // The trimmed mean too (its lastTime was the late sample's 5 s, so the engine took the node for stale).
        var trimmed = TrimmedMeanFilter(window: 20, trim: 0)
        trimmed.add(dBm: -60, at: 10)
        trimmed.add(dBm: -70, at: 5)
        #expect(trimmed.lastTime == 10)
        #expect(trimmed.value(at: 10) == -65)
        trimmed.reset()
        #expect(trimmed.lastTime == nil && trimmed.value(at: 10) == nil)
    }

    @Test(arguments: [(-60.0, 4.0), (3.0, -59.0), (0.0, -59.0), (-60.0, 0.0), (-60.0, Double.nan)])
    func curveFitRefusesPowersThatAreNotNegative(rssi: Double, power: Double) {
        // −60 dBm against a +4 dBm power used to give a ratio of −15 and (−15)¹⁰ ≈ 5.8e11 m.
        #expect(CurveFit.iPhoneLike.distance(rssi: rssi, powerAtOneMeter: power) == .infinity)
        #expect(abs(CurveFit.iPhoneLike.distance(rssi: -59, powerAtOneMeter: -59) - 1.01076) < 1e-9)
    }

    @Test(arguments: [(-59.0, 1.0), (-79.0, 10.0), (-39.0, 0.1)])
    func logDistanceInvertsThePathLoss(rssi: Double, meters: Double) {
        let distance = LogDistance.distance(rssi: rssi, calibration: .typical)
        #expect(abs(distance - meters) < 1e-9)
        #expect(abs(LogDistance.rssi(meters: meters, calibration: .typical) - rssi) < 1e-9)
    }

    @Test func curveFitUsesBothBranches() {
        let fit = CurveFit.iPhoneLike
        // ratio 0.5: 0.5^10.
        #expect(abs(fit.distance(rssi: -30, powerAtOneMeter: -60) - pow(0.5, 10)) < 1e-12)
        // ratio 1.5: A·1.5^B + C.
        let expected = 0.89976 * pow(1.5, 7.7095) + 0.111
        #expect(abs(fit.distance(rssi: -90, powerAtOneMeter: -60) - expected) < 1e-9)
        #expect(fit.distance(rssi: .nan, powerAtOneMeter: -60) == .infinity)
        #expect(fit.distance(rssi: -60, powerAtOneMeter: 0) == .infinity)
        let model = DistanceModel.curveFit(fit)
        #expect(abs(model.distance(rssi: -60, calibration: .typical.with(rssi: -60)) - (0.89976 + 0.111)) < 1e-9)
    }

    @Test(arguments: [(0.3, Proximity.immediate), (2.0, .near), (5.0, .far), (Double.nan, .unknown)])
    func proximityClassesFollowTheThresholds(meters: Double, expected: Proximity) {
        #expect(Proximity(distance: meters) == expected)
    }

    @Test func aCorruptAdvertisedPowerGivesTheTypicalDistanceAndFar() throws {
        let node = Node(id: "a", position: Point3D(x: 0, y: 0, z: 0))
        var engine = PositioningEngine(nodes: [node], method: WeightedCentroid())
        engine.ingest(Sighting(time: 0, device: "d", node: "a", rssi: -80, txPower: -1e308))
        let reading = try #require(engine.readings(device: "d", at: 0).first)
        // −80 dBm with the typical −59 dBm at 1 m, n = 2: 10^(21/20) ≈ 11.2 m, never 0 m.
        #expect(abs(reading.distance - pow(10, 21.0 / 20)) < 1e-9)
        #expect(engine.proximities(device: "d", at: 0) == ["a": .far])
    }

    @Test func anImplausibleAdvertisedPowerFallsBackToTheNodesOrTheVenuesCalibration() throws {
        let own = NodeCalibration(rssiAtOneMeter: -50, pathLossExponent: 2.5)
        let nodes = [
            Node(id: "a", position: Point3D(x: 0, y: 0, z: 0)),
            Node(id: "b", position: Point3D(x: 5, y: 0, z: 0), calibration: own),
        ]
        var engine = PositioningEngine(nodes: nodes, method: WeightedCentroid())
        // +50 dBm at 1 m (another field in an iBeacon's power byte) and 0 dBm (an output power) are no power
        // received at 1 m: "a" ranges with the venue's −59 dBm, n = 2, "b" with its own −50 dBm, n = 2.5.
        engine.ingest(Sighting(time: 0, device: "d", node: "a", rssi: -79, txPower: 50))
        engine.ingest(Sighting(time: 0, device: "d", node: "b", rssi: -75, txPower: 0))
        let readings = engine.readings(device: "d", at: 0)
        let a = try #require(readings.first { $0.node.id == "a" })
        let b = try #require(readings.first { $0.node.id == "b" })
        #expect(abs(a.distance - 10) < 1e-9)
        #expect(abs(b.distance - 10) < 1e-9)
        // A plausible power later on replaces the fallback; an implausible one after it does not undo it.
        engine.ingest(Sighting(time: 1, device: "d", node: "a", rssi: -85, txPower: -65))
        engine.ingest(Sighting(time: 2, device: "d", node: "a", rssi: -85, txPower: 100))
        let later = try #require(engine.readings(device: "d", at: 2).first { $0.node.id == "a" })
        #expect(
            abs(later.distance - LogDistance.distance(rssi: later.rssi, calibration: .typical.with(rssi: -65))) < 1e-9)
    }

    @Test func engineReportsProximityWithConfiguredThresholds() {
        let node = Node(id: "a", position: Point3D(x: 0, y: 0, z: 0), calibration: .typical)
        let configuration = PositioningEngine.Configuration(proximity: Proximity.Thresholds(immediate: 2, near: 20))
        var engine = PositioningEngine(nodes: [node], method: WeightedCentroid(), configuration: configuration)
        engine.ingest(Sighting(time: 0, device: "d", node: "a", rssi: -59 - 20 * log10(1.5)))
        #expect(engine.proximities(device: "d", at: 0) == ["a": .immediate])
    }
}

extension NodeCalibration {
    func with(rssi dBm: Double) -> NodeCalibration {
        NodeCalibration(rssiAtOneMeter: dBm, pathLossExponent: pathLossExponent)
    }
}
