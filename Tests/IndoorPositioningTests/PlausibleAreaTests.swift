import IndoorModel
import Testing

@testable import IndoorPositioning

/// The engine refuses positions far outside the nodes heard, whatever the method.
@Suite struct PlausibleAreaTests {
    /// A method that answers one fixed horizontal position.
    struct Answer: PositioningMethod {
        let name = "answer"
        var x: Double
        var y: Double
        func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
            .success(Estimate(position: Point3D(x: x, y: y, z: 0), accuracy: 1, confidence: 1))
        }
    }

    /// Four nodes on a 10 m square: diagonal 14.1 m, so the allowed margin is max(10, 7.07) = 10 m.
    let nodes = [
        Node(id: "a", position: Point3D(x: 0, y: 0, z: 2)), Node(id: "b", position: Point3D(x: 10, y: 0, z: 2)),
        Node(id: "c", position: Point3D(x: 0, y: 10, z: 2)), Node(id: "d", position: Point3D(x: 10, y: 10, z: 2)),
    ]

    func located(x: Double, y: Double, area: PlausibleArea = PlausibleArea()) -> Result<Fix, NoFix> {
        var engine = PositioningEngine(
            nodes: nodes, method: Answer(x: x, y: y), configuration: .init(plausibleArea: area))
        for node in nodes { engine.ingest(Sighting(time: 1, device: "p", node: node.id, rssi: -70)) }
        return engine.locate(device: "p", at: 1)
    }

    @Test(arguments: [(5.0, 5.0), (19.9, 5.0), (-9.9, 5.0), (5.0, 19.5), (16.0, 16.0)])
    func positionsNearTheNodesPass(x: Double, y: Double) throws {
        let fix = try located(x: x, y: y).get()
        #expect(fix.position.x == x && fix.position.y == y)
    }

    @Test(arguments: [(20.5, 5.0), (-11.0, 5.0), (5.0, 1258.0), (18.0, 18.0)])
    func positionsFarOutsideAreRefused(x: Double, y: Double) {
        guard case .failure(let noFix) = located(x: x, y: y) else {
            Issue.record("(\(x), \(y)) was accepted")
            return
        }
        #expect(noFix.code == .noSolution)
        #expect(noFix.message.contains("outside the area of the 4 node(s) heard"))
        // Unlimited keeps it.
        #expect((try? located(x: x, y: y, area: .unlimited).get()) != nil)
    }

    @Test(arguments: [(Double.nan, 5.0), (5.0, Double.infinity)])
    func aMethodsNonFinitePositionIsRefusedEvenWithoutTheGuard(x: Double, y: Double) {
        for area in [PlausibleArea(), .unlimited] {
            guard case .failure(let error) = located(x: x, y: y, area: area) else {
                Issue.record("a non-finite position became a fix")
                continue
            }
            #expect(error.code == .noSolution)
            #expect(error.message.hasPrefix("method 'answer' answered a non-finite estimate"))
        }
    }

    @Test func aLargeBoxAllowsHalfItsDiagonal() {
        let readings = [(0.0, 0.0), (60.0, 0.0), (0.0, 80.0)].map { x, y in
            NodeReading(
                node: Node(id: "\(x),\(y)", position: Point3D(x: x, y: y, z: 2)), rssi: -70, distance: 5,
                distanceVariance: 1, lastHeard: 0)
        }
        // Diagonal 100 m: up to 50 m beyond the box is allowed.
        #expect(PlausibleArea().check(Point3D(x: 109, y: 40, z: 0), readings: readings) == nil)
        #expect(PlausibleArea().check(Point3D(x: 111, y: 40, z: 0), readings: readings)?.code == .noSolution)
        #expect(PlausibleArea(margin: 0, fraction: 0).check(Point3D(x: 60.5, y: 40, z: 0), readings: readings) != nil)
    }

    /// Power-center on badly inconsistent ranges lands far away; the engine says so instead of answering it.
    @Test func powerCenterOnInconsistentRangesIsRefused() {
        let readings = [(0.0, 0.0, 1.0), (10.0, 0.0, 30.0), (0.0, 10.0, 1.0), (10.0, 10.5, 40.0)].map { x, y, d in
            NodeReading(
                node: Node(id: "\(x),\(y)", position: Point3D(x: x, y: y, z: 0)), rssi: -70, distance: d,
                distanceVariance: 1, lastHeard: 0)
        }
        guard case .success(let estimate) = PowerCenter().estimate(from: readings) else {
            Issue.record("power-center gave no estimate")
            return
        }
        #expect(estimate.position.horizontal.distance(to: Point2D(x: 5, y: 5)) > 20)
        #expect(PlausibleArea().check(estimate.position, readings: readings)?.code == .noSolution)
    }
}
