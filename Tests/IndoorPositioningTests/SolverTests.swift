import Foundation
import IndoorModel
import IndoorRanging
import Testing

@testable import IndoorPositioning

/// Readings of a device at `device` from nodes at `nodes`, with exact (or noisy) log-distance ranges.
func readings(
    device: Point3D, nodes: [Point3D], sigma: Double = 0, random: inout SplitMix64
) -> [NodeReading] {
    let variance = LogDistance.logRangeVariance(sigma: max(sigma, 1), exponent: 2)
    var result = nodes.enumerated().map { index, position -> NodeReading in
        let node = Node(id: "n\(index)", position: position)
        let rssi =
            LogDistance.rssi(meters: position.distance(to: device), calibration: .typical) + sigma
            * random.standardNormal()
        let d = LogDistance.distance(rssi: rssi, calibration: .typical)
        return NodeReading(node: node, rssi: rssi, distance: d, distanceVariance: d * d * variance, lastHeard: 0)
    }
    result.sort { $0.rssi > $1.rssi }
    return result
}

let square: [Point3D] = [
    Point3D(x: 0, y: 0, z: 2.5), Point3D(x: 10, y: 0, z: 2.5), Point3D(x: 10, y: 8, z: 2.5),
    Point3D(x: 0, y: 8, z: 2.5),
    Point3D(x: 5, y: 12, z: 2.5),
]

let rangeSolvers: [any PositioningMethod] = [
    PowerCenter(deviceHeight: 1.2), EPTA(deviceHeight: 1.2), LinearLeastSquares(deviceHeight: 1.2),
    NonlinearLeastSquares(deviceHeight: 1.2, maximumIterations: 50, tolerance: 1e-9),
    SphereIntersection(deviceHeight: 1.2),
]

@Suite struct SolverTests {
    @Test(arguments: rangeSolvers.indices, [3, 4, 5])
    func exactRangesGiveTheExactPosition(solver: Int, nodeCount: Int) throws {
        var random = SplitMix64(seed: 1)
        let device = Point3D(x: 3.5, y: 2.25, z: 1.2)
        let list = readings(device: device, nodes: Array(square.prefix(nodeCount)), random: &random)
        let estimate = try rangeSolvers[solver].estimate(from: list).get()
        #expect(estimate.position.horizontal.isApproximatelyEqual(to: device.horizontal, absoluteTolerance: 1e-3))
        #expect(estimate.accuracy.isFinite && estimate.confidence >= 0 && estimate.confidence <= 1)
    }

    @Test func sphereIntersectionPicksTheRootOnTheDevicesSide() throws {
        var random = SplitMix64(seed: 1)
        let device = Point3D(x: 4, y: 3, z: 0.5)
        let list = readings(device: device, nodes: Array(square.prefix(3)), random: &random)
        let below = try SphereIntersection().estimate(from: list).get()
        #expect(below.position.isApproximatelyEqual(to: device, absoluteTolerance: 1e-6))
        let above = try SphereIntersection(deviceHeight: 5).estimate(from: list).get()
        #expect(abs(above.position.z - 4.5) < 1e-6)
    }

    @Test func nonlinearIsAccurateOnNoisyRangesAndReportsItsUncertainty() throws {
        var random = SplitMix64(seed: 3)
        var grid: [Point3D] = []
        for i in 0..<4 { for j in 0..<3 { grid.append(Point3D(x: Double(i) * 6, y: Double(j) * 6, z: 2.5)) } }
        var squared = 0.0
        var reported = 0.0
        let trials = 200
        for _ in 0..<trials {
            let device = Point3D(x: 3 + random.unit() * 12, y: 3 + random.unit() * 6, z: 1.2)
            let list = readings(device: device, nodes: grid, sigma: 2, random: &random)
            let estimate = try NonlinearLeastSquares(deviceHeight: 1.2).estimate(from: list).get()
            let error = estimate.position.horizontal.distance(to: device.horizontal)
            squared += error * error
            reported += estimate.accuracy * estimate.accuracy
            #expect(estimate.position.x.isFinite && estimate.position.y.isFinite)
        }
        let rmse = (squared / Double(trials)).squareRoot()
        // 12 nodes, σ 2 dB: the bound is about 0.5 m here; the solver stays within a small multiple.
        #expect(rmse < 1.0)
        let claimed = (reported / Double(trials)).squareRoot()
        #expect(claimed > rmse / 3 && claimed < rmse * 3)
    }

