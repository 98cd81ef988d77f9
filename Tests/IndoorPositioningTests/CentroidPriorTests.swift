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
        let prior = CentroidPrior(temperature: 10, width: 0.75)
        // Two nodes 10 dB apart: weights 1 and e^−1.
        let readings = [Self.reading("a", x: 0, y: 0, rssi: -60), Self.reading("b", x: 10, y: 0, rssi: -70)]
        let gaussian = try #require(prior.prior(for: readings))
        let weight = exp(-1.0)
        let x = 10 * weight / (1 + weight)
        #expect(abs(gaussian.center.x - x) < 1e-9)
        #expect(abs(gaussian.center.y) < 1e-9)
        let spread = ((x * x + weight * (10 - x) * (10 - x)) / (1 + weight)).squareRoot()
        #expect(abs(gaussian.sigma - 0.75 * spread) < 1e-9)
        // The factor is 1 at the centre and e^−½ one standard deviation away.
        #expect(gaussian.factor(gaussian.center.x, about: gaussian.center.x) == 1)
        #expect(abs(gaussian.factor(gaussian.center.x + gaussian.sigma, about: gaussian.center.x) - exp(-0.5)) < 1e-12)
    }

    @Test func oneNodeHeardGivesAPriorOfAtLeastOneMetreOfSpreadAtTheNode() throws {
        let gaussian = try #require(CentroidPrior.standard.prior(for: [Self.reading("a", x: 3, y: 4, rssi: -80)]))
        #expect(gaussian.center == Point2D(x: 3, y: 4))
        #expect(gaussian.sigma == CentroidPrior.standard.width)
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
