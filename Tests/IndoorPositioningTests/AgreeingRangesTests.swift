import IndoorModel
import IndoorRanging
import Testing

@testable import IndoorPositioning

/// ``AgreeingRanges``: trilateration where at least four ranges on one floor agree, the weighted centroid otherwise.
@Suite struct AgreeingRangesTests {
    /// Five nodes around a 10 m × 8 m room at 2.5 m.
    let nodes = [
        Node(id: "a", position: Point3D(x: 0, y: 0, z: 2.5)), Node(id: "b", position: Point3D(x: 10, y: 0, z: 2.5)),
        Node(id: "c", position: Point3D(x: 0, y: 8, z: 2.5)), Node(id: "d", position: Point3D(x: 10, y: 8, z: 2.5)),
        Node(id: "e", position: Point3D(x: 5, y: 4, z: 2.5)),
    ]

    /// The readings of a device at `point` (height 1.2 m) from `count` of the nodes, at their exact ranges.
    func readings(at point: Point2D, count: Int) -> [NodeReading] {
        nodes.prefix(count).map { node in
            let metres = Point3D(x: point.x, y: point.y, z: 1.2).distance(to: node.position)
            return NodeReading(node: node, rssi: -59, distance: metres, distanceVariance: 1, lastHeard: 0)
        }
    }

    /// Four or five exact ranges are trilaterated where the device is; three, however exact, are too few to judge,
    /// and the weighted centroid answers them.
    @Test func fourRangesThatAgreeAreTrilateratedThreeAreNot() throws {
        let method = AgreeingRanges(deviceHeight: 1.2)
        let device = Point2D(x: 3, y: 5)
        for count in [4, 5] {
            let estimate = try method.estimate(from: readings(at: device, count: count)).get()
            #expect(estimate.method == "nonlinear")
            #expect(estimate.position.horizontal.distance(to: device) < 0.05, "\(count) nodes: \(estimate.position)")
        }
        let three = readings(at: device, count: 3)
        #expect(method.agreeing(three) == nil)
        let centroid = try WeightedCentroid().estimate(from: three).get()
        let estimate = try method.estimate(from: three).get()
        #expect(estimate.method == "weighted-centroid")
        #expect(estimate.position == centroid.position)
    }

    /// Four ranges that contradict each other (one node's range doubled): the weighted centroid.
    @Test func fourRangesThatDisagreeGetTheWeightedCentroid() throws {
        var four = readings(at: Point2D(x: 3, y: 5), count: 4)
        four[0].distance *= 2
        #expect(AgreeingRanges(deviceHeight: 1.2).agreeing(four) == nil)
        #expect(try AgreeingRanges(deviceHeight: 1.2).estimate(from: four).get().method == "weighted-centroid")
    }
}