    @Test(arguments: rangeSolvers.indices)
    func noisyRangesStayNearTheTruth(solver: Int) throws {
        var random = SplitMix64(seed: 11)
        let device = Point3D(x: 5, y: 4, z: 1.2)
        var errors: [Double] = []
        for _ in 0..<50 {
            let list = readings(device: device, nodes: square, sigma: 2, random: &random)
            if case .success(let estimate) = rangeSolvers[solver].estimate(from: list) {
                errors.append(estimate.position.horizontal.distance(to: device.horizontal))
            }
        }
        errors.sort()
        #expect(errors.count >= 25)
        #expect(errors[errors.count / 2] < 3)
    }

    static let allSolvers: [any PositioningMethod] = rangeSolvers + [WeightedCentroid()]

    @Test(arguments: rangeSolvers.indices)
    func fewerThanThreeNodesIsTooFew(solver: Int) {
        var random = SplitMix64(seed: 1)
        let list = readings(device: Point3D(x: 1, y: 1, z: 1.2), nodes: Array(square.prefix(2)), random: &random)
        #expect(code(rangeSolvers[solver].estimate(from: list)) == .tooFewNodes)
    }

    @Test(arguments: rangeSolvers.indices)
    func collinearNodesAreDegenerate(solver: Int) {
        var random = SplitMix64(seed: 1)
        let line = (0..<4).map { Point3D(x: Double($0) * 3, y: 0, z: 2.5) }
        let list = readings(device: Point3D(x: 4, y: 3, z: 1.2), nodes: line, random: &random)
        #expect(code(rangeSolvers[solver].estimate(from: list)) == .degenerateGeometry)
    }

    @Test(arguments: rangeSolvers.indices)
    func nonFiniteRSSIIsInvalidInput(solver: Int) {
        var random = SplitMix64(seed: 1)
        var list = readings(device: Point3D(x: 4, y: 3, z: 1.2), nodes: square, random: &random)
        list[1].rssi = .nan
        list[1].distance = .infinity
        let result = rangeSolvers[solver].estimate(from: list)
        #expect(code(result) == .invalidInput)
        if case .failure(let error) = result { #expect(error.message.contains("n")) }
    }

    @Test func weightedCentroidRejectsNonFiniteDistances() {
        var random = SplitMix64(seed: 1)
        var list = readings(device: Point3D(x: 4, y: 3, z: 1.2), nodes: square, random: &random)
        list[0].distance = .infinity
        #expect(code(WeightedCentroid().estimate(from: list)) == .invalidInput)
    }

    @Test func eptaGivesUpAfterItsBoundedInflations() {
        // Three nested circles around distant centres with tiny radii never meet.
        let list = [
            Point3D(x: 0, y: 0, z: 0), Point3D(x: 100, y: 0, z: 0), Point3D(x: 0, y: 100, z: 0),
        ].enumerated().map { index, position in
            NodeReading(
                node: Node(id: "n\(index)", position: position), rssi: -40, distance: 0.1, distanceVariance: 0.01,
                lastHeard: 0)
        }
        #expect(code(EPTA(maximumInflations: 5).estimate(from: list)) == .noSolution)
    }

    @Test func aNonFiniteDeviceHeightCountsAsNone() throws {
        // NonlinearLeastSquares(deviceHeight: .nan) used to answer a position whose z was NaN.
        var random = SplitMix64(seed: 1)
        let device = Point3D(x: 3.5, y: 2.25, z: 2.5)
        let list = readings(device: device, nodes: square, random: &random)
        let solvers: [any PositioningMethod] = [
            PowerCenter(deviceHeight: .nan), EPTA(deviceHeight: .infinity), LinearLeastSquares(deviceHeight: .nan),
            NonlinearLeastSquares(deviceHeight: .nan, maximumIterations: 50, tolerance: 1e-9),
            SphereIntersection(deviceHeight: -.infinity),
        ]
        for solver in solvers {
            let estimate = try solver.estimate(from: list).get()
            #expect(estimate.position.x.isFinite && estimate.position.y.isFinite && estimate.position.z.isFinite)
            #expect(
                estimate.position.horizontal.isApproximatelyEqual(to: device.horizontal, absoluteTolerance: 0.05),
                "\(solver.name)")
        }
        var late = NonlinearLeastSquares()
        late.deviceHeight = .nan
        #expect(throws: NoFix.self) { try late.estimate(from: list).get() }
    }

