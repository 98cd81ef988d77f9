import Foundation
import IndoorModel
import Testing

@Suite("Calibrations by sighting source")
struct NodeCalibrationTests {
    @Test func keyedByNodeIdAndBeaconIdentity() throws {
        let uuid = try #require(UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        let beacon = BeaconID(uuid: uuid, major: 1, minor: 2)
        let surveyed = NodeCalibration(rssiAtOneMeter: -52, pathLossExponent: 2.4)
        let other = NodeCalibration(rssiAtOneMeter: -61, pathLossExponent: 1.9)
        let table = NodeCalibration.bySource(of: [
            Node(id: "a", beacon: beacon, position: Point3D(x: 0, y: 0, z: 2), calibration: surveyed),
            Node(id: "b", position: Point3D(x: 5, y: 0, z: 2), calibration: other),
            Node(id: "c", position: Point3D(x: 0, y: 5, z: 2)),
        ])
        #expect(table == [.node("a"): surveyed, .beacon(beacon): surveyed, .node("b"): other])
    }
}
