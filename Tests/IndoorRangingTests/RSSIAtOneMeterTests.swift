import Foundation
import IndoorModel
import Testing

@testable import IndoorRanging

@Suite struct RSSIAtOneMeterTests {
    static let own = NodeCalibration(rssiAtOneMeter: -50, pathLossExponent: 2.5)
    static let pooled = NodeCalibration(rssiAtOneMeter: -62, pathLossExponent: 3)

    @Test func theNodesOwnCalibrationWinsOverAnAdvertisedPower() {
        #expect(RSSIAtOneMeter.calibration(own: Self.own, advertised: -65) == Self.own)
        #expect(RSSIAtOneMeter.calibration(own: Self.own, advertised: nil) == Self.own)
    }

    @Test func aPlausibleAdvertisedPowerWinsOverTheFallbackAndKeepsItsExponent() {
        let calibration = RSSIAtOneMeter.calibration(own: nil, advertised: -65)
        #expect(calibration == NodeCalibration(rssiAtOneMeter: -65, pathLossExponent: 2))
        #expect(
            RSSIAtOneMeter.calibration(own: nil, advertised: -100, fallback: Self.pooled)
                == NodeCalibration(rssiAtOneMeter: -100, pathLossExponent: 3))
        #expect(RSSIAtOneMeter.calibration(own: nil, advertised: -20).rssiAtOneMeter == -20)
    }

    @Test func thePlausibleRangeIsMinus100ToMinus20DBm() {
        #expect(RSSIAtOneMeter.plausible == -100 ... -20)
        // Both ends are plausible, the next representable values beyond them are not.
        #expect(RSSIAtOneMeter.advertised(-100) == -100)
        #expect(RSSIAtOneMeter.advertised(-20) == -20)
        #expect(RSSIAtOneMeter.advertised(Double(-100).nextDown) == nil)
        #expect(RSSIAtOneMeter.advertised(Double(-20).nextUp) == nil)
        // Eddystone's largest calibrated power, +20 dBm at 0 m, is −21 dBm at 1 m.
        #expect(RSSIAtOneMeter.advertised(-21) == -21)
    }

    /// Values a signed byte carries (so a row may hold them) that are no power received at 1 m: another field in an
    /// iBeacon's power byte (+26…+100), an output power (0, +4), a power at 0 m (−10), a near-silent −101…−128.
    @Test(arguments: [-128.0, -101, -100.5, -19.5, -10, 0, 4, 20, 26, 64, 100, 127])
    func anImplausibleAdvertisedPowerFallsBackAsAMissingOneDoes(dBm: Double) {
        #expect(RSSIAtOneMeter.advertised(dBm) == nil)
        #expect(RSSIAtOneMeter.calibration(own: nil, advertised: dBm) == .typical)
        #expect(RSSIAtOneMeter.calibration(own: nil, advertised: dBm, fallback: Self.pooled) == Self.pooled)
        #expect(RSSIAtOneMeter.calibration(own: Self.own, advertised: dBm, fallback: Self.pooled) == Self.own)
    }

    @Test(arguments: [-1e308, 1e308, -129, 128, 200, Double.nan, -Double.infinity, Double.infinity])
    func anAdvertisedPowerNoFrameCanCarryIsIgnored(dBm: Double) {
        #expect(RSSIAtOneMeter.advertised(dBm) == nil)
        #expect(RSSIAtOneMeter.calibration(own: nil, advertised: dBm) == .typical)
    }

    @Test func withoutEitherTheTypicalValueApplies() {
        #expect(RSSIAtOneMeter.calibration(own: nil, advertised: nil) == .typical)
        #expect(NodeCalibration.typical == NodeCalibration(rssiAtOneMeter: -59, pathLossExponent: 2))
    }
}