    @Test(arguments: [0.0, -1.0, Double.nan])
    func weightedCentroidSurvivesAZeroDistanceWhateverItsFloor(minimum: Double) throws {
        // A node at the origin heard at 0 m weighed 1/0 = inf, and inf · 0 m = NaN.
        var random = SplitMix64(seed: 1)
        var list = readings(device: Point3D(x: 4, y: 3, z: 1.2), nodes: square, random: &random)
        list[0].node.position = Point3D(x: 0, y: 0, z: 0)
        list[0].distance = 0
        var late = WeightedCentroid()
        late.minimumDistance = minimum
        for method in [WeightedCentroid(minimumDistance: minimum), late] {
            let estimate = try method.estimate(from: list).get()
            #expect(estimate.position.x.isFinite && estimate.position.y.isFinite && estimate.position.z.isFinite)
        }
        #expect(WeightedCentroid(minimumDistance: minimum).minimumDistance == 0.5)
    }

    @Test func weightedCentroidOfOneNodeStatesTheRingItsRangePutsTheDeviceOn() throws {
        func reading(_ node: Node, _ metres: Double) -> NodeReading {
            NodeReading(node: node, rssi: -70, distance: metres, distanceVariance: 4, lastHeard: 0)
        }
        // One node heard at 6 m: the centroid is the node, and the device is somewhere on a 6 m ring around it.
        let node = Node(id: "a", position: Point3D(x: 10, y: 5, z: 2.5))
        let one = try WeightedCentroid().estimate(from: [reading(node, 6)]).get()
        #expect(one.position == node.position)
        #expect(one.accuracy == 6)
        // Two nodes 1 m apart both heard at 8 m: 8 m, not the half metre they lie from their centroid.
        let other = Node(id: "b", position: Point3D(x: 11, y: 5, z: 2.5))
        let bunched = try WeightedCentroid().estimate(from: [reading(node, 8), reading(other, 8)]).get()
        #expect(bunched.position.x == 10.5)
        #expect(bunched.accuracy == 8)
        // Three nodes around a device 2 m from the nearest: their spread about the centroid, as before.
        let corners = [Point3D(x: 0, y: 0, z: 0), Point3D(x: 10, y: 0, z: 0), Point3D(x: 0, y: 10, z: 0)]
        let around = try WeightedCentroid().estimate(
            from: zip(corners, [2.0, 8.0, 8.0]).enumerated().map { index, pair in
                reading(Node(id: "\(index)", position: pair.0), pair.1)
            }
        ).get()
        let spread = corners.map { $0.horizontal.distance(to: around.position.horizontal) }.max() ?? 0
        #expect(spread > 2)
        #expect(around.accuracy == spread)
    }

    @Test func sphereIntersectionLooksPastEightStrongestNodesOnOneLine() throws {
        // A corridor: ten nodes along y = 0 right by the device, two more off the line further away.
        var random = SplitMix64(seed: 1)
        var nodes = (0..<10).map { Point3D(x: Double($0) * 2, y: 0, z: 2.5) }
        nodes += [Point3D(x: 4, y: 12, z: 2.5), Point3D(x: 12, y: 14, z: 2.5)]
        let device = Point3D(x: 9, y: 1, z: 1.2)
        let list = readings(device: device, nodes: nodes, random: &random)
        #expect(RangeCircles.areCollinear(Array(list.prefix(8))))
        let estimate = try SphereIntersection(deviceHeight: 1.2).estimate(from: list).get()
        #expect(estimate.position.horizontal.isApproximatelyEqual(to: device.horizontal, absoluteTolerance: 1e-6))
    }

