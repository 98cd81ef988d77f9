import Foundation
import IndoorModel
import Testing

@testable import IndoorPositioning

/// `auto` without a survey holds its path-loss posterior near the centroid of the strongest nodes (``CentroidPrior``).
@Suite struct CentroidPriorTests {
    static func reading(_ id: String, x: Double, y: Double, floor: Int? = nil, rssi: Double) -> NodeReading {
        NodeReading(
            node: Node(id: id, position: Point3D(x: x, y: y, z: 2.5), floor: floor), rssi: rssi, distance: 1,
            distanceVariance: 1, lastHeard: 0)
    }

    @Test func theCentreIsTheSoftmaxWeightedMeanAndTheWidthFollowsTheSpread() throws {
        let prior = CentroidPrior(temperature: 10, width: 0.75, followsLayout: false)
        // Two nodes 10 dB apart: weights 1 and e^−1.
        let readings = [Self.reading("a", x: 0, y: 0, rssi: -60), Self.reading("b", x: 10, y: 0, rssi: -70)]
        let gaussian = try #require(prior.prior(for: readings))
        let weight = exp(-1.0)
        let x = 10 * weight / (1 + weight)
        #expect(abs(gaussian.center.x - x) < 1e-9)
        #expect(abs(gaussian.center.y) < 1e-9)
        let spread = ((x * x + weight * (10 - x) * (10 - x)) / (1 + weight)).squareRoot()
        let sigma = 0.75 * spread
        #expect(abs(gaussian.xx - 1 / (sigma * sigma)) < 1e-9)
        #expect(gaussian.xy == 0)
        #expect(gaussian.yy == gaussian.xx)
        // The factor is 1 at the centre and e^−½ one standard deviation away along either axis.
        #expect(gaussian.factor(x: gaussian.center.x) == 1)
        #expect(abs(gaussian.factor(x: gaussian.center.x + sigma) - exp(-0.5)) < 1e-12)
        #expect(abs(gaussian.factor(x: gaussian.center.x, y: gaussian.center.y - sigma) - exp(-0.5)) < 1e-12)
    }

    /// Nodes in a row heard alike: the prior that follows the layout is as long as the circle along the row and as
    /// narrow as the least spread (1 m) across it, whichever way the row runs.
    @Test func theLayoutShapedPriorIsNarrowAcrossARowOfNodes() throws {
        var prior = CentroidPrior.standard
        prior.followsLayout = true
        for angle in [0.0, 0.3, Double.pi / 4, 1.2, Double.pi / 2] {
            let direction = (x: cos(angle), y: sin(angle))
            let readings = (0..<5).map { step in
                let along = Double(step - 2) * 4
                return Self.reading(
                    "n\(step)", x: 10 + along * direction.x, y: 20 + along * direction.y, rssi: -70)
            }
            let gaussian = try #require(prior.prior(for: readings))
            #expect(gaussian.center.distance(to: Point2D(x: 10, y: 20)) < 1e-9)
            // Along the row: the nodes' RMS distance from the centre (√32 m) times the width; across: the width.
            let along = 0.75 * 32.0.squareRoot()
            let across = 0.75
            let atAlong = gaussian.factor(x: 10 + along * direction.x, y: 20 + along * direction.y)
            let atAcross = gaussian.factor(x: 10 - across * direction.y, y: 20 + across * direction.x)
            #expect(abs(atAlong - exp(-0.5)) < 1e-9, "angle \(angle)")
            #expect(abs(atAcross - exp(-0.5)) < 1e-9, "angle \(angle)")
            // The round prior's circle is as wide as the spread every way.
            var circle = prior
            circle.followsLayout = false
            let round = try #require(circle.prior(for: readings))
            #expect(abs(round.factor(x: 10 - along * direction.y, y: 20 + along * direction.x) - exp(-0.5)) < 1e-9)
        }
    }

