import Foundation
import IndoorModel
import Testing

@testable import IndoorPositioning

/// `auto` without a survey answers every locate of a device heard within the engine's window: where its method gives
/// nothing plausible, the weighted centroid of what was heard answers (``SurveyedAnswer/withoutSurvey``).
@Suite struct AutoAnswersWhereHeardTests {
    /// An L-shaped corridor, 55 m along its middle: 40 m along x, then 15 m up y, a node every 55/15 m (16 nodes).
    static let corridor: [Node] = (0..<16).map { index in
        let along = Double(index) * 55 / 15
        let point = along <= 40 ? Point2D(x: along, y: 0) : Point2D(x: 40, y: along - 40)
        return Node(id: "n\(index)", position: Point3D(x: point.x, y: point.y, z: 2.5))
    }

    /// The point `meters` along the corridor's middle.
    static func along(_ meters: Double) -> Point2D {
        meters <= 40 ? Point2D(x: meters, y: 0.6) : Point2D(x: 39.4, y: meters - 40)
    }

    /// `auto` over the corridor; `prior: false` turns the centroid prior off (the default has it).
    static func autoEngine(prior: Bool = true) throws -> PositioningEngine {
        let configuration = prior ? PositioningEngine.Configuration() : try CentroidPriorTests.withoutPrior()
        return try EngineFactory(nodes: corridor, configuration: configuration).engine(method: "auto")
    }

    /// With the centroid prior the same four nodes are answered by the posterior itself, within the engine's
    /// plausible area and between the nodes heard.
    @Test func fourNodesInARowHeardAlikeAreAnsweredNearThemWithThePrior() throws {
        var engine = try Self.autoEngine()
        for node in ["n0", "n1", "n2", "n3"] {
            engine.ingest(Sighting(time: 1, device: "p", node: node, rssi: -80))
        }
        let readings = engine.readings(device: "p", at: 1)
        let estimate = try engine.method.estimate(from: readings).get()
        #expect(PlausibleArea().check(estimate.position, readings: readings) == nil)
        let fix = try engine.locate(device: "p", at: 1).get()
        #expect(fix.method == "auto")
        #expect(fix.position.x > 0 && fix.position.x < 55.0 * 3 / 15)
    }

    /// Four nodes in a row heard alike: relative RSSI alone cannot tell how far from the row the device is, the
    /// posterior over the corridor's bounding box (mostly the empty inside of the L) is broad, and its mean lies more
    /// than 10 m from the four nodes, which the engine's plausible area refuses. The weighted centroid answers, says
    /// so, and its radius holds the nodes heard.
    @Test func fourNodesInARowHeardAlikeAreAnsweredByTheWeightedCentroid() throws {
        var engine = try Self.autoEngine(prior: false)
        #expect(engine.answer?.surveyed == false)
        for node in ["n0", "n1", "n2", "n3"] {
            engine.ingest(Sighting(time: 1, device: "p", node: node, rssi: -80))
        }
        let readings = engine.readings(device: "p", at: 1)
        #expect(readings.count == 4)
        // The method alone: nothing plausible.
        switch engine.method.estimate(from: readings) {
        case .success(let estimate):
            #expect(PlausibleArea().check(estimate.position, readings: readings) != nil)
        case .failure:
            break
        }
        let fix = try engine.locate(device: "p", at: 1).get()
        #expect(fix.method == "weighted-centroid")
        let centroid = try WeightedCentroid().estimate(from: readings).get()
        #expect(fix.position == centroid.position)
        #expect(fix.accuracy == centroid.accuracy)
        #expect(fix.accuracy >= readings.map(\.distance).min() ?? .infinity)
        #expect(MethodCatalog.chosenEstimator(engine) == nil)
    }

    /// Walkers along the corridor, heard by the nodes within reach through 5 dB of shadowing: every truth moment with
    /// a sighting in the 2 s before it gets a fix, whichever estimator gives it, with the centroid prior and without.
    @Test(arguments: [false, true])
    func aWalkAlongTheCorridorIsNeverSilentWhereANodeWasHeard(prior: Bool) throws {
        var engine = try Self.autoEngine(prior: prior)
        var random = SplitMix64(seed: 56)
        var lastHeard: [String: Double] = [:]
        var located = 0
        var refused = 0
        for walker in 0..<3 {
            let device = "w\(walker)"
            var meters = Double(walker) * 20
            var direction = 1.0
            for step in 1...1200 {
                let time = Double(step) / 10
                meters += direction * 0.12
                if meters > 55 || meters < 0 {
                    direction = -direction
                    meters = min(max(meters, 0), 55)
                }
                let position = Self.along(meters)
                for node in Self.corridor where Double.random(in: 0..<1, using: &random) < 0.05 {
                    let distance = (position.distance(to: node.position.horizontal).squared + 1.3 * 1.3).squareRoot()
                    let rssi = -59 - 22 * log10(distance) + random.gaussian(deviation: 5)
                    guard rssi >= -85 else { continue }
                    engine.ingest(Sighting(time: time, device: device, node: node.id, rssi: rssi.rounded()))
                    lastHeard[device] = time
                }
                guard step % 10 == 0, let heard = lastHeard[device], heard >= time - 2 else { continue }
                #expect(throws: Never.self) { try engine.locate(device: device, at: time).get() }
                located += 1
                let readings = engine.fixReadings(device: device, at: time)
                switch engine.method.estimate(from: readings) {
                case .success(let estimate) where PlausibleArea().check(estimate.position, readings: readings) == nil:
                    break
                default:
                    refused += 1
                }
            }
        }
        #expect(located > 300)
        // Without the centroid prior the scenario is one where the method alone leaves rows without an answer (the
        // engine's fallback answers them); with it, the method alone answers every row plausibly.
        if prior {
            #expect(refused == 0)
        } else {
            #expect(refused > 0)
        }
    }
}

extension Double {
    fileprivate var squared: Double { self * self }
}