    @Test func eptaReplacesNonsenseTuningWithItsDefaults() throws {
        let odd = EPTA(relativeTolerance: .nan, absoluteTolerance: -1, inflation: -1)
        #expect(odd.relativeTolerance == 0.05 && odd.absoluteTolerance == 0.1 && odd.inflation == 0.1)
        // Ranges 20% short everywhere: only inflating finds common points, and a −100% inflation erased the radii.
        var random = SplitMix64(seed: 1)
        var list = readings(device: Point3D(x: 4, y: 3, z: 2.5), nodes: square, random: &random)
        for index in list.indices { list[index].distance *= 0.8 }
        let estimate = try odd.estimate(from: list).get()
        #expect(estimate.position.horizontal.isApproximatelyEqual(to: Point2D(x: 4, y: 3), absoluteTolerance: 1.5))
    }

    @Test func eptaUsesOnlyItsStrongestNodesWhenHeardByAThousand() throws {
        // 1000 nodes on a 40 × 25 grid (1 m apart): the cubic search over all of them would take minutes.
        var random = SplitMix64(seed: 5)
        var grid: [Point3D] = []
        for index in 0..<1000 { grid.append(Point3D(x: Double(index % 40), y: Double(index / 40), z: 2.5)) }
        let device = Point3D(x: 17.3, y: 9.6, z: 1.2)
        let list = readings(device: device, nodes: grid, random: &random)
        let solver = EPTA(deviceHeight: 1.2, maximumNodes: 12)
        let estimate = try solver.estimate(from: list).get()
        #expect(estimate == (try solver.estimate(from: Array(list.prefix(12))).get()))
        #expect(estimate.position.horizontal.isApproximatelyEqual(to: device.horizontal, absoluteTolerance: 0.05))
        #expect(EPTA(maximumNodes: 1).maximumNodes == 3)
    }

    private func code(_ result: Result<Estimate, NoFix>) -> NoFix.Code? {
        switch result {
        case .success: nil
        case .failure(let error): error.code
        }
    }
}

/// A user-defined method: always answers a fixed point.
struct FixedPoint: PositioningMethod {
    let name = "fixed"
    var point: Point3D
    func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        .success(Estimate(position: point, accuracy: 1, confidence: 0.5))
    }
}

/// A user-defined method that answers a position with a NaN accuracy.
struct Sloppy: PositioningMethod {
    let name = "sloppy"
    func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        .success(Estimate(position: Point3D(x: 0, y: 0, z: 0), accuracy: .nan, confidence: 0.5))
    }
}

/// A user-defined method that always fails.
struct Failing: PositioningMethod {
    let name = "failing"
    func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        .failure(NoFix(.noSolution, "never"))
    }
}

@Suite struct BlendTests {
    let reading = NodeReading(
        node: Node(id: "a", position: Point3D(x: 0, y: 0, z: 0)), rssi: -60, distance: 1, distanceVariance: 0.1,
        lastHeard: 0)

    @Test func trustsAreNormalisedAndWeighTheMembers() throws {
        let blend = Blend([
            .init(FixedPoint(point: Point3D(x: 0, y: 0, z: 0)), trust: 3),
            .init(FixedPoint(point: Point3D(x: 4, y: 8, z: 0)), trust: 1),
        ])
        #expect(blend.normalizedTrusts == [0.75, 0.25])
        let estimate = try blend.estimate(from: [reading]).get()
        #expect(estimate.position.isApproximatelyEqual(to: Point3D(x: 1, y: 2, z: 0), absoluteTolerance: 1e-12))
    }

    @Test func allZeroTrustsMeanEqualWeights() throws {
        let blend = Blend([
            .init(FixedPoint(point: Point3D(x: 0, y: 0, z: 0)), trust: 0),
            .init(FixedPoint(point: Point3D(x: 4, y: 8, z: 0)), trust: 0),
        ])
        #expect(blend.normalizedTrusts == [0.5, 0.5])
        let estimate = try blend.estimate(from: [reading]).get()
        #expect(estimate.position.isApproximatelyEqual(to: Point3D(x: 2, y: 4, z: 0), absoluteTolerance: 1e-12))
    }

    @Test func hugeTrustsDoNotOverflowAndNonFiniteMembersAreLeftOut() throws {
        // 1e308 + 1e308 overflowed to inf, every normalised trust became 0 and the blend had no member.
        let huge = Blend([
            .init(FixedPoint(point: Point3D(x: 0, y: 0, z: 0)), trust: 1e308),
            .init(FixedPoint(point: Point3D(x: 4, y: 8, z: 0)), trust: 1e308),
        ])
        #expect(huge.normalizedTrusts == [0.5, 0.5])
        let estimate = try huge.estimate(from: [reading]).get()
        #expect(estimate.position.isApproximatelyEqual(to: Point3D(x: 2, y: 4, z: 0), absoluteTolerance: 1e-12))
        let withNaN = Blend([
            .init(Sloppy(), trust: 1), .init(FixedPoint(point: Point3D(x: 4, y: 8, z: 0)), trust: 1),
        ])
        let kept = try withNaN.estimate(from: [reading]).get()
        #expect(kept.accuracy == 1 && kept.position.x == 4)
    }

