import Foundation
import IndoorModel
import IndoorRanging
import Testing

@testable import IndoorPositioning

/// A seeded venue: 12 ceiling nodes over 24 m × 16 m and devices heard with log-normal shadowing.
struct SeededVenue {
    static let nodes: [Node] = (0..<12).map { index in
        Node(
            id: "n\(index)", position: Point3D(x: 2 + Double(index % 4) * 6.5, y: 2 + Double(index / 4) * 6, z: 2.5))
    }

    /// The readings of a device at `device` (z 1.2 m), every node heard with σ dB shadowing and a gain `offset` dB.
    static func readings(at device: Point2D, sigma: Double, offset: Double = 0, random: inout SplitMix64)
        -> [NodeReading]
    {
        let position = Point3D(x: device.x, y: device.y, z: 1.2)
        let variance = LogDistance.logRangeVariance(sigma: sigma, exponent: 2)
        var result = nodes.map { node -> NodeReading in
            let rssi =
                LogDistance.rssi(meters: node.position.distance(to: position), calibration: .typical) + offset
                + sigma * random.standardNormal()
            let d = LogDistance.distance(rssi: rssi, calibration: .typical)
            return NodeReading(node: node, rssi: rssi, distance: d, distanceVariance: d * d * variance, lastHeard: 0)
        }
        result.sort { $0.rssi > $1.rssi }
        return result
    }

    /// `count` device positions, uniform over the nodes' area.
    static func devices(_ count: Int, random: inout SplitMix64) -> [Point2D] {
        (0..<count).map { _ in Point2D(x: random.uniform(2...21.5), y: random.uniform(2...14)) }
    }

    /// The median horizontal error of `method` over `count` seeded devices.
    static func medianError(
        _ method: any PositioningMethod, count: Int = 150, sigma: Double = 4, offset: Double = 0, seed: UInt64 = 7
    ) -> Double {
        var random = SplitMix64(seed: seed)
        var errors: [Double] = []
        for device in devices(count, random: &random) {
            let list = readings(at: device, sigma: sigma, offset: offset, random: &random)
            guard case .success(let estimate) = method.estimate(from: list) else { continue }
            errors.append(estimate.position.horizontal.distance(to: device))
        }
        errors.sort()
        return errors.isEmpty ? .infinity : errors[(errors.count - 1) / 2]
    }

    /// The path-loss grid of the typical calibration at the device height.
    static let grid = RadioMap.Grid.around(nodes: nodes, height: 1.2, spacing: 0.5)

    static func pathLossPosterior(_ configuration: PosteriorGrid.Configuration = PosteriorGrid.Configuration())
        -> PosteriorGrid
    {
        PosteriorGrid(
            map: RadioMap.pathLoss(nodes: nodes, calibration: Calibration(shadowingSigma: 4), grid: grid),
            configuration: configuration)
    }
}

@Suite struct PosteriorGridTests {
    @Test func thePosteriorMeanBeatsTheWeightedCentroidAndTheLeastSquaresSolver() {
        // Plain Bayes (temperature 1, no receiver offset) on a venue where the model is exact.
        let posterior = SeededVenue.medianError(
            SeededVenue.pathLossPosterior(PosteriorGrid.Configuration(temperature: 1, offsetSigma: 0)))
        let centroid = SeededVenue.medianError(WeightedCentroid())
        let nonlinear = SeededVenue.medianError(NonlinearLeastSquares(deviceHeight: 1.2))
        // Measured: 1.43 m against 1.83 m (centroid) and 1.41 m (nonlinear, efficient on exact log-distance data).
        #expect(posterior < 0.85 * centroid, "posterior \(posterior) m, centroid \(centroid) m")
        #expect(posterior < 1.05 * nonlinear, "posterior \(posterior) m, nonlinear \(nonlinear) m")
    }

