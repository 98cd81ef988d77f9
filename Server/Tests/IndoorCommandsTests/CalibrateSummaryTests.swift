import Foundation
import IndoorModel
import IndoorPositioning
import IndoorRanging
import Testing

@testable import IndoorCommands

@Suite("indoor calibrate summary")
struct CalibrateSummaryTests {
    @Test func aDuplicateNodeIdIsListedOnce() {
        let nodes = [
            Node(id: "a", position: Point3D(x: 0, y: 0, z: 2)), Node(id: "b", position: Point3D(x: 10, y: 0, z: 2)),
            Node(id: "a", position: Point3D(x: 50, y: 50, z: 2)),
        ]
        var sightings: [Sighting] = []
        var truth: [TruthPoint] = []
        for step in 0..<40 {
            let point = Point2D(x: 1 + Double(step % 8), y: 1 + Double(step / 8))
            truth.append(TruthPoint(time: Double(step), device: "w", point: point, z: 1))
            for node in nodes.prefix(2) {
                let meters = Point3D(x: point.x, y: point.y, z: 1).distance(to: node.position)
                sightings.append(
                    Sighting(
                        time: Double(step), device: "w", node: node.id,
                        rssi: LogDistance.rssi(meters: meters, calibration: .typical)))
            }
        }
        let data = Dataset(name: "dup", nodes: nodes, test: Recording(sightings: sightings, truth: truth))
        let (calibration, summary) = CalibrateCommand.calibrate(data)
        let rows = summary.split(separator: "\n").filter { $0.hasPrefix("a ") }
        #expect(rows.count == 1)
        #expect(calibration.samples["a"] == 40)
    }
}
