import Foundation
import IndoorModel
import Testing

@testable import IndoorGeofencing

/// Records delegate callbacks; the lock makes it safe to call from the observer's actor.
final class RecordingDelegate: BeaconObserverDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [String] = []

    var recorded: [String] { lock.withLock { calls } }

    private func record(_ call: String) { lock.withLock { calls.append(call) } }

    func didStartObserving(_ conditions: [BeaconCondition], at time: Double) { record("start \(conditions.count)") }
    func didStopObserving(_ stop: ObservationStop) { record("stop \(stop.reason.rawValue) \(stop.beacons.count)") }
    func didEnterArea(_ condition: BeaconCondition, beacon: BeaconID, at time: Double) {
        record("enter \(beacon.minor)")
    }
    func didFindBeacon(_ found: FoundBeacon) { record("found \(found.beacon.minor)") }
    func didLeaveArea(_ exit: AreaExit) { record("left \(exit.beacon.minor)") }
}

@Suite("Beacon observer")
struct BeaconObserverTests {
    @Test("events reach the async sequence and the delegate, in order")
    func streamAndDelegate() async throws {
        let observer = BeaconObserver(monitor: BeaconMonitor(exitDelay: 10))
        let delegate = RecordingDelegate()
        await observer.setDelegate(delegate)
        try await observer.start([BeaconCondition(uuid: monitorUUID)], at: 0)
        await observer.ingest(heard(1, beacon(4)))
        await observer.ingest(heard(2, beacon(4)))
        await observer.advance(to: 12)
        await observer.ingest(heard(13, beacon(5)))
        await observer.revokeAuthorization(at: 14)
        await observer.finish()
        var names: [String] = []
        for await event in observer.events {
            switch event {
            case .didStartObserving(let conditions, _): names.append("start \(conditions.count)")
            case .didStopObserving(let stop): names.append("stop \(stop.reason.rawValue) \(stop.beacons.count)")
            case .didEnterArea(_, let beacon, _): names.append("enter \(beacon.minor)")
            case .didFindBeacon(let found): names.append("found \(found.beacon.minor)")
            case .didLeaveArea(let exit): names.append("left \(exit.beacon.minor)")
            }
        }
        let expected = [
            "start 1", "enter 4", "found 4", "found 4", "left 4", "enter 5", "found 5", "stop authorizationRevoked 1",
        ]
        #expect(names == expected)
        #expect(delegate.recorded == expected)
        #expect(await !observer.isObserving)
    }

    @Test("starting with no beacons, or twice, throws a clear error and emits nothing")
    func observerErrors() async throws {
        let observer = BeaconObserver(monitor: BeaconMonitor())
        await #expect(throws: MonitorError.emptyBeaconList) { try await observer.start([], at: 0) }
        try await observer.start([BeaconCondition(uuid: monitorUUID)], at: 0)
        await #expect(throws: MonitorError.observationInProgress) {
            try await observer.start([BeaconCondition(uuid: monitorUUID)], at: 1)
        }
        await observer.stop(at: 2)
        await observer.finish()
        var count = 0
        for await _ in observer.events { count += 1 }
        #expect(count == 2)
    }
}
