import Foundation
import IndoorModel
import IndoorPositioning
import Testing

@testable import IndoorEvaluation

/// A test method: the position and floor of the strongest node heard.
struct StrongestNode: PositioningMethod {
    let name = "strongest-node"
    func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        guard let best = readings.first else { return .failure(NoFix(.notHeard, "nothing heard")) }
        return .success(Estimate(position: best.node.position, floor: best.node.floor, accuracy: 1, confidence: 1))
    }
}

@Suite("Scoring")
struct ScoringTests {
    @Test func summaryArithmetic() throws {
        let summary = ErrorSummary(errors: [4, 1, 10, 2, 3], misses: 2, floorHits: 3, floorRows: 4)
        #expect(summary.count == 7)
        #expect(summary.misses == 2)
        #expect(summary.meanMeters == 4)
        #expect(summary.medianMeters == 3)
        // Rank 0.9 × 4 = 3.6 between 4 and 10: 4 + 0.6 × 6.
        #expect(abs(try #require(summary.p90Meters) - 7.6) < 1e-12)
        #expect(summary.maxMeters == 10)
        #expect(summary.floorAccuracy == 0.75)
    }

    @Test func summaryOfNothing() {
        let summary = ErrorSummary(errors: [], misses: 3)
        #expect(summary.count == 3)
        #expect(summary.meanMeters == nil)
        #expect(summary.medianMeters == nil)
        #expect(summary.floorAccuracy == nil)
    }

