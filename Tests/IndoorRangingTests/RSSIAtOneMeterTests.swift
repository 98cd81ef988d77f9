import Foundation
import IndoorModel
import Testing

@testable import IndoorRanging

@Suite struct RSSIAtOneMeterTests {
    static let own = NodeCalibration(rssiAtOneMeter: -50, pathLossExponent: 2.5)

    @Test func theNodesOwnCalibrationWinsOverAnAdvertisedPower() {
        #expect(RSSIAtOneMeter.calibration(own: Self.own, advertised: -65) == Self.own)
        #expect(RSSIAtOneMeter.calibration(own: Self.own, advertised: nil) == Self.own)
    }

    @Test func aValidAdvertisedPowerWinsOverTheTypicalValueAndKeepsItsExponent() {
        let calibration = RSSIAtOneMeter.calibration(own: nil, advertised: -65)
        #expect(calibration == NodeCalibration(rssiAtOneMeter: -65, pathLossExponent: 2))
        let pooled = NodeCalibration(rssiAtOneMeter: -62, pathLossExponent: 3)
        #expect(
            RSSIAtOneMeter.calibration(own: nil, advertised: -128, fallback: pooled)
                == NodeCalibration(rssiAtOneMeter: -128, pathLossExponent: 3))
        #expect(RSSIAtOneMeter.calibration(own: nil, advertised: 127).rssiAtOneMeter == 127)
    }

    @Test(arguments: [-1e308, 1e308, -128.5, -129, 128, 200, Double.nan, -Double.infinity])
    func anAdvertisedPowerNoFrameCanCarryIsIgnored(dBm: Double) {
        #expect(RSSIAtOneMeter.advertised(dBm) == nil)
        #expect(RSSIAtOneMeter.calibration(own: nil, advertised: dBm) == .typical)
    }

    @Test func withoutEitherTheTypicalValueApplies() {
        #expect(RSSIAtOneMeter.calibration(own: nil, advertised: nil) == .typical)
        #expect(NodeCalibration.typical == NodeCalibration(rssiAtOneMeter: -59, pathLossExponent: 2))
    }
}
