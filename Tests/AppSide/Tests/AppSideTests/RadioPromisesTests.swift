import Foundation
import IndoorAdvertising
import IndoorCoreLocation
import IndoorModel
import IndoorRanging
import IndoorSession
import Testing

/// What the documents promise an app that talks to the radio itself: its own Bluetooth code (docs/ADVERTISING.md),
/// the RSSI stack (IndoorRanging's catalog) and CoreLocation's decisions (docs/SCAN.md), with the public API alone.
@Suite("App side: the app's own radio")
struct RadioPromisesTests {
    @Test("ADVERTISING.md: the app's own Bluetooth code decodes an iBeacon advertisement into a sighting")
    func ownBluetoothCodeMakesSightings() throws {
        let beacon = AppSide.beacon(42)
        let iBeacon = IBeacon(id: beacon, measuredPowerDBm: -59)
        // CoreBluetooth hands out the manufacturer data; a Linux scanner the whole advertising data.
        #expect(IBeacon(manufacturerData: iBeacon.manufacturerData)?.id == beacon)
        let frame = try #require(try BeaconFrame.decode(advertisingData: iBeacon.advertisingData))
        #expect(frame.identity == .beacon(beacon) && frame.powerAtOneMeter == -59)
        let address = try #require(BluetoothAddress("C0:FF:EE:00:00:01"))
        let heard = BeaconAdvertisement(time: 1_700_000_000.25, address: address, frame: frame, rssiDBm: -61)
        #expect(
            heard.sighting(device: "phone")
                == Sighting(time: 1_700_000_000.25, device: "phone", source: .beacon(beacon), rssi: -61, txPower: -59))
        let unmeasured = BeaconAdvertisement(time: 1, address: address, frame: frame, rssiDBm: nil)
        #expect(unmeasured.sighting(device: "phone") == nil)
    }

    @Test("ADVERTISING.md: the encoders: AD structures, Eddystone-URL and -EID frames, read back")
    func encodersReadBack() throws {
        let structures = [ADStructure(type: 0x01, data: [0x06]), ADStructure(type: 0xFF, data: [0x4C, 0x00, 0x02])]
        #expect(try ADStructure.parse(ADStructure.encode(structures)) == structures)
        let url = try EddystoneURL(url: "https://example.com/", txPowerAtZeroMetersDBm: -20)
        #expect(url.url == "https://example.com/" && url.powerAtOneMeter == -61)
        #expect(try BeaconFrame.decode(advertisingData: url.advertisingData)?.kind == "eddystone-url")
        let eid = EddystoneEID(eid: 0x0102_0304_0506_0708, txPowerAtZeroMetersDBm: -20)
        #expect(eid.hex == "0102030405060708")
        #expect(
            try BeaconFrame.decode(advertisingData: eid.advertisingData)?.identity
                == .node("eddystone-eid:0102030405060708"))
        #expect(throws: AdvertisingError.self) { try EddystoneURL(url: "ftp://example.com", txPowerAtZeroMetersDBm: 0) }
    }

    @Test("IndoorRanging: the app's own RSSI filter and ranger answer filtered RSSI, distance and proximity")
    func rssiStackOfTheApp() {
        var filter = RSSIFilter(.exponential(weight: 0.5, resetAfter: 10))
        filter.add(dBm: -60, at: 0)
        filter.add(dBm: -70, at: 1)
        #expect(filter.value(at: 1) == -65 && filter.lastTime == 1)
        var ranger = RSSIRanger(filter: .exponential(weight: 1, resetAfter: 10))
        let estimate = ranger.ingest(
            Sighting(time: 0, device: "me", source: .beacon(AppSide.beacon(1)), rssi: -79, txPower: -59))
        #expect(abs(estimate.distance - 10) < 1e-9 && estimate.proximity == .far)
        #expect(RSSIAtOneMeter.advertised(-59) == -59)
        let own = RangeEstimate(rssi: -59, distance: 1, proximity: .near, calibration: NodeCalibration.typical)
        #expect(own.proximity == Proximity.Thresholds.standard.proximity(meters: own.distance))
    }

    @Test("SCAN.md: a CLBeacon's fields become a sighting; rssi 0 is not measured")
    func rangedBeaconReadingsBecomeSightings() {
        let reading = RangedBeaconReading(
            uuid: AppSide.uuid, major: 1, minor: 7, rssi: -63, accuracy: 1.2, timestamp: 1_700_000_000)
        #expect(
            reading.sighting(device: "phone")
                == Sighting(time: 1_700_000_000, device: "phone", source: .beacon(AppSide.beacon(7)), rssi: -63))
        let notMeasured = RangedBeaconReading(
            uuid: AppSide.uuid, major: 1, minor: 7, rssi: 0, accuracy: -1, timestamp: 1_700_000_001)
        #expect(notMeasured.sighting(device: "phone") == nil)
    }

    @Test("SCAN.md: what to do when the authorisation changes")
    func authorizationPolicyDecides() {
        #expect(
            AuthorizationPolicy.actions(from: nil, to: .notDetermined) == [
                .updateScanner(.notDetermined), .requestWhenInUse,
            ])
        #expect(
            AuthorizationPolicy.actions(from: .notDetermined, to: .whenInUse) == [
                .updateScanner(.whenInUse), .startRanging,
            ])
        #expect(AuthorizationPolicy.actions(from: .whenInUse, to: .denied) == [.updateScanner(.denied), .stopRanging])
    }

    @Test("SCAN.md: the 20-region budget drops covered conditions, then widens")
    func regionBudgetFitsTheLimit() {
        #expect(RegionBudget.platformLimit == 20 && RegionBudget().limit == 20)
        let beacons = (1...30).map { BeaconCondition(uuid: AppSide.uuid, major: UInt16($0 % 3), minor: UInt16($0)) }
        let plan = RegionBudget().plan(beacons)
        #expect(plan.widened && plan.dropped.isEmpty && plan.monitored.count == 3)
        let small = RegionBudget(limit: 2).plan([
            BeaconCondition(uuid: AppSide.uuid), BeaconCondition(AppSide.beacon(1)),
        ])
        #expect(
            small == RegionBudget.Plan(monitored: [BeaconCondition(uuid: AppSide.uuid)], widened: false, dropped: []))
    }

    @Test("SCAN.md: monitored conditions' identifiers, and CoreLocation's events back")
    func monitoredConditionsRoundTrip() throws {
        let condition = BeaconCondition(uuid: AppSide.uuid, major: 1)
        let identifier = MonitoredCondition.identifier(condition)
        let event = MonitoredCondition.event(
            identifier: identifier, satisfied: true, date: Date(timeIntervalSince1970: 5))
        #expect(event == MonitoredCondition.Event(condition: condition, inside: true, time: 5))
        #expect(MonitoredCondition.event(identifier: identifier, satisfied: nil, date: Date()) == nil)
    }

    @Test("SCAN.md: fixes and scan results as the app's locations, and CoreLocation's values in")
    func deviceLocationsBothWays() {
        let fix = Fix(
            time: 3, device: "p", position: Point3D(x: 1, y: 2, z: 0), floor: 1, accuracy: 2, confidence: 0.5,
            method: "app", coordinate: GeoCoordinate(latitude: 52.5, longitude: 13.4))
        #expect(
            DeviceLocation(fix)
                == DeviceLocation(latitude: 52.5, longitude: 13.4, horizontalAccuracy: 2, floor: 1, timestamp: 3))
        let known = DeviceLocation(
            coreLocationLatitude: 52.5, longitude: 13.4, horizontalAccuracy: -1, floorLevel: nil,
            timestamp: Date(timeIntervalSince1970: 7))
        #expect(known?.horizontalAccuracy == nil && known?.timestamp == 7)
    }
}
