import Foundation
import IndoorModel
import IndoorRanging
import Testing

@testable import IndoorGeofencing

let monitorUUID = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0") ?? UUID()
let otherUUID = UUID(uuidString: "B9407F30-F5F8-466E-AFF9-25556B57FE6D") ?? UUID()

func beacon(_ minor: UInt16, major: UInt16 = 1, uuid: UUID = monitorUUID) -> BeaconID {
    BeaconID(uuid: uuid, major: major, minor: minor)
}

func heard(_ t: Double, _ beacon: BeaconID, rssi: Double = -59, tx: Double? = -59) -> Sighting {
    Sighting(time: t, device: "me", source: .beacon(beacon), rssi: rssi, txPower: tx)
}

/// A ranger that reports proximity unknown below −95 dBm and otherwise 1 m / near, so tests can steer it.
struct ThresholdRanger: BeaconRanger {
    mutating func range(_ sighting: Sighting) -> RangedBeacon {
        let known = sighting.rssi > -95
        return RangedBeacon(
            time: sighting.time, device: sighting.device, source: sighting.source, rssi: sighting.rssi,
            distance: known ? 1 : .infinity, proximity: known ? .near : .unknown)
    }
}

@Suite("Beacon monitor")
struct BeaconMonitorTests {
    @Test("entering, ranging with missed packets, and leaving the area after the exit delay")
    func rangingAndLeftArea() throws {
        var monitor = BeaconMonitor(exitDelay: 10)
        let start = try monitor.start([BeaconCondition(uuid: monitorUUID)], at: 0)
        #expect(start == [.didStartObserving(conditions: [BeaconCondition(uuid: monitorUUID)], time: 0)])
        var events: [MonitorEvent] = []
        // 1 Hz with packets missing at 3 and 6…9 (a 5 s gap): never long enough to exit.
        for second in [1, 2, 4, 5, 10, 11, 12] {
            events += monitor.ingest(heard(Double(second), beacon(7)))
        }
        // A beacon of another UUID is not observed.
        events += monitor.ingest(heard(12.5, beacon(7, uuid: otherUUID)))
        let entered = events.filter { if case .didEnterArea = $0 { true } else { false } }
        let found = events.compactMap { if case .didFindBeacon(let found) = $0 { found } else { nil } }
        let left = events.filter { if case .didLeaveArea = $0 { true } else { false } }
        #expect(entered == [.didEnterArea(condition: BeaconCondition(uuid: monitorUUID), beacon: beacon(7), time: 1)])
        #expect(found.count == 7)
        #expect(left.isEmpty)
        let last = try #require(found.last)
        #expect(last.beacon == beacon(7))
        #expect(abs(last.ranging.rssi - -59) < 1e-9)
        #expect(abs(last.ranging.distance - 1) < 1e-9)
        #expect(last.ranging.proximity == .near)
        #expect(monitor.advance(to: 21.9).isEmpty)
        let exit = monitor.advance(to: 22)
        #expect(
            exit == [
                .didLeaveArea(
                    AreaExit(condition: BeaconCondition(uuid: monitorUUID), beacon: beacon(7), lastHeard: 12, time: 22))
            ])
        #expect(monitor.satisfiedConditions.isEmpty)
        // Ranging stopped: nothing more until a beacon is heard again, which re-enters.
        #expect(monitor.advance(to: 100).isEmpty)
        let again = monitor.ingest(heard(101, beacon(8)))
        #expect(
            again.first == .didEnterArea(condition: BeaconCondition(uuid: monitorUUID), beacon: beacon(8), time: 101))
    }

    @Test("a wildcard condition names every beacon it ranged when it is left")
    func leftAreaNamesEachBeacon() throws {
        var monitor = BeaconMonitor(exitDelay: 5)
        _ = try monitor.start([BeaconCondition(uuid: monitorUUID, major: 1)], at: 0)
        _ = monitor.ingest(heard(0, beacon(2)))
        _ = monitor.ingest(heard(1, beacon(1)))
        _ = monitor.ingest(heard(2, beacon(3, major: 2)))
        let exit = monitor.advance(to: 6)
        let names = exit.compactMap { if case .didLeaveArea(let exit) = $0 { exit.beacon } else { nil } }
        #expect(names == [beacon(1), beacon(2)])
        #expect(exit.allSatisfy { $0.time == 6 })
    }

    @Test("exits of several conditions come out in time order")
    func exitsInTimeOrder() throws {
        var monitor = BeaconMonitor(exitDelay: 10)
        _ = try monitor.start([BeaconCondition(beacon(1)), BeaconCondition(beacon(2))], at: 0)
        _ = monitor.ingest(heard(0, beacon(2)))
        _ = monitor.ingest(heard(5, beacon(1)))
        let exits = monitor.advance(to: 30)
        #expect(exits.map(\.time) == [10, 15])
        #expect(
            exits.compactMap { if case .didLeaveArea(let exit) = $0 { exit.beacon } else { nil } } == [
                beacon(2), beacon(1),
            ])
    }

    @Test("beacons whose proximity is unknown keep the condition satisfied but are not reported as found")
    func unknownProximityNotFound() throws {
        var monitor = BeaconMonitor(ranger: ThresholdRanger(), exitDelay: 10)
        _ = try monitor.start([BeaconCondition(beacon(1))], at: 0)
        let weak = monitor.ingest(heard(0, beacon(1), rssi: -99))
        #expect(weak == [.didEnterArea(condition: BeaconCondition(beacon(1)), beacon: beacon(1), time: 0)])
        let strong = monitor.ingest(heard(8, beacon(1), rssi: -70))
        #expect(strong.count == 1)
        #expect(monitor.ingest(heard(16, beacon(1), rssi: -99)).isEmpty)
        #expect(monitor.advance(to: 25).isEmpty)
        #expect(monitor.advance(to: 26).count == 1)
    }

    @Test("errors: an empty list, starting twice, and the adapters' capability codes")
    func errors() throws {
        var monitor = BeaconMonitor()
        let empty = try #require(throws: MonitorError.self) { _ = try monitor.start([], at: 0) }
        #expect(empty.code == .emptyBeaconList)
        #expect(empty.message.contains("at least one") == true)
        _ = try monitor.start([BeaconCondition(uuid: monitorUUID)], at: 0)
        let twice = try #require(throws: MonitorError.self) {
            _ = try monitor.start([BeaconCondition(uuid: otherUUID)], at: 1)
        }
        #expect(twice.code == .observationInProgress)
        #expect(monitor.conditions == [BeaconCondition(uuid: monitorUUID)])

        let cases: [(MonitorCapabilities, MonitorError.Code)] = [
            (
                MonitorCapabilities(
                    locationServicesEnabled: false, authorized: false, monitoringAvailable: true, rangingAvailable: true
                ), .locationServicesDisabled
            ),
            (
                MonitorCapabilities(
                    locationServicesEnabled: true, authorized: false, monitoringAvailable: true, rangingAvailable: true),
                .notAuthorized
            ),
            (
                MonitorCapabilities(
                    locationServicesEnabled: true, authorized: true, monitoringAvailable: false, rangingAvailable: true),
                .monitoringUnsupported
            ),
            (
                MonitorCapabilities(
                    locationServicesEnabled: true, authorized: true, monitoringAvailable: true, rangingAvailable: false),
                .rangingUnsupported
            ),
        ]
        for (capabilities, code) in cases {
            var fresh = BeaconMonitor()
            let error = try #require(throws: MonitorError.self) {
                _ = try fresh.start([BeaconCondition(uuid: monitorUUID)], at: 0, capabilities: capabilities)
            }
            #expect(error.code == code)
            #expect(!fresh.isObserving)
        }
    }

    @Test("revoking authorisation stops observing and names the conditions and beacons that stopped")
    func revokeAuthorization() throws {
        var monitor = BeaconMonitor()
        let conditions = [BeaconCondition(uuid: monitorUUID), BeaconCondition(uuid: otherUUID, major: 4)]
        _ = try monitor.start(conditions + [conditions[0]], at: 0)
        #expect(monitor.conditions == conditions)
        _ = monitor.ingest(heard(1, beacon(9)))
        _ = monitor.ingest(heard(2, beacon(3)))
        let stop = monitor.revokeAuthorization(at: 3)
        #expect(
            stop == [
                .didStopObserving(
                    ObservationStop(
                        reason: .authorizationRevoked, conditions: conditions, beacons: [beacon(3), beacon(9)], time: 3)
                )
            ])
        #expect(!monitor.isObserving)
        #expect(monitor.ingest(heard(4, beacon(9))).isEmpty)
        #expect(monitor.stop(at: 5).isEmpty)
        // A new observation can start.
        #expect(try monitor.start(conditions, at: 6).count == 1)
    }
}