    @Test func aReceiverOffsetIsAbsorbedByTheOffsetPrior() {
        // A phone reading 8 dB low looks further from every node; estimating the offset keeps it in place.
        let plain = SeededVenue.medianError(
            SeededVenue.pathLossPosterior(PosteriorGrid.Configuration(offsetSigma: 0)), offset: -8)
        let absorbed = SeededVenue.medianError(
            SeededVenue.pathLossPosterior(PosteriorGrid.Configuration(offsetSigma: 6)), offset: -8)
        // Measured: 1.52 m against 2.38 m.
        #expect(absorbed < 0.75 * plain, "with offset \(absorbed) m, without \(plain) m")
        let nonlinear = SeededVenue.medianError(NonlinearLeastSquares(deviceHeight: 1.2), offset: -8)
        #expect(absorbed < nonlinear, "with offset \(absorbed) m, nonlinear \(nonlinear) m")
    }

    @Test func theSameReadingsGiveTheSameAnswer() throws {
        var random = SplitMix64(seed: 11)
        let list = SeededVenue.readings(at: Point2D(x: 9, y: 7), sigma: 4, random: &random)
        let method = SeededVenue.pathLossPosterior()
        let first = try method.estimate(from: list).get()
        let second = try method.estimate(from: list).get()
        #expect(first == second)
        #expect(first.accuracy > 0 && first.accuracy.isFinite && first.confidence > 0 && first.confidence <= 1)
    }

    @Test func oneOrTwoNodesStillGiveAFixNearThem() throws {
        let method = SeededVenue.pathLossPosterior()
        var random = SplitMix64(seed: 3)
        let all = SeededVenue.readings(at: Point2D(x: 8.5, y: 8), sigma: 0, random: &random)
        for count in [1, 2] {
            let estimate = try method.estimate(from: Array(all.prefix(count))).get()
            let nearest = all[0].node.position.horizontal
            #expect(estimate.position.horizontal.distance(to: nearest) < 6, "\(count) node(s): \(estimate.position)")
        }
    }

    @Test func unknownNodesAndAbsurdReadingsAreClearAnswers() {
        let method = SeededVenue.pathLossPosterior()
        let stranger = NodeReading(
            node: Node(id: "elsewhere", position: Point3D(x: 0, y: 0, z: 0)), rssi: -60, distance: 2,
            distanceVariance: 1, lastHeard: 0)
        #expect(throws: NoFix.self) { try method.estimate(from: [stranger]).get() }
        let absurd = NodeReading(
            node: SeededVenue.nodes[0], rssi: -1e300, distance: 1e300, distanceVariance: 1, lastHeard: 0)
        switch method.estimate(from: [absurd]) {
        case .success(let estimate): #expect(estimate.position.x.isFinite && estimate.position.y.isFinite)
        case .failure(let error): #expect(!error.message.isEmpty)
        }
    }

    @Test func floorsGetTheirOwnGridAndThePosteriorPicksTheDevicesFloor() throws {
        let upstairs = SeededVenue.nodes.map { node in
            Node(
                id: node.id + "-1", position: Point3D(x: node.position.x, y: node.position.y, z: 2.5), floor: 1)
        }
        let downstairs = SeededVenue.nodes.map { node in
            Node(id: node.id, position: node.position, floor: 0)
        }
        let nodes = downstairs + upstairs
        let grid = RadioMap.Grid.around(nodes: nodes, height: 1.2, spacing: 0.5)
        #expect(grid.floors == [0, 1])
        let method = PosteriorGrid(
            map: RadioMap.pathLoss(nodes: nodes, calibration: Calibration(shadowingSigma: 4), grid: grid))
        let device = Point3D(x: 9, y: 7, z: 1.2)
        for (floor, heard) in [(1, upstairs), (0, downstairs)] {
            let list = heard.map { node -> NodeReading in
                let rssi = LogDistance.rssi(meters: node.position.distance(to: device), calibration: .typical)
                return NodeReading(node: node, rssi: rssi, distance: 1, distanceVariance: 1, lastHeard: 0)
            }.sorted { $0.rssi > $1.rssi }
            let estimate = try method.estimate(from: list).get()
            #expect(estimate.floor == floor)
            #expect(estimate.position.horizontal.distance(to: device.horizontal) < 3)
        }
    }
}
