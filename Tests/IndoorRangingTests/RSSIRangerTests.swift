import Foundation
import IndoorModel
import Testing

@testable import IndoorRanging

@Suite struct RSSIRangerTests {
    static let beacon = BeaconID(
        uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0") ?? UUID(), major: 1, minor: 2)

    @Test func aCorruptAdvertisedPowerGivesTheTypicalDistanceAndFar() {
        var ranger = RSSIRanger()
        let estimate = ranger.ingest(
            Sighting(time: 0, device: "p", source: .beacon(Self.beacon), rssi: -80, txPower: -1e308))
        // −80 dBm with −59 dBm at 1 m, n = 2: 10^(21/20) ≈ 11.22 m.
        #expect(abs(estimate.distance - pow(10, 21.0 / 20)) < 1e-9)
        #expect(abs(estimate.distance - 11.22) < 0.01)
        #expect(estimate.proximity == .far)
        #expect(estimate.calibration == .typical)
    }

    @Test func anImplausibleAdvertisedPowerRangesLikeNoneAtAll() {
        var ranger = RSSIRanger(filter: .exponential(weight: 1, resetAfter: 10))
        // A beacon with other data in its power byte (+50 dBm): −79 dBm is 10 m with the typical −59 dBm, n = 2,
        // the same as without a power, not 10^((50 + 79) / 20) ≈ 2.8 km.
        for (time, power) in [(0.0, 50.0), (1, 0), (2, -19)] {
            let estimate = ranger.ingest(
                Sighting(time: time, device: "p", source: .beacon(Self.beacon), rssi: -79, txPower: power))
            #expect(abs(estimate.distance - 10) < 1e-9)
            #expect(estimate.calibration == .typical)
        }
    }

    @Test func precedenceCalibrationThenAdvertisedPowerThenTypical() {
        let node = Node(
            id: "n1", beacon: Self.beacon, position: Point3D(x: 0, y: 0, z: 0),
            calibration: NodeCalibration(rssiAtOneMeter: -50, pathLossExponent: 2.5))
        var ranger = RSSIRanger(nodes: [node], filter: .exponential(weight: 1, resetAfter: 10))
        // The node's calibration, by beacon identity and by node id: −75 dBm is 10 m at −50 dBm, n = 2.5.
        let byBeacon = ranger.ingest(
            Sighting(time: 0, device: "p", source: .beacon(Self.beacon), rssi: -75, txPower: -59))
        #expect(abs(byBeacon.distance - 10) < 1e-9)
        #expect(abs(ranger.ingest(Sighting(time: 0, device: "p", node: "n1", rssi: -75)).distance - 10) < 1e-9)
        // An uncalibrated radio: the advertised −65 dBm, n = 2: −85 dBm is 10 m.
        let advertised = ranger.ingest(Sighting(time: 0, device: "p", node: "n2", rssi: -85, txPower: -65))
        #expect(abs(advertised.distance - 10) < 1e-9)
        // Neither: −59 dBm, n = 2: −79 dBm is 10 m.
        #expect(abs(ranger.ingest(Sighting(time: 0, device: "p", node: "n3", rssi: -79)).distance - 10) < 1e-9)
    }

    @Test func theExponentialFilterSmoothsRestartsAndTakesLateSamples() {
        var ranger = RSSIRanger(filter: .exponential(weight: 0.5, resetAfter: 10))
        #expect(ranger.ingest(Sighting(time: 20, device: "p", node: "a", rssi: -60)).rssi == -60)
        // A late sample blends in without moving the filter's time back.
        #expect(ranger.ingest(Sighting(time: 5, device: "p", node: "a", rssi: -70)).rssi == -65)
        #expect(ranger.ingest(Sighting(time: 29, device: "p", node: "a", rssi: -75)).rssi == -70)
        // Another device has its own filter; 11 s of silence restarts from the raw value.
        #expect(ranger.ingest(Sighting(time: 29, device: "q", node: "a", rssi: -80)).rssi == -80)
        #expect(ranger.ingest(Sighting(time: 40, device: "p", node: "a", rssi: -90)).rssi == -90)
    }

    @Test func aNonFiniteRSSIIsUnknownAndLeavesTheFilterAlone() {
        var ranger = RSSIRanger()
        _ = ranger.ingest(Sighting(time: 0, device: "p", node: "a", rssi: -60))
        let broken = ranger.ingest(Sighting(time: 1, device: "p", node: "a", rssi: .nan))
        #expect(broken.rssi.isNaN && broken.distance == .infinity && broken.proximity == .unknown)
        #expect(abs(ranger.ingest(Sighting(time: 2, device: "p", node: "a", rssi: -70)).rssi - -63) < 1e-9)
    }

    @Test(arguments: [
        (0.3, Proximity.immediate), (0.5, .immediate), (2.0, .near), (3.0, .near), (5.0, .far),
        (Double.nan, .unknown), (-1.0, .unknown), (Double.infinity, .unknown),
    ])
    func proximityClassesFollowTheThresholds(meters: Double, expected: Proximity) {
        #expect(Proximity.Thresholds.standard.proximity(meters: meters) == expected)
        #expect(Proximity(distance: meters) == expected)
    }

    @Test func theExponentialKindIsOneOfTheStacksFilters() {
        var filter = RSSIFilter(.geofencingDefault)
        filter.add(dBm: -60, at: 0)
        filter.add(dBm: -70, at: 1)
        #expect(filter.value(at: 1).map { abs($0 - -63) < 1e-9 } == true)
        #expect(filter.lastTime == 1)
        #expect(filter.value(at: 11.5) == nil)
        filter.reset()
        #expect(filter.value(at: 1) == nil)
    }
}
