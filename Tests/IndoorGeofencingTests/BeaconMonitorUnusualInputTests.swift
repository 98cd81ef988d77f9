import Foundation
import IndoorModel
import Testing

@testable import IndoorGeofencing

/// Sightings a monitor must survive: non-finite times, late packets.
struct BeaconMonitorUnusualInputTests {
    @Test("a sighting with a NaN or infinite time is ignored: no entry, and no instant exit afterwards")
    func nonFiniteTime() throws {
        var monitor = BeaconMonitor(ranger: ThresholdRanger(), exitDelay: 10)
        _ = try monitor.start([BeaconCondition(uuid: monitorUUID)], at: 0)
        #expect(monitor.ingest(heard(.nan, beacon(7))).isEmpty)
        #expect(monitor.ingest(heard(.infinity, beacon(7))).isEmpty)
        #expect(monitor.satisfiedConditions.isEmpty)
        // The next real packets enter once, and the exit comes 10 s after the last of them.
        var events = monitor.ingest(heard(1, beacon(7)))
        events += monitor.ingest(heard(2, beacon(7)))
        events += monitor.advance(to: 11.5)
        #expect(events.filter { if case .didLeaveArea = $0 { true } else { false } }.isEmpty)
        events = monitor.advance(to: 12)
        #expect(
            events == [
                .didLeaveArea(
                    AreaExit(condition: BeaconCondition(uuid: monitorUUID), beacon: beacon(7), lastHeard: 2, time: 12))
            ])
    }

    @Test("the smoothing ranger: a late sighting blends in but does not move the filter's time back")
    func rangerLateSighting() {
        var ranger = SmoothingRanger(smoothing: 0.5, resetAfter: 10)
        _ = ranger.range(heard(20, beacon(1), rssi: -60, tx: nil))
        let late = ranger.range(heard(5, beacon(1), rssi: -70, tx: nil))
        #expect(late.rssi == -65)
        // 9 s after the newest sighting (20), not 24 s after the late one: still smoothing.
        let next = ranger.range(heard(29, beacon(1), rssi: -75, tx: nil))
        #expect(next.rssi == -70)
    }

    @Test("a corrupt advertised tx power (−1e308 dBm) is ignored: the typical −59 dBm at 1 m, about 11.2 m, far")
    func corruptTxPower() throws {
        var ranger = SmoothingRanger()
        let ranged = ranger.range(heard(0, beacon(1), rssi: -80, tx: -1e308))
        #expect(abs(ranged.distance - pow(10, 21.0 / 20)) < 1e-9)
        #expect(ranged.proximity == .far)
        var monitor = BeaconMonitor(exitDelay: 10)
        _ = try monitor.start([BeaconCondition(uuid: monitorUUID)], at: 0)
        let found = monitor.ingest(heard(0, beacon(7), rssi: -80, tx: -1e308)).compactMap { event -> RangedBeacon? in
            if case .didFindBeacon(let found) = event { found.ranging } else { nil }
        }
        #expect(found.map(\.proximity) == [.far])
        #expect(found.first.map { abs($0.distance - 11.22) < 0.01 } == true)
    }

    @Test("a late packet never moves the exit earlier")
    func latePacket() throws {
        var monitor = BeaconMonitor(ranger: ThresholdRanger(), exitDelay: 10)
        _ = try monitor.start([BeaconCondition(uuid: monitorUUID)], at: 0)
        _ = monitor.ingest(heard(20, beacon(7)))
        _ = monitor.ingest(heard(3, beacon(7)))
        #expect(monitor.advance(to: 29.9).isEmpty)
        let exits = monitor.advance(to: 30)
        #expect(
            exits == [
                .didLeaveArea(
                    AreaExit(condition: BeaconCondition(uuid: monitorUUID), beacon: beacon(7), lastHeard: 20, time: 30))
            ])
    }
}
