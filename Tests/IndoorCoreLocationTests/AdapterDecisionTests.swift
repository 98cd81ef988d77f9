import Foundation
import IndoorCoreLocation
import IndoorModel
import IndoorSession
import Testing

private let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0") ?? UUID()

@Suite("CoreLocation adapter decisions (platform-free)")
struct AdapterDecisionTests {
    @Test func aRangedBeaconBecomesASightingUnlessItsRSSIIsZero() {
        let reading = RangedBeaconReading(uuid: uuid, major: 1, minor: 7, rssi: -71, accuracy: 2.5, timestamp: 100)
        #expect(
            reading.sighting(device: "phone")
                == Sighting(
                    time: 100, device: "phone", source: .beacon(BeaconID(uuid: uuid, major: 1, minor: 7)), rssi: -71))
        var silent = reading
        silent.rssi = 0  // CoreLocation still lists a beacon it stopped hearing, with rssi 0 and accuracy −1
        silent.accuracy = -1
        #expect(silent.sighting(device: "phone") == nil)
        var corrupt = reading
        corrupt.rssi = 127
        #expect(corrupt.sighting(device: "phone") == nil)
        corrupt.rssi = -70
        corrupt.timestamp = .nan
        #expect(corrupt.sighting(device: "phone") == nil)
    }

    @Test(arguments: [
        (
            LocationAuthorization?.none, LocationAuthorization.notDetermined,
            [AuthorizationPolicy.Action.updateScanner(.notDetermined), .requestWhenInUse]
        ),
        (LocationAuthorization.notDetermined, .whenInUse, [.updateScanner(.whenInUse), .startRanging]),
        (.whenInUse, .always, [.updateScanner(.always)]),
        (.always, .denied, [.updateScanner(.denied), .stopRanging]),
        (.denied, .denied, []),
        (nil, .restricted, [.updateScanner(.restricted)]),
    ])
    func authorisationChanges(
        old: LocationAuthorization?, new: LocationAuthorization, actions: [AuthorizationPolicy.Action]
    ) {
        #expect(AuthorizationPolicy.actions(from: old, to: new) == actions)
    }

    @Test func conditionsAreFittedIntoTheTwentyRegionLimit() throws {
        // 30 beacons of 3 majors: too many one by one, so widened to their majors.
        let beacons = (0..<30).map { BeaconCondition(uuid: uuid, major: UInt16($0 % 3), minor: UInt16($0)) }
        let plan = RegionBudget().plan(beacons)
        #expect(plan.widened)
        #expect(plan.monitored == [0, 1, 2].map { BeaconCondition(uuid: uuid, major: $0) })
        #expect(plan.dropped.isEmpty)
        // 25 majors: widened to the UUID.
        let majors = (0..<25).map { BeaconCondition(uuid: uuid, major: UInt16($0), minor: 1) }
        #expect(RegionBudget().plan(majors).monitored == [BeaconCondition(uuid: uuid)])
        // Few enough: kept as they are, without those a wider one covers.
        let few = [BeaconCondition(uuid: uuid, major: 1, minor: 2), BeaconCondition(uuid: uuid, major: 1)]
        #expect(RegionBudget().plan(few) == RegionBudget.Plan(monitored: [few[1]], widened: false, dropped: []))
        // More than 20 UUIDs: the first 20 kept, the rest reported.
        let uuids = (0..<22).map { _ in BeaconCondition(uuid: UUID()) }
        let crowded = RegionBudget().plan(uuids)
        #expect(crowded.monitored.count == RegionBudget.platformLimit && crowded.dropped == Array(uuids.suffix(2)))
    }

    @Test func monitoringEventsAreTranslatedBackByIdentifier() throws {
        let condition = BeaconCondition(uuid: uuid, major: 4)
        let identifier = MonitoredCondition.identifier(condition)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(
            MonitoredCondition.event(identifier: identifier, satisfied: true, date: date)
                == MonitoredCondition.Event(condition: condition, inside: true, time: 1_700_000_000))
        #expect(MonitoredCondition.event(identifier: identifier, satisfied: nil, date: date) == nil)
        #expect(MonitoredCondition.event(identifier: "someone else's", satisfied: true, date: date) == nil)
    }

    @Test func fixesAndResultsBecomeLocationsWithAFloor() {
        let fix = Fix(
            time: 5, device: "p", position: Point3D(x: 1, y: 2, z: 0), floor: 2, accuracy: 1.5, confidence: 0.8,
            method: "nonlinear", coordinate: GeoCoordinate(latitude: 52.5, longitude: 13.4))
        #expect(
            DeviceLocation(fix)
                == DeviceLocation(latitude: 52.5, longitude: 13.4, horizontalAccuracy: 1.5, floor: 2, timestamp: 5))
        var plain = fix
        plain.coordinate = nil
        #expect(DeviceLocation(plain) == nil)
    }
}
