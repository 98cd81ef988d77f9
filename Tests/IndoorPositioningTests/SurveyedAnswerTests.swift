import IndoorModel
import IndoorRanging
import Testing

@testable import IndoorPositioning

/// What `auto` with a survey does with its filter's answer: k-NN mixed in by the share its survey chose, and the
/// weighted centroid of what was heard where the filter gives nothing plausible.
@Suite struct SurveyedAnswerTests {
    /// Four nodes at the corners of a 40 m square.
    let nodes = [
        Node(id: "a", position: Point3D(x: 0, y: 0, z: 2)), Node(id: "b", position: Point3D(x: 40, y: 0, z: 2)),
        Node(id: "c", position: Point3D(x: 0, y: 40, z: 2)), Node(id: "d", position: Point3D(x: 40, y: 40, z: 2)),
    ]

    /// A device that hears one node, weakly: the posterior over the path-loss map puts it far from that node (a weak
    /// reading says "far"), beyond what the engine finds plausible for one node heard, so the method alone misses the
    /// row; with the surveyed answer the weighted centroid of what was heard answers (at the node), and says so.
    @Test func oneWeakNodeHeardIsAnsweredByTheWeightedCentroid() throws {
        let grid = RadioMap.Grid.around(nodes: nodes, height: 1.2, spacing: 1)
        let posterior = PosteriorGrid(map: RadioMap.pathLoss(nodes: nodes, calibration: .uncalibrated, grid: grid))
        var engine = PositioningEngine(nodes: nodes, method: posterior)
        engine.ingest(Sighting(time: 10, device: "p", node: "a", rssi: -96))
        guard case .failure(let missed) = engine.locate(device: "p", at: 10) else {
            Issue.record("the posterior alone answered one weak node")
            return
        }
        #expect(missed.code == .noSolution)

        engine.answer = SurveyedAnswer()
        let fix = try engine.locate(device: "p", at: 10).get()
        #expect(fix.position.horizontal.distance(to: Point2D(x: 0, y: 0)) < 1e-9)
        #expect(fix.method == "weighted-centroid")
        // Heard 3 s ago: still answered within the engine's window; nothing heard within it, no answer.
        #expect(try engine.locate(device: "p", at: 13).get().method == "weighted-centroid")
        #expect(throws: NoFix.self) { try engine.locate(device: "p", at: 10 + engine.configuration.window + 1).get() }
    }

    /// A plausible answer is kept as it is without k-NN, and moved by k-NN's share of the way to k-NN's answer with
    /// it (same floor); a share of 0 or no k-NN changes nothing.
    @Test func knnIsMixedInByItsShare() throws {
        let knn = FingerprintKNN(
            fingerprints: [
                Fingerprint(position: Point3D(x: 30, y: 10, z: 0), rssi: ["a": -80, "b": -50, "c": -85, "d": -75])
            ], k: 1)
        func located(_ answer: SurveyedAnswer?) throws -> Point2D {
            var engine = PositioningEngine(nodes: nodes, method: PlausibleAreaTests.Answer(x: 10, y: 10))
            engine.answer = answer
            for (node, rssi) in [("a", -80.0), ("b", -50), ("c", -85), ("d", -75)] {
                engine.ingest(Sighting(time: 1, device: "p", node: node, rssi: rssi))
            }
            return try engine.locate(device: "p", at: 1).get().position.horizontal
        }
        #expect(try located(nil) == Point2D(x: 10, y: 10))
        #expect(try located(SurveyedAnswer()) == Point2D(x: 10, y: 10))
        #expect(try located(SurveyedAnswer(knn: knn, knnShare: 0)) == Point2D(x: 10, y: 10))
        #expect(try located(SurveyedAnswer(knn: knn, knnShare: 0.25)) == Point2D(x: 15, y: 10))
        #expect(try located(SurveyedAnswer(knn: knn, knnShare: 1)) == Point2D(x: 30, y: 10))
        #expect(SurveyedAnswer(knnShare: .nan).knnShare == 0)
        #expect(SurveyedAnswer(knnShare: 3).knnShare == 1)
    }