@Suite("Smoothing ranger")
struct SmoothingRangerTests {
    @Test("moving average, reset after silence, log-distance with tx power, calibration or −59 dBm")
    func ranging() {
        var ranger = SmoothingRanger(smoothing: 0.3, resetAfter: 10)
        let first = ranger.range(heard(0, beacon(1), rssi: -60, tx: nil))
        #expect(first.rssi == -60)
        let second = ranger.range(heard(1, beacon(1), rssi: -70, tx: nil))
        #expect(abs(second.rssi - -63) < 1e-9)
        // −79 dBm, −59 dBm at 1 m, exponent 2: 10 m.
        let restarted = ranger.range(heard(20, beacon(1), rssi: -79, tx: nil))
        #expect(restarted.rssi == -79)
        #expect(abs(restarted.distance - 10) < 1e-9)
        #expect(restarted.proximity == .far)
        // The sighting's tx power: −65 dBm at 1 m, heard at −65: 1 m.
        let withTx = ranger.range(heard(0, beacon(2), rssi: -65, tx: -65))
        #expect(abs(withTx.distance - 1) < 1e-9)
        #expect(withTx.proximity == .near)
        // A surveyed calibration wins over the tx power: −50 at 1 m, exponent 2.5, heard at −50: 1 m.
        let node = Node(
            id: "b5", beacon: beacon(5), position: Point3D(x: 0, y: 0, z: 0),
            calibration: NodeCalibration(rssiAtOneMeter: -50, pathLossExponent: 2.5))
        var calibrated = SmoothingRanger(nodes: [node])
        #expect(abs(calibrated.range(heard(0, beacon(5), rssi: -50, tx: -59)).distance - 1) < 1e-9)
        let byNode = calibrated.range(Sighting(time: 0, device: "me", node: "b5", rssi: -75))
        #expect(abs(byNode.distance - 10) < 1e-9)
        // Very close: immediate.
        #expect(ranger.range(heard(0, beacon(3), rssi: -45, tx: -59)).proximity == .immediate)
    }
}