    @Test(arguments: [
        ([5.0], 0.9, 5.0), ([1.0, 2], 0.5, 1.5), ([0.0, 10], 0.9, 9), ([1.0, 2, 3, 4], 0, 1), ([1.0, 2, 3, 4], 1, 4),
        ([1.0, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9, 9.1),
    ])
    func percentiles(values: [Double], fraction: Double, expected: Double) throws {
        let value = try #require(ErrorSummary.percentile(sorted: values, fraction: fraction))
        #expect(abs(value - expected) < 1e-12)
    }

    /// Two nodes 10 m apart; each truth row's answer and error are worked out by hand.
    static let tiny = Recording(
        sightings: [
            Sighting(time: 1, device: "d", node: "A", rssi: -50),
            Sighting(time: 2, device: "d", node: "B", rssi: -40),
            // After the row at 2.5: must not be used for it (causal).
            Sighting(time: 2.6, device: "d", node: "A", rssi: -10),
            Sighting(time: 3, device: "d", node: "A", rssi: -20),
            Sighting(time: 1, device: "other", node: "Z", rssi: -30),  // unknown node: ignored
        ],
        truth: [
            TruthPoint(time: 0.5, device: "d", point: Point2D(x: 0, y: 0), floor: 0),  // nothing heard yet: miss
            TruthPoint(time: 1, device: "d", point: Point2D(x: 0, y: 1), floor: 0),  // A at t = 1 (t ≤ row): error 1
            // B strongest: error 3, floor wrong
            TruthPoint(time: 2.5, device: "d", point: Point2D(x: 10, y: 3), floor: 0),
            TruthPoint(time: 3, device: "d", point: Point2D(x: 3, y: 4), floor: 0),  // A again: error 5
            TruthPoint(time: 3, device: "other", point: Point2D(x: 0, y: 0), floor: 0),  // never heard: miss
        ])

    static let tinyNodes = [
        Node(id: "A", position: Point3D(x: 0, y: 0, z: 0), floor: 0),
        Node(id: "B", position: Point3D(x: 10, y: 0, z: 0), floor: 1),
    ]

    @Test func onlineCausalScoringOfAHandMadeDataset() throws {
        let engine = PositioningEngine(nodes: Self.tinyNodes, method: StrongestNode())
        var progress: [Int] = []
        let score = Evaluator.score(engine, on: Self.tiny) { done, total in
            #expect(total == 5)
            progress.append(done)
        }
        #expect(progress == [1, 2, 3, 4, 5])
        #expect(score.method == "strongest-node")
        // Devices in id order ("d", then "other"), rows in time order.
        #expect(score.errors == [1, 3, 5])
        #expect(score.misses == 2)
        #expect(score.floorRows == 3)
        #expect(score.floorHits == 2)
        // Accuracy radius 1 m: only the 1 m error is inside it. Floors 0, 1, 0: two flips in 2 s of located rows.
        #expect(score.coveredRows == 1)
        #expect(score.floorFlips == 2)
        #expect(score.trackedSeconds == 2)
        #expect(score.floorFlipsPerHour == 3600)
        let summary = score.summary
        #expect(summary.count == 5)
        #expect(summary.meanMeters == 3)
        #expect(summary.medianMeters == 3)
        #expect(summary.maxMeters == 5)
        #expect(abs(try #require(summary.floorAccuracy) - 2.0 / 3) < 1e-12)
    }

    @Test func truthOutOfFileOrderIsScoredInTimeOrder() {
        var shuffled = Self.tiny
        shuffled.truth.reverse()
        shuffled.sightings.reverse()
        let engine = PositioningEngine(nodes: Self.tinyNodes, method: StrongestNode())
        let score = Evaluator.score(engine, on: shuffled)
        #expect(score.errors == [1, 3, 5])
        #expect(score.misses == 2)
    }

    @Test func reportFormats() throws {
        let scores = [
            MethodScore(
                method: "strongest-node", errors: [1, 3, 5], misses: 2, floorHits: 2, floorRows: 3, coveredRows: 1,
                floorFlips: 2, trackedSeconds: 2),
            MethodScore(method: "none", errors: [], misses: 5),
        ]
        #expect(
            ScoreReport.jsonLines(scores) == """
                {"method":"strongest-node","count":5,"misses":2,"mean_m":3,"median_m":3,"p90_m":4.6,"max_m":5,"floor_accuracy":0.6667,"radius_coverage":0.3333,"floor_flips_per_hour":3600,"wrong_room_rate":null,"room_changes_per_hour":null,"truth_room_changes_per_hour":null,"truth_floor_flips_per_hour":0,"held_wrong_room_rate":null,"unknown_room_rate":null,"held_room_changes_per_hour":null,"estimator":null,"validated_median_m":null}
                {"method":"none","count":5,"misses":5,"mean_m":null,"median_m":null,"p90_m":null,"max_m":null,"floor_accuracy":null,"radius_coverage":null,"floor_flips_per_hour":null,"wrong_room_rate":null,"room_changes_per_hour":null,"truth_room_changes_per_hour":null,"truth_floor_flips_per_hour":null,"held_wrong_room_rate":null,"unknown_room_rate":null,"held_room_changes_per_hour":null,"estimator":null,"validated_median_m":null}

                """)
        #expect(
            ScoreReport.table(scores) == """
                method          count  misses  mean m  median m  p90 m  max m  floor  flips/h  in radius
                strongest-node      5       2    3.00      3.00   4.60   5.00  66.7%   3600.0      33.3%
                none                5       5       -         -      -      -      -        -          -

                """)
    }

    @Test func plotHasAxesLabelsAndLegend() {
        let scores = [
            MethodScore(method: "strongest-node", errors: [1, 3, 5], misses: 2),
            MethodScore(method: "a<b>&c", errors: [0.5, 0.7, 12], misses: 0),
        ]
        let svg = ErrorCDFPlot(title: "tiny", scores: scores).svg()
        #expect(svg.hasPrefix("<?xml"))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.contains("horizontal error (m)"))
        #expect(svg.contains("fraction of truth rows within error"))
        #expect(svg.contains(">strongest-node</text>"))
        #expect(svg.contains(">a&lt;b&gt;&amp;c</text>"))
        #expect(svg.contains("median 3.00 m, 2 missed"))
        #expect(svg.components(separatedBy: "<polyline").count == 3)
    }

    // A truth row with a wild coordinate (x = 1e20 in truth.csv) gives a 1e20 m error: reported, not a trap.
    @Test func hugeErrorsAreWrittenNotTrapped() {
        let scores = [MethodScore(method: "m", errors: [1, 1e20], misses: 0)]
        #expect(
            ScoreReport.jsonLines(scores)
                == #"{"method":"m","count":2,"misses":0,"mean_m":5e+19,"median_m":5e+19,"p90_m":9e+19,"max_m":1e+20,"floor_accuracy":null,"radius_coverage":0,"floor_flips_per_hour":null,"wrong_room_rate":null,"room_changes_per_hour":null,"truth_room_changes_per_hour":null,"truth_floor_flips_per_hour":null,"held_wrong_room_rate":null,"unknown_room_rate":null,"held_room_changes_per_hour":null,"estimator":null,"validated_median_m":null}"#
                + "\n")
        #expect(ScoreReport.table(scores).contains("  1e+20  "))
        #expect(ScoreReport.fixed(-2.5e16, 2) == "-2.5e+16")
        #expect(ScoreReport.fixed(123.456, 2) == "123.46")
        let svg = ErrorCDFPlot(title: "wild", scores: scores).svg()
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(SVGWriter.number(1e300) == "1e+300")
        #expect(SVGWriter.number(-12.345) == "-12.35")
    }

    @Test(arguments: [(0.3, 0.3, 0.05), (7.2, 8, 1), (12, 12, 2), (95, 100, 20), (1, 1, 0.2), (6.22, 7, 1)])
    func niceAxes(maximum: Double, top: Double, step: Double) {
        let axis = ErrorCDFPlot.niceAxis(maximum: maximum)
        #expect(abs(axis.maximum - top) < 1e-9)
        #expect(abs(axis.step - step) < 1e-9)
    }
}