    /// With an ``PositioningEngine/Configuration/answerFilter`` and an answer whose k-NN reads it, k-NN reads that
    /// filter's values, not the method's filter's (with either alone, the method's): node b heard at −50 dBm for 9 s and once at −90 dBm now reads −90 through a 1 s mean (k-NN's nearest
    /// fingerprint then lies at (5, 5)) and still near −50 through the Kalman filter (at (30, 10)).
    @Test func knnReadsTheAnswerFilterWhereTheEngineKeepsOne() throws {
        let knn = FingerprintKNN(
            fingerprints: [
                Fingerprint(position: Point3D(x: 30, y: 10, z: 0), rssi: ["a": -80, "b": -55]),
                Fingerprint(position: Point3D(x: 5, y: 5, z: 0), rssi: ["a": -80, "b": -90]),
            ], k: 1)
        func located(answerFilter: RSSIFilter.Kind?, reads: Bool = true) throws -> Point2D {
            var configuration = PositioningEngine.Configuration(filter: .trimmedMean(window: 1, trim: 0))
            configuration.answerFilter = answerFilter
            var engine = PositioningEngine(
                nodes: nodes, method: PlausibleAreaTests.Answer(x: 10, y: 10), configuration: configuration)
            engine.answer = SurveyedAnswer(knn: knn, knnShare: 1, knnReadsAnswerFilter: reads)
            for second in 0..<10 {
                engine.ingest(Sighting(time: Double(second), device: "p", node: "a", rssi: -80))
                engine.ingest(Sighting(time: Double(second), device: "p", node: "b", rssi: second < 9 ? -50 : -90))
            }
            return try engine.locate(device: "p", at: 9).get().position.horizontal
        }
        #expect(try located(answerFilter: nil) == Point2D(x: 5, y: 5))
        let kalman = RSSIFilter.Kind.kalman(processNoise: 4, measurementNoise: 16)
        #expect(try located(answerFilter: kalman) == Point2D(x: 30, y: 10))
        #expect(try located(answerFilter: kalman, reads: false) == Point2D(x: 5, y: 5))
    }

    /// `auto` (and `particle-filter`, the same filter) with a survey reads its particle filter's 1 s mean and keeps
    /// the factory's own filter for the k-NN share of its answer; without a survey, and for every other method, the
    /// engine keeps one filter.
    @Test func autoWithASurveyKeepsTheFactorysFilterForItsKNNShare() throws {
        let survey = Recording(
            sightings: nodes.flatMap { node in
                (0..<4).map { Sighting(time: Double($0), device: "s", node: node.id, rssi: -60 - Double($0)) }
            },
            truth: (0..<4).map { TruthPoint(time: Double($0), device: "s", point: Point2D(x: 10 * Double($0), y: 20)) })
        // Learned from however little of the venue it covers.
        var configuration = PositioningEngine.Configuration()
        configuration.defaultTuning.surveyCoverage = 0
        let factory = EngineFactory(nodes: nodes, survey: survey, configuration: configuration)
        let standard = PositioningEngine.Configuration().filter
        #expect(try factory.engine(method: "auto").configuration.answerFilter == standard)
        #expect(try factory.engine(method: "auto").configuration.filter == ParticleFilter.readingFilter)
        #expect(try factory.engine(method: "particle-filter").configuration.answerFilter == standard)
        #expect(try factory.engine(method: "knn").configuration.answerFilter == nil)
        #expect(try EngineFactory(nodes: nodes).engine(method: "auto").configuration.answerFilter == nil)
    }

    /// A tracked device heard by many nodes a second ago and by one now: the filter's answer, plausible for what was
    /// heard a second ago, lies more than 10 m from the one node heard now (the engine's plausible area of the
    /// readings it was made from), so the weighted centroid of the nodes heard within the window answers; a plausible
    /// answer stays as it is.
    @Test func anImplausibleAnswerFromTheFreshReadingsFallsBackToTheHeldOnes() throws {
        func reading(_ node: Node, dBm: Double, meters: Double) -> NodeReading {
            NodeReading(node: node, rssi: dBm, distance: meters, distanceVariance: 1, lastHeard: 0)
        }
        let current = [reading(nodes[0], dBm: -80, meters: 10)]
        let held = current + [reading(nodes[1], dBm: -70, meters: 10), reading(nodes[2], dBm: -70, meters: 10)]
        let far = Estimate(position: Point3D(x: 20, y: 20, z: 0), accuracy: 2, confidence: 0.5)
        let answer = SurveyedAnswer()
        let fallback = try answer.answer(.success(far), current: current, held: held, area: PlausibleArea()).get()
        #expect(fallback.method == "weighted-centroid")
        let centroid = try WeightedCentroid().estimate(from: held).get()
        #expect(fallback.position == centroid.position)
        let near = Estimate(position: Point3D(x: 5, y: 5, z: 0), accuracy: 2, confidence: 0.5)
        #expect(try answer.answer(.success(near), current: current, held: held, area: PlausibleArea()).get() == near)
        let failed = NoFix(.noSolution, "no particle is left on the reported floor")
        #expect(
            try answer.answer(.failure(failed), current: current, held: held, area: PlausibleArea()).get().method
                == "weighted-centroid")
        #expect(answer.answer(.failure(failed), current: [], held: [], area: PlausibleArea()) == .failure(failed))
    }

    /// The mix of the validation's replay: the filter's position where k-NN gave none, none where the filter gave
    /// none (the fallback answers those at run time).
    @Test func mixedPositions() {
        let filter = Point2D(x: 0, y: 0)
        let knn = Point2D(x: 4, y: 8)
        #expect(SurveyedAnswer.mixed(filter, knn, knnShare: 0.5) == Point2D(x: 2, y: 4))
        #expect(SurveyedAnswer.mixed(filter, nil, knnShare: 0.5) == filter)
        #expect(SurveyedAnswer.mixed(nil, knn, knnShare: 0.5) == nil)
        #expect(SurveyedAnswer.mixed(filter, knn, knnShare: 0) == filter)
    }
}