    @Test func oneNodeHeardGivesAPriorOfAtLeastOneMetreOfSpreadAtTheNode() throws {
        let gaussian = try #require(CentroidPrior.standard.prior(for: [Self.reading("a", x: 3, y: 4, rssi: -80)]))
        #expect(gaussian.center == Point2D(x: 3, y: 4))
        let sigma = CentroidPrior.standard.width
        #expect(abs(gaussian.xx - 1 / (sigma * sigma)) < 1e-12)
        #expect(abs(gaussian.yy - 1 / (sigma * sigma)) < 1e-12)
        #expect(abs(gaussian.xy) < 1e-12)
    }

    @Test func theFloorHoldingMostOfTheWeightIsTheOneAveraged() throws {
        let readings = [
            Self.reading("up", x: 50, y: 50, floor: 1, rssi: -62),
            Self.reading("a", x: 0, y: 0, floor: 0, rssi: -60),
            Self.reading("b", x: 4, y: 0, floor: 0, rssi: -61),
        ]
        let gaussian = try #require(CentroidPrior.standard.prior(for: readings))
        #expect(gaussian.center.x > 0 && gaussian.center.x < 4)
        #expect(gaussian.center.y == 0)
    }

    @Test func nothingUsableGivesNoPrior() {
        #expect(CentroidPrior.standard.prior(for: []) == nil)
        #expect(CentroidPrior.standard.prior(for: [Self.reading("a", x: 0, y: 0, rssi: .nan)]) == nil)
        #expect(CentroidPrior(temperature: 0, width: 1).prior(for: [Self.reading("a", x: 0, y: 0, rssi: -60)]) == nil)
    }

    /// A node heard far stronger than three others pulls the broad posterior towards it: the fix with the prior lies
    /// nearer the strong node than the posterior's mean alone, and a prior as wide as the world changes nothing.
    @Test func thePriorPullsABroadPosteriorTowardsTheStrongestNodes() throws {
        let nodes = SeededVenue.nodes
        let auto = AutoMethod(nodes: nodes, survey: nil, calibration: Calibration(deviceHeight: 1.2))
        let plain = AutoMethod(
            nodes: nodes, survey: nil, calibration: Calibration(deviceHeight: 1.2),
            configuration: try Self.configuration(width: 0))
        #expect(auto.centroidPrior == CentroidPrior.standard)
        #expect(plain.centroidPrior == nil)
        let strong = try #require(nodes.first)
        let readings = nodes.prefix(4).map { node in
            NodeReading(
                node: node, rssi: node.id == strong.id ? -55 : -85, distance: 1, distanceVariance: 1, lastHeard: 0)
        }
        let with = try auto.estimate(from: readings).get()
        let without = try plain.posterior.estimate(from: readings).get()
        let target = strong.position.horizontal
        #expect(with.position.horizontal.distance(to: target) < without.position.horizontal.distance(to: target))
        let lattice = PosteriorLattice(posterior: auto.posterior)
        let wide = CentroidPrior.Gaussian(center: target, sigma: 1e9)
        let heard = auto.posterior.map.heard(readings)
        let unchanged = try lattice.estimate(heard: heard, readings: readings, prior: wide).get()
        let reference = try lattice.estimate(heard: heard, readings: readings, prior: nil).get()
        #expect(unchanged.position.distance(to: reference.position) < 1e-6)
    }

    /// Nodes spread alike every way (a square's corners, an oblique cross): the prior that follows the layout is the
    /// circle.
    @Test func nodesAllRoundGiveTheCircle() throws {
        var circle = CentroidPrior.standard
        circle.followsLayout = false
        let square = [(0.0, 0.0), (6, 0), (6, 6), (0, 6)].enumerated().map { index, corner in
            Self.reading("s\(index)", x: corner.0, y: corner.1, rssi: -70)
        }
        let cross = [(3.0, 0.0), (-3, 0), (0, 3), (0, -3)].enumerated().map { index, arm in
            Self.reading("c\(index)", x: 0.6 * arm.0 - 0.8 * arm.1, y: 0.8 * arm.0 + 0.6 * arm.1, rssi: -70)
        }
        for readings in [square, cross] {
            let layout = try #require(CentroidPrior.standard.prior(for: readings))
            let round = try #require(circle.prior(for: readings))
            #expect(abs(layout.xx - round.xx) < 1e-12)
            #expect(abs(layout.yy - round.yy) < 1e-12)
            #expect(abs(layout.xy) < 1e-12)
        }
    }

