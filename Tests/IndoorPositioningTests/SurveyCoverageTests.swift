import Foundation
import IndoorModel
import Testing

@testable import IndoorPositioning

/// How much of a venue a survey covers (`SurveyCoverage`): the nodes a truth row passes within their typical spacing
/// of, what `auto` needs before it learns from a survey.
@Suite struct SurveyCoverageTests {
    /// Nine nodes on a 3 × 3 grid 5 m apart, on floor 0.
    let nodes = (0..<9).map { index in
        Node(
            id: "n\(index)", position: Point3D(x: Double(index % 3) * 5, y: Double(index / 3) * 5, z: 2), floor: 0)
    }

    /// A survey of one truth row at each of `points` (x, y), on `floor`.
    func survey(_ points: [(Double, Double)], floor: Int? = 0) -> Recording {
        Recording(
            sightings: [],
            truth: points.enumerated().map { index, point in
                TruthPoint(
                    time: Double(index), device: "s", point: Point2D(x: point.0, y: point.1), floor: floor)
            })
    }

    @Test func theRadiusIsTheNodesTypicalSpacing() {
        let coverage = SurveyCoverage(nodes: nodes, survey: survey([]))
        #expect(coverage.radiusMeters == 5)
        #expect(coverage.coveredNodes == 0)
        #expect(coverage.nodeCount == 9)
        #expect(!coverage.isEnough)
        // One node has no spacing: 3 m. Nodes on one spot: at least 1 m.
        #expect(SurveyCoverage.spacing(of: [nodes[0]]) == 3)
        let stacked = [nodes[0], Node(id: "twin", position: nodes[0].position, floor: 0)]
        #expect(SurveyCoverage.spacing(of: stacked) == 1)
    }

    /// A walk along the grid's bottom row passes near the three nodes of that row (and, within 5 m, those of the
    /// middle row): 6 of 9, short of 90%; a walk down the middle covers them all.
    @Test func aCornerIsNotEnoughAndAWalkThroughTheMiddleIs() {
        let bottom = SurveyCoverage(
            nodes: nodes, survey: survey(stride(from: 0.0, through: 10, by: 0.5).map { ($0, 0) }))
        #expect(bottom.coveredNodes == 6)
        #expect(!bottom.isEnough)
        #expect(bottom.summary.contains("6 of 9 nodes"))
        #expect(bottom.summary.contains("locates as without a survey"))
        let middle = SurveyCoverage(
            nodes: nodes, survey: survey(stride(from: 0.0, through: 10, by: 0.5).map { ($0, 5) }))
        #expect(middle.coveredNodes == 9)
        #expect(middle.isEnough)
        #expect(!middle.summary.contains("without a survey"))
        // Just outside the radius is not near: a walk 5.1 m above the bottom row misses it.
        let above = SurveyCoverage(
            nodes: nodes, survey: survey(stride(from: 0.0, through: 10, by: 0.5).map { ($0, 10.1) }))
        #expect(above.coveredNodes == 3)
    }

    /// A row on another floor covers nothing here; a row without a floor covers every floor's nodes.
    @Test func floorsMustMatchUnlessUnknown() {
        let points = stride(from: 0.0, through: 10, by: 1).map { ($0, 5.0) }
        #expect(SurveyCoverage(nodes: nodes, survey: survey(points, floor: 1)).coveredNodes == 0)
        #expect(SurveyCoverage(nodes: nodes, survey: survey(points, floor: nil)).coveredNodes == 9)
    }

    /// The share asked for: out of 0…1 it is the standard; 0 takes every survey; no nodes is full coverage.
    @Test func theMinimumShare() {
        let none = survey([])
        #expect(SurveyCoverage(nodes: nodes, survey: none, minimumShare: 0).isEnough)
        #expect(SurveyCoverage(nodes: nodes, survey: none, minimumShare: .nan).minimumShare == 0.9)
        #expect(SurveyCoverage(nodes: nodes, survey: none, minimumShare: 2).minimumShare == 0.9)
        #expect(SurveyCoverage(nodes: [], survey: none).isEnough)
        #expect(SurveyCoverage(nodes: [], survey: none).share == 1)
        // Rows with positions no number can hold are skipped, not trapped on.
        let wild = survey([(.infinity, 0), (.nan, 1), (1e300, 1e300), (0, 0)])
        #expect(SurveyCoverage(nodes: nodes, survey: wild).coveredNodes == 3)
    }

    /// The factory measures the coverage of its survey (and nothing without one); the tuning sets the share.
    @Test func theFactoryMeasuresItsSurvey() throws {
        let corner = survey([(0, 0)])
        let factory = EngineFactory(nodes: nodes, survey: corner)
        #expect(factory.surveyCoverage?.coveredNodes == 3)
        #expect(factory.surveyCoverage?.isEnough == false)
        // `auto` and the filter set it aside; k-NN uses a survey whatever it covers.
        #expect(factory.surveySetAside(by: MethodCatalog.Selection(.auto)) == factory.surveyCoverage)
        #expect(factory.surveySetAside(by: MethodCatalog.Selection(.particleFilter)) != nil)
        #expect(factory.surveySetAside(by: MethodCatalog.Selection(.knn)) == nil)
        #expect(EngineFactory(nodes: nodes).surveyCoverage == nil)
        var configuration = PositioningEngine.Configuration()
        try configuration.defaultTuning.set("survey-coverage", to: 0.3)
        #expect(
            EngineFactory(nodes: nodes, survey: corner, configuration: configuration).surveyCoverage?.isEnough == true)
        #expect(throws: DefaultTuningError.self) { try configuration.defaultTuning.set("survey-coverage", to: 1.5) }
    }

    /// A survey set aside (the default share): `auto` gives the answers it gives without a survey, row for row, and
    /// says why; with the share 0, the survey is learned from whatever it covers.
    @Test func autoOverASurveySetAsideAnswersAsWithoutOne() throws {
        let corner = survey([(0, 0), (1, 0)])
        var aside = try EngineFactory(nodes: nodes, survey: corner).engine(MethodCatalog.Selection(.auto))
        var any = PositioningEngine.Configuration()
        try any.defaultTuning.set("survey-coverage", to: 0)
        let learned = try EngineFactory(nodes: nodes, survey: corner, configuration: any).engine(
            MethodCatalog.Selection(.auto))
        #expect((learned.method as? AutoMethod)?.surveySetAside == nil)
        var plain = try EngineFactory(nodes: nodes).engine(MethodCatalog.Selection(.auto))
        #expect(MethodCatalog.learnedNote(aside)?.contains("3 of 9 nodes") == true)
        #expect(MethodCatalog.learnedNote(plain) == nil)
        #expect(MethodCatalog.chosenEstimator(aside) == nil)
        var seconds = 0.0
        for (x, y) in [(2.0, 3.0), (7, 1), (9, 9), (4, 6)] {
            for node in nodes {
                let distance = max(0.5, node.position.horizontal.distance(to: Point2D(x: x, y: y)))
                let sighting = Sighting(
                    time: seconds, device: "p", node: node.id, rssi: (-59 - 27 * log10(distance)).rounded())
                _ = aside.ingest(sighting)
                _ = plain.ingest(sighting)
            }
            let a = try aside.locate(device: "p", at: seconds).get()
            let b = try plain.locate(device: "p", at: seconds).get()
            #expect(a.position == b.position)
            #expect(a.accuracy == b.accuracy)
            seconds += 1
        }
    }
}
