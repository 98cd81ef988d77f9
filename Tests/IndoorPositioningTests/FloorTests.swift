import IndoorModel
import Testing

@testable import IndoorPositioning

/// Floors in multi-floor venues: the strongest nodes vote, kNN and blends only average answers on the voted floor.
@Suite("floors")
struct FloorTests {
    static func reading(_ id: String, floor: Int?, x: Double, y: Double, rssi: Double) -> NodeReading {
        NodeReading(
            node: Node(id: id, position: Point3D(x: x, y: y, z: 2.5), floor: floor), rssi: rssi, distance: 3,
            distanceVariance: 1, lastHeard: 0)
    }

    /// A method that always answers the same estimate.
    struct Fixed: PositioningMethod {
        var name: String
        var estimate: Estimate
        func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> { .success(estimate) }
    }

    @Test func twoNodesOnOneFloorOutvoteOneSlightlyStrongerThroughTheSlab() {
        let readings = [
            Self.reading("up", floor: 1, x: 0, y: 0, rssi: -60),
            Self.reading("a", floor: 0, x: 5, y: 0, rssi: -62),
            Self.reading("b", floor: 0, x: 0, y: 5, rssi: -63),
        ]
        #expect(FloorSelection.vote(readings) == 0)
        // A much stronger single node wins.
        var strong = readings
        strong[0].rssi = -50
        #expect(FloorSelection.vote(strong) == 1)
        #expect(
            FloorSelection.vote(
                readings.map {
                    var r = $0
                    r.node.floor = nil
                    return r
                }) == nil)
        #expect(WeightedCentroid().estimate(from: readings).map(\.floor) == .success(0))
    }

    @Test func rangeSolversUseOnlyTheVotedFloor() throws {
        let readings = [
            Self.reading("up", floor: 1, x: 50, y: 50, rssi: -60),
            Self.reading("a", floor: 0, x: 0, y: 0, rssi: -62),
            Self.reading("b", floor: 0, x: 10, y: 0, rssi: -63),
            Self.reading("c", floor: 0, x: 0, y: 10, rssi: -64),
        ]
        let (kept, floor) = FloorSelection.sameFloor(readings)
        #expect(floor == 0)
        #expect(kept.map(\.node.id) == ["a", "b", "c"])
        let estimate = try NonlinearLeastSquares(deviceHeight: 1.2).estimate(from: readings).get()
        #expect(estimate.floor == 0)
        #expect(estimate.position.x < 10 && estimate.position.y < 10)
    }

    /// Two floors surveyed at the same spots; the floor is in the RSSI pattern, not in the strongest node.
    @Test func knnVotesTheNeighboursFloorAndAveragesOnlyThatFloor() throws {
        let fingerprints = [
            Fingerprint(position: Point3D(x: 0, y: 0, z: 1.2), floor: 0, rssi: ["n1": -50, "n2": -70]),
            Fingerprint(position: Point3D(x: 2, y: 0, z: 1.2), floor: 0, rssi: ["n1": -52, "n2": -68]),
            Fingerprint(position: Point3D(x: 20, y: 20, z: 4.7), floor: 1, rssi: ["n1": -51, "n2": -69]),
            Fingerprint(position: Point3D(x: 30, y: 30, z: 4.7), floor: 1, rssi: ["n1": -80, "n2": -90]),
        ]
        let knn = FingerprintKNN(fingerprints: fingerprints, k: 3)
        let readings = [
            Self.reading("n1", floor: 1, x: 0, y: 0, rssi: -50.5),
            Self.reading("n2", floor: 1, x: 9, y: 0, rssi: -69.5),
        ]
        let estimate = try knn.estimate(from: readings).get()
        #expect(estimate.floor == 0)
        // Only the two floor-0 neighbours are averaged: the floor-1 one at (20, 20) does not pull.
        #expect(estimate.position.x >= 0 && estimate.position.x <= 2)
        #expect(abs(estimate.position.y) < 1e-9)
        #expect(abs(estimate.position.z - 1.2) < 1e-9)

        // Without surveyed floors the strongest nodes' floors decide.
        let plain = FingerprintKNN(
            fingerprints: fingerprints.map {
                var f = $0
                f.floor = nil
                return f
            }, k: 3)
        #expect(try plain.estimate(from: readings).get().floor == 1)
    }

    @Test func blendAveragesOnlyMembersOnTheVotedFloor() throws {
        let upstairs = Fixed(
            name: "up", estimate: Estimate(position: Point3D(x: 0, y: 0, z: 0), floor: 1, accuracy: 1, confidence: 1))
        let downstairs = Fixed(
            name: "down", estimate: Estimate(position: Point3D(x: 10, y: 0, z: 0), floor: 0, accuracy: 1, confidence: 1)
        )
        let floorless = Fixed(
            name: "any", estimate: Estimate(position: Point3D(x: 3, y: 0, z: 0), floor: nil, accuracy: 1, confidence: 1)
        )
        let readings = [
            Self.reading("a", floor: 0, x: 0, y: 0, rssi: -60),
            Self.reading("b", floor: 0, x: 5, y: 0, rssi: -62),
        ]
        let blend = Blend([.init(upstairs, trust: 2), .init(downstairs, trust: 1), .init(floorless, trust: 1)])
        let estimate = try blend.estimate(from: readings).get()
        #expect(estimate.floor == 1)
        #expect(abs(estimate.position.x - 1) < 1e-9)  // (2 · 0 + 1 · 3) / 3; the floor-0 member is left out

        // Equal trusts: the strongest nodes' floor breaks the tie, whatever the member order.
        let tied = Blend([.init(upstairs, trust: 1), .init(downstairs, trust: 1)])
        let tie = try tied.estimate(from: readings).get()
        #expect(tie.floor == 0)
        #expect(abs(tie.position.x - 10) < 1e-9)
    }

    @Test func knnAnswersAnAbsurdRSSIWithNoFixNotNaN() throws {
        let fingerprints = [
            Fingerprint(position: Point3D(x: 0, y: 0, z: 1), rssi: ["a": -50, "b": -70]),
            Fingerprint(position: Point3D(x: 10, y: 0, z: 1), rssi: ["a": -70, "b": -50]),
        ]
        let node = { (id: String) in Node(id: id, position: Point3D(x: 0, y: 0, z: 2)) }
        let reading = { (id: String, rssi: Double) in
            NodeReading(node: node(id), rssi: rssi, distance: 1, distanceVariance: 1, lastHeard: 0)
        }
        // (−1e200 − (−50))² overflows to +inf for every row: no neighbour, and the weights used to sum to 0.
        let absurd = FingerprintKNN(fingerprints: fingerprints, k: 2).estimate(from: [reading("a", -1e200)])
        #expect(throws: NoFix.self) { try absurd.get() }
        let near = try FingerprintKNN(fingerprints: fingerprints, k: 1).estimate(from: [
            reading("a", -52), reading("b", -69),
        ]).get()
        #expect(near.position.horizontal == Point2D(x: 0, y: 0))
    }
}