    /// The lattice weighs a prior whose axes are turned from the grid's point by point, and a separable one by rows
    /// and columns: the two agree where the turn is nil, and a turned prior moves the answer.
    @Test func aTurnedPriorIsWeighedPointByPointAsASeparableOne() throws {
        let nodes = SeededVenue.nodes
        let auto = AutoMethod(nodes: nodes, survey: nil, calibration: Calibration(deviceHeight: 1.2))
        let readings = nodes.prefix(5).enumerated().map { index, node in
            NodeReading(node: node, rssi: -70 - 3 * Double(index), distance: 1, distanceVariance: 1, lastHeard: 0)
        }
        let lattice = PosteriorLattice(posterior: auto.posterior)
        let heard = auto.posterior.map.heard(readings)
        let center = try #require(nodes.first).position.horizontal
        let round = CentroidPrior.Gaussian(center: center, sigma: 3)
        var nudged = round
        nudged.xy = 1e-300
        let separable = try lattice.estimate(heard: heard, readings: readings, prior: round).get()
        let pointwise = try lattice.estimate(heard: heard, readings: readings, prior: nudged).get()
        #expect(separable.position.distance(to: pointwise.position) < 1e-9)
        #expect(abs(separable.accuracy - pointwise.accuracy) < 1e-9)
        let turned = CentroidPrior.Gaussian(center: center, major: 6, minor: 0.5, angle: 0.7)
        let moved = try lattice.estimate(heard: heard, readings: readings, prior: turned).get()
        #expect(moved.position.distance(to: separable.position) > 0.01)
        // It lies nearer the turned prior's line through the centre than the round prior's answer does.
        func across(_ point: Point2D) -> Double {
            abs(-(point.x - center.x) * sin(0.7) + (point.y - center.y) * cos(0.7))
        }
        #expect(across(moved.position.horizontal) < across(separable.position.horizontal))
    }

    /// Without a survey `auto` answers one node heard, near it, from the posterior (not the sparse path's centroid).
    @Test func oneNodeHeardIsAnsweredNearIt() throws {
        let nodes = SeededVenue.nodes
        let auto = AutoMethod(nodes: nodes, survey: nil, calibration: Calibration(deviceHeight: 1.2))
        let node = try #require(nodes.last)
        let fix = try auto.estimate(from: [
            NodeReading(node: node, rssi: -70, distance: 3, distanceVariance: 1, lastHeard: 0)
        ]).get()
        #expect(fix.method == nil)
        #expect(fix.position.horizontal.distance(to: node.position.horizontal) < 2)
    }

    /// A calibration that knows the path loss keeps the posterior without the prior (and its few-nodes path).
    @Test func aCalibrationThatKnowsThePathLossHasNoPrior() {
        let auto = AutoMethod(
            nodes: SeededVenue.nodes, survey: nil, calibration: Calibration(deviceHeight: 1.2), levelKnown: true)
        #expect(auto.centroidPrior == nil)
    }

    static func configuration(width: Double) throws -> PositioningEngine.Configuration {
        var configuration = PositioningEngine.Configuration()
        try configuration.defaultTuning.set("centroid-prior", to: width)
        return configuration
    }

    /// The engine's configuration with the centroid prior off: `auto` without a survey as before the prior (the
    /// few-nodes and agreeing-ranges paths), which tests of those paths use.
    static func withoutPrior() throws -> PositioningEngine.Configuration { try configuration(width: 0) }
}
