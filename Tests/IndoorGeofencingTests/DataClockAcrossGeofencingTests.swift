import Foundation
import IndoorModel
import Testing

@testable import IndoorGeofencing

/// Time that lies and memory that must stay bounded, in zones, peers and monitoring.
@Suite struct DataClockAcrossGeofencingTests {
    @Test("one fix 1e9 s ahead from an unrelated device checks no one out and is refused")
    func oneFutureFixLosesNoOne() {
        var engine = ZoneEngine(zones: [circleZone()])
        var events: [ZoneEvent] = []
        for time in 0..<10 {
            for device in ["p", "q"] { events += engine.update(with: fix(Double(time), x: 0, device: device)) }
        }
        #expect(summary(events) == ["checkIn@0", "checkIn@0"])
        // It used to check p and q out as lost, and they checked in again (each visit split in two).
        do {
            let result = engine.update(with: fix(1e9, x: 0, device: "rogue"))
            #expect(result.isEmpty)
        }
        #expect(engine.clock.outliers == 1)
        events = []
        for time in 10..<20 {
            for device in ["p", "q"] { events += engine.update(with: fix(Double(time), x: 0, device: device)) }
        }
        #expect(events.isEmpty)
        #expect(engine.openVisits.map(\.device) == ["p", "q"])
        do {
            let result = engine.advance(to: 1e9)
            #expect(result.isEmpty)
        }
        #expect(engine.clock.present == 19)
    }

    @Test("after a fix stamped ahead, the device's fixes at its true time are not ignored as late")
    func aFixStampedAheadDoesNotSilenceItsDevice() {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 2)])
        // Another device, away from the zone: the engine has seen more than one clock.
        _ = engine.update(with: fix(0, x: 50, device: "other"))
        // Far ahead (refused) and slightly ahead (taken, within the horizon): neither silences the device.
        var events = engine.run([fix(0, x: 0), fix(1e9, x: 0), fix(1, x: 0), fix(600, x: 0)])
        // The fix at 600 s is 599 s after the device's previous one: by the lost rule (60 s) it was lost at 61 s
        // and enters anew at 600 s. The one at 1e9 s changed nothing.
        #expect(summary(events) == ["checkIn@0", "checkOut@61", "checkIn@600"])
        #expect(engine.clock.outliers == 1)
        // Its clock is set back to 2 s: the next fixes are not ignored as late (outside, then confidently out
        // for 2 s); the departure is never before the check-in.
        events = engine.run([fix(2, x: 20), fix(3, x: 20), fix(4, x: 20)])
        #expect(summary(events) == ["checkOut@4"])
        #expect(events.first?.departure == 600)
        // Within the late-fix limit (60 s) an older fix is still late and ignored.
        do {
            let result = engine.update(with: fix(3.5, x: 0))
            #expect(result.isEmpty)
        }
    }

    @Test("devices idle past the idle time are forgotten, and at most maximumDevices are kept")
    func idleDevicesAreForgotten() {
        let configuration = ZoneEngine.Configuration(idleTime: 100, maximumDevices: 50)
        var engine = ZoneEngine(zones: [circleZone(retrigger: 30)], configuration: configuration)
        for index in 0..<40 { _ = engine.update(with: fix(Double(index), x: 50, device: "d\(index)")) }
        #expect(engine.rememberedDevices == 40)
        for index in 40..<120 { _ = engine.update(with: fix(Double(index), x: 50, device: "d\(index)")) }
        #expect(engine.rememberedDevices == 50)
        _ = engine.advance(to: 300)
        #expect(engine.rememberedDevices == 0)
        // A closed visit's record lasts while its re-trigger window runs, then goes.
        var events = engine.run([
            fix(300, x: 0, device: "v"), fix(301, x: 20, device: "v"), fix(307, x: 20, device: "v"),
        ])
        #expect(summary(events) == ["checkIn@300", "checkOut@306"])
        _ = engine.advance(to: 335)
        #expect(engine.rememberedDevices == 1)
        events = engine.run([fix(336, x: 0, device: "v")])
        #expect(summary(events) == ["checkIn@336"])
    }

    @Test("the activity log is drained by the caller")
    func drainActivity() {
        var engine = ZoneEngine(zones: [circleZone(checkOutTime: 1)])
        _ = engine.run([fix(0, x: 0), fix(1, x: 20), fix(3, x: 20)])
        let drained = engine.drainActivity()
        #expect(drained.map(\.checkOut) == [1])
        #expect(engine.activity.visits.isEmpty)
        #expect(engine.drainActivity().isEmpty)
    }

    @Test("one peer heard 1e9 s ahead, or a tick from its clock, expires no one")
    func peersSurviveAFutureSighting() {
        var directory = PeerDirectory(timeout: 30)
        let a = PeerKey(major: 1, minor: 1)
        let b = PeerKey(major: 1, minor: 2)
        let rogue = PeerKey(major: 9, minor: 9)
        _ = directory.heard(a, distance: 1, proximity: .near, at: 0)
        _ = directory.heard(b, distance: 2, proximity: .near, at: 1)
        do {
            let result = directory.heard(rogue, distance: 1, proximity: .near, at: 1e9)
            #expect(result.isEmpty)
        }
        do {
            let result = directory.advance(to: 1e9)
            #expect(result.isEmpty)
        }
        #expect(directory.peers.map(\.key) == [a, b])
        #expect(directory.clock.outliers == 2)
        // Real time still expires them, by the due-time queue.
        _ = directory.heard(a, distance: 1, proximity: .near, at: 20)
        let expired = directory.advance(to: 31)
        #expect(expired == [.expired(Peer(key: b, distance: 2, proximity: .near, lastHeard: 1, lastUpdate: 1))])
        #expect(directory.peers.map(\.key) == [a])
    }

    @Test("a monitor refuses a tick far beyond its device's time, and a clock set back shortens no exit")
    func monitorTicks() throws {
        var monitor = BeaconMonitor(exitDelay: 10)
        let beacon = try BeaconID(parsing: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/7")
        _ = try monitor.start([BeaconCondition(uuid: beacon.uuid)], at: 0)
        let sighting = { (t: Double) in Sighting(time: t, device: "me", source: .beacon(beacon), rssi: -60) }
        _ = monitor.ingest(sighting(1))
        do {
            let result = monitor.advance(to: 1e9)
            #expect(result.isEmpty)
        }
        #expect(monitor.satisfiedConditions.count == 1)
        // The device's clock jumps back by a day: the exit comes 10 s after its new time line's last sighting.
        _ = monitor.ingest(sighting(5000))
        _ = monitor.ingest(sighting(-90_000))
        let exits = monitor.advance(to: -89_990)
        #expect(exits.count == 1)
    }
}
