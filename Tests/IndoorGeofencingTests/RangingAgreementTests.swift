import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning
import IndoorRanging
import Testing

/// Positioning and geofencing range with the one stack: the same sighting gives the same distance and class.
@Suite struct RangingAgreementTests {
    static let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0") ?? UUID()
    static let beacon = BeaconID(uuid: uuid, major: 1, minor: 7)
    /// A node without a calibration of its own, known by its beacon identity.
    static let node = Node(id: "b7", beacon: beacon, position: Point3D(x: 0, y: 0, z: 0))
    /// −80 dBm carrying an advertised transmit power no beacon frame can carry.
    static let sighting = Sighting(time: 0, device: "me", source: .beacon(beacon), rssi: -80, txPower: -1e308)
    /// −80 dBm with the typical −59 dBm at 1 m and n = 2: 10^(21/20) ≈ 11.22 m.
    static let expected = pow(10, 21.0 / 20)

    @Test func aCorruptAdvertisedPowerGivesTheSameDistanceEverywhere() throws {
        var engine = PositioningEngine(nodes: [Self.node], method: WeightedCentroid())
        let used = engine.ingest(Self.sighting)
        #expect(used)
        let reading = try #require(engine.readings(device: "me", at: 0).first)
        #expect(abs(reading.distance - Self.expected) < 1e-9)
        #expect(abs(reading.distance - 11.22) < 0.01)
        #expect(engine.proximities(device: "me", at: 0) == ["b7": .far])

        var ranger = SmoothingRanger(nodes: [Self.node])
        let ranged = ranger.range(Self.sighting)
        #expect(abs(ranged.distance - reading.distance) < 1e-9)
        #expect(ranged.proximity == .far)

        var stack = RSSIRanger(nodes: [Self.node], filter: .kalman(processNoise: 4, measurementNoise: 16))
        let kalman = stack.range(Self.sighting)
        #expect(abs(kalman.distance - reading.distance) < 1e-9)

        var monitor = BeaconMonitor(exitDelay: 10)
        _ = try monitor.start([BeaconCondition(uuid: Self.uuid)], at: 0)
        let found = monitor.ingest(Self.sighting).compactMap { event -> RangedBeacon? in
            if case .didFindBeacon(let found) = event { found.ranging } else { nil }
        }
        #expect(found.count == 1)
        #expect(found.first.map { abs($0.distance - Self.expected) < 1e-9 && $0.proximity == .far } == true)
    }
}