    @Test func failingMembersAreLeftOutAndAllFailingIsNamed() throws {
        let blend = Blend([.init(Failing(), trust: 5), .init(FixedPoint(point: Point3D(x: 1, y: 1, z: 0)), trust: 1)])
        let estimate = try blend.estimate(from: [reading]).get()
        #expect(estimate.position.x == 1)
        let none = Blend([.init(Failing(), trust: 1)])
        guard case .failure(let error) = none.estimate(from: [reading]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.message.contains("failing: noSolution: never"))
    }
}

@Suite struct FloorSelectionTests {
    @Test func rangeSolversUseTheStrongestReadingsFloor() throws {
        var random = SplitMix64(seed: 1)
        let device = Point3D(x: 3, y: 4, z: 1.2)
        var list = readings(device: device, nodes: square, random: &random).map { reading -> NodeReading in
            var copy = reading
            copy.node.floor = 1
            return copy
        }
        // A node of another floor, heard weakly, with a range that fits nothing here.
        list.append(
            NodeReading(
                node: Node(id: "other", position: Point3D(x: 30, y: 30, z: 2.5), floor: 0), rssi: -95, distance: 1,
                distanceVariance: 0.1, lastHeard: 0))
        let estimate = try NonlinearLeastSquares(deviceHeight: 1.2, maximumIterations: 50, tolerance: 1e-9)
            .estimate(from: list).get()
        #expect(estimate.position.horizontal.isApproximatelyEqual(to: device.horizontal, absoluteTolerance: 1e-3))
        #expect(estimate.floor == 1)
        #expect(FloorSelection.sameFloor(list).readings.count == square.count)
        #expect(FloorSelection.sameFloor(Array(list.prefix(2)) + [list[list.count - 1]]).readings.count == 3)
    }
}

@Suite struct SolverRobustnessTests {
    static let methods: [any PositioningMethod] =
        rangeSolvers + [
            WeightedCentroid(), PowerCenter(), EPTA(), LinearLeastSquares(), NonlinearLeastSquares(),
            SphereIntersection(),
            Blend([.init(NonlinearLeastSquares(), trust: 1), .init(EPTA(), trust: 1)]),
        ]

    /// Random and awkward inputs (repeated nodes, lines, zero and huge ranges): never a crash, never a NaN.
    @Test func randomInputNeverGivesANonFinitePosition() {
        var random = SplitMix64(seed: 42)
        for trial in 0..<400 {
            let count = 1 + Int(random.unit() * 7)
            var list: [NodeReading] = []
            for index in 0..<count {
                var x = (random.unit() - 0.5) * 50
                var y = (random.unit() - 0.5) * 50
                if trial % 5 == 0 { y = 2 * x }  // all on one line
                if trial % 7 == 0, index > 0 {
                    x = list[0].node.position.x
                    y = list[0].node.position.y
                }
                let distance = trial % 11 == 0 ? 0 : random.unit() * (trial % 13 == 0 ? 1e6 : 40)
                list.append(
                    NodeReading(
                        node: Node(id: "n\(index)", position: Point3D(x: x, y: y, z: random.unit() * 3)),
                        rssi: -40 - random.unit() * 60, distance: distance,
                        distanceVariance: distance * distance * 0.2, lastHeard: 0))
            }
            list.sort { $0.rssi > $1.rssi }
            for method in Self.methods {
                switch method.estimate(from: list) {
                case .success(let estimate):
                    let p = estimate.position
                    #expect(p.x.isFinite && p.y.isFinite && p.z.isFinite, "\(method.name), trial \(trial)")
                    #expect(estimate.accuracy.isFinite && (0...1).contains(estimate.confidence), "\(method.name)")
                case .failure(let error):
                    #expect(!error.message.isEmpty)
                }
            }
        }
    }
}
