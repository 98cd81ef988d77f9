import Foundation
import IndoorModel
import IndoorRanging
import Testing

@testable import IndoorPositioning

/// Time that lies: one device's clock must not hurt the others (``DataClock``).
@Suite struct PositioningEngineClockTests {
    let nodes = [
        Node(id: "a", position: Point3D(x: 0, y: 0, z: 0)), Node(id: "b", position: Point3D(x: 10, y: 0, z: 0)),
        Node(id: "c", position: Point3D(x: 0, y: 10, z: 0)),
    ]

    func engine(expiry: Double = 60) -> PositioningEngine {
        PositioningEngine(
            nodes: nodes, method: WeightedCentroid(), configuration: .init(window: 5, deviceExpiry: expiry))
    }

    @Test func oneSightingFarInTheFutureForgetsNoOneAndExpiresItself() {
        var engine = engine()
        for time in 0..<10 {
            for device in ["p", "q", "r"] {
                engine.ingest(Sighting(time: Double(time), device: device, node: "a", rssi: -60))
            }
        }
        // One unrelated device, 1e9 s ahead: it used to make the engine forget p, q and r at once.
        let used = engine.ingest(Sighting(time: 1e9, device: "rogue", node: "b", rssi: -60))
        #expect(used)
        #expect(engine.clock.present == 9)
        #expect(engine.clock.outliers == 1)
        #expect(engine.deviceCount == 4)
        for time in 10..<140 {
            for device in ["p", "q", "r"] {
                engine.ingest(Sighting(time: Double(time), device: device, node: "a", rssi: -60))
            }
            #expect(engine.readings(device: "p", at: Double(time)).map(\.rssi) == [-60])
        }
        // The rogue was heard at present 9; sweeps run once per expiry (60 s) of present: by 139 s it is gone.
        #expect(engine.deviceCount == 3)
        #expect(engine.readings(device: "rogue", at: 1e9).isEmpty)
    }

    @Test func twoClocksFarApartDoNotSweepOnEverySighting() {
        var engine = engine()
        let sweepsBefore = engine.sweeps
        for step in 0..<200 {
            let time = Double(step) / 2
            engine.ingest(Sighting(time: time, device: "d\(step % 5)", node: "a", rssi: -60))
            // A second source whose clock is 1e9 s ahead, interleaved.
            engine.ingest(Sighting(time: 1e9 + time, device: "far", node: "b", rssi: -70))
        }
        // 100 s of present with a 60 s expiry: the first sweep and one more, not one per sighting.
        #expect(engine.sweeps - sweepsBefore <= 3)
        #expect(engine.clock.present == 99.5)
        #expect(engine.clock.outliers == 200)
        #expect(engine.deviceCount == 6)
        // The far device's own clock drives its own readings.
        #expect(engine.readings(device: "far", at: 1e9 + 99.5).map(\.rssi) == [-70])
        #expect(engine.readings(device: "d0", at: 99.5).isEmpty == false)
    }

    @Test func readingsStampedAfterTheQueryTimeAreNotFresh() {
        var engine = engine()
        engine.ingest(Sighting(time: 30, device: "p", node: "a", rssi: -60))
        // Heard at 30 s: fresh from 25 s (a window before the latest) to 35 s, not at 20 s.
        #expect(engine.readings(device: "p", at: 20).isEmpty)
        #expect(engine.readings(device: "p", at: 26).map(\.node.id) == ["a"])
        #expect(engine.readings(device: "p", at: 35).map(\.node.id) == ["a"])
        #expect(engine.readings(device: "p", at: 36).isEmpty)
    }

    @Test func aClockRunningBackwardsRestartsItsDevice() {
        var engine = engine()
        for time in 0...100 {
            engine.ingest(Sighting(time: Double(time), device: "p", node: "a", rssi: -60))
        }
        // The clock runs back by 90 s (more than the 60 s expiry): what was heard at 11…100 s must not count.
        engine.ingest(Sighting(time: 10, device: "p", node: "b", rssi: -70))
        #expect(engine.readings(device: "p", at: 12).map(\.node.id) == ["b"])
        // A late sighting (back by less than the expiry) is only late: the device keeps what it heard.
        engine.ingest(Sighting(time: 11, device: "p", node: "a", rssi: -60))
        engine.ingest(Sighting(time: 8, device: "p", node: "c", rssi: -80))
        #expect(engine.readings(device: "p", at: 11).map(\.node.id) == ["a", "b", "c"])
    }

    @Test func venueTimeThatMovedOnIsAdoptedWhenASecondDeviceAgrees() {
        var engine = engine()
        for time in 0..<10 { engine.ingest(Sighting(time: Double(time), device: "p", node: "a", rssi: -60)) }
        // The whole venue was quiet for a day: the first device's morning sighting is an outlier …
        engine.ingest(Sighting(time: 86_400, device: "q", node: "a", rssi: -60))
        #expect(engine.clock.present == 9)
        #expect(engine.deviceCount == 2)
        // … until a second device confirms the new time: the present jumps and p (a day old) is forgotten.
        engine.ingest(Sighting(time: 86_401, device: "r", node: "b", rssi: -60))
        #expect(engine.clock.present == 86_401)
        #expect(engine.deviceCount == 2)
        #expect(engine.readings(device: "p", at: 9).isEmpty)
        #expect(engine.readings(device: "q", at: 86_401).map(\.node.id) == ["a"])
    }
}
