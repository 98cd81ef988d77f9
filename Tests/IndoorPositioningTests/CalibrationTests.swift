import Foundation
import IndoorModel
import IndoorRanging
import Testing

@testable import IndoorPositioning

/// A synthetic survey: two devices walk a grid; nodes with known path loss; device "b" reads 6 dB stronger.
func syntheticSurvey(
    nodes: [Node], truth calibrations: [String: NodeCalibration], offsets: [String: Double], sigma: Double,
    outlierEvery: Int = 0, seed: UInt64 = 5
) -> Recording {
    var random = SplitMix64(seed: seed)
    var sightings: [Sighting] = []
    var truth: [TruthPoint] = []
    var time = 0.0
    var count = 0
    for device in offsets.keys.sorted() {
        for step in 0..<150 {
            let point = Point2D(x: 1 + Double(step % 15) * 1.3, y: 1 + Double(step / 15) * 1.7)
            truth.append(TruthPoint(time: time, device: device, point: point, z: 1))
            for node in nodes {
                guard let calibration = calibrations[node.id] else { continue }
                let meters = Point3D(x: point.x, y: point.y, z: 1).distance(to: node.position)
                var rssi = LogDistance.rssi(meters: meters, calibration: calibration) + (offsets[device] ?? 0)
                rssi += sigma * random.standardNormal()
                count += 1
                if outlierEvery > 0, count % outlierEvery == 0 { rssi += 30 }
                sightings.append(Sighting(time: time, device: device, node: node.id, rssi: rssi))
            }
            time += 1
        }
    }
    return Recording(sightings: sightings, truth: truth)
}

@Suite struct CalibrationTests {
    let nodes = [
        Node(id: "a", position: Point3D(x: 0, y: 0, z: 2.5)), Node(id: "b", position: Point3D(x: 20, y: 0, z: 2.5)),
        Node(id: "c", position: Point3D(x: 10, y: 18, z: 2.5)), Node(id: "d", position: Point3D(x: 30, y: 30, z: 2.5)),
    ]
    let actual = [
        "a": NodeCalibration(rssiAtOneMeter: -55, pathLossExponent: 2.2),
        "b": NodeCalibration(rssiAtOneMeter: -65, pathLossExponent: 1.8),
        "c": NodeCalibration(rssiAtOneMeter: -60, pathLossExponent: 2.8),
    ]

    @Test func robustFitRecoversPathLossAndOffsetsDespiteOutliers() throws {
        let survey = syntheticSurvey(
            nodes: nodes, truth: actual, offsets: ["phone-a": -3, "phone-b": 3], sigma: 2, outlierEvery: 25)
        let calibration = CalibrationFitter().fit(nodes: nodes, survey: survey)
        for (id, expected) in actual {
            let fitted = try #require(calibration.nodes[id])
            #expect(abs(fitted.rssiAtOneMeter - expected.rssiAtOneMeter) < 1.5, "node \(id): \(fitted)")
            #expect(abs(fitted.pathLossExponent - expected.pathLossExponent) < 0.2, "node \(id): \(fitted)")
        }
        let a = try #require(calibration.deviceOffsets["phone-a"])
        let b = try #require(calibration.deviceOffsets["phone-b"])
        #expect(abs((b - a) - 6) < 0.5)
        #expect(abs(calibration.shadowingSigma - 2) < 0.6)
        #expect(calibration.deviceHeight == 1)
        // Node d was never heard: it has no fit of its own and falls back to the pooled one.
        #expect(calibration.nodes["d"] == nil)
        #expect(calibration.calibration(for: nodes[3]) == calibration.pooled)
    }

    @Test func sparseNodesTakeThePooledExponent() {
        var survey = syntheticSurvey(nodes: nodes, truth: actual, offsets: ["p": 0], sigma: 1)
        // Keep only 10 sightings of node c.
        var seen = 0
        survey.sightings.removeAll { sighting in
            guard sighting.source == .node("c") else { return false }
            seen += 1
            return seen > 10
        }
        let calibration = CalibrationFitter().fit(nodes: nodes, survey: survey)
        #expect(calibration.nodes["c"]?.pathLossExponent == calibration.pooled.pathLossExponent)
        #expect(calibration.deviceOffsets.isEmpty)
    }

    @Test func fitsStayWithinBounds() {
        // RSSI that rises with distance would need a negative exponent: it is clamped to the lower bound.
        var sightings: [Sighting] = []
        var truth: [TruthPoint] = []
        for step in 0..<100 {
            let x = 1 + Double(step) * 0.2
            truth.append(TruthPoint(time: Double(step), device: "d", point: Point2D(x: x, y: 0), z: 2.5))
            sightings.append(Sighting(time: Double(step), device: "d", node: "a", rssi: -80 + 10 * log10(x)))
        }
        let node = Node(id: "a", position: Point3D(x: 0, y: 0, z: 2.5))
        let calibration = CalibrationFitter().fit(nodes: [node], survey: Recording(sightings: sightings, truth: truth))
        #expect(calibration.nodes["a"]?.pathLossExponent == 1)
    }

    @Test func anEmptySurveyIsUncalibratedAndCalibrationRoundTripsThroughJSON() throws {
        let empty = CalibrationFitter().fit(nodes: nodes, survey: Recording(sightings: [], truth: []))
        #expect(empty == .uncalibrated)
        let survey = syntheticSurvey(nodes: nodes, truth: actual, offsets: ["x": 0, "y": 2], sigma: 1)
        let calibration = CalibrationFitter().fit(nodes: nodes, survey: survey)
        let data = try JSONEncoder().encode(calibration)
        #expect(try JSONDecoder().decode(Calibration.self, from: data) == calibration)
    }

    @Test(arguments: [
        (#"{"nodes":{"a":{"rssiAt1m":-60,"pathLossExponent":0}}}"#, "nodes: node 'a': pathLossExponent"),
        (#"{"nodes":{"b":{"rssiAt1m":-60,"pathLossExponent":-2.5}}}"#, "nodes: node 'b': pathLossExponent"),
        (#"{"pooled":{"rssiAt1m":-59,"pathLossExponent":0}}"#, "pooled: pathLossExponent"),
        (#"{"shadowingSigma":0}"#, "shadowingSigma: shadowingSigma must be a positive number"),
        (#"{"shadowingSigma":-4}"#, "shadowingSigma: shadowingSigma must be a positive number"),
    ])
    func aCalibrationJSONWithANonPositiveExponentOrSigmaIsRefused(json: String, expected: String) {
        #expect {
            try JSONFormat.decode(Calibration.self, from: Data(json.utf8), file: "calibration.json")
        } throws: { error in
            "\(error)".hasPrefix("calibration.json: ") && "\(error)".contains(expected)
        }
    }

    @Test func aCalibrationJSONWithMissingFieldsAndExtraNodesStillLocates() throws {
        // Only "a" and an unknown node "zz" are listed, with an unknown field: "b", "c" and "d" take the pooled fit.
        let json =
            #"{"nodes":{"a":{"rssiAt1m":-65,"pathLossExponent":2.5},"zz":{"rssiAt1m":-70,"pathLossExponent":3}},"pooled":{"rssiAt1m":-59,"pathLossExponent":2},"comment":"hand-made"}"#
        let calibration = try JSONFormat.decode(Calibration.self, from: Data(json.utf8), file: "calibration.json")
        #expect(calibration.shadowingSigma == 6 && calibration.deviceOffsets.isEmpty && calibration.samples.isEmpty)
        var engine = PositioningEngine(
            nodes: nodes, method: NonlinearLeastSquares(deviceHeight: 1, maximumIterations: 50, tolerance: 1e-9),
            calibration: calibration)
        let device = Point3D(x: 12, y: 9, z: 1)
        for node in nodes {
            let model = calibration.calibration(for: node)
            let rssi = LogDistance.rssi(meters: device.distance(to: node.position), calibration: model)
            engine.ingest(Sighting(time: 0, device: "p", node: node.id, rssi: rssi))
        }
        let fix = try engine.locate(device: "p", at: 0).get()
        #expect(fix.position.horizontal.isApproximatelyEqual(to: device.horizontal, absoluteTolerance: 1e-3))
    }

    @Test func aDuplicateNodeIdIsIgnoredAsTheEngineDoes() {
        let survey = syntheticSurvey(nodes: nodes, truth: actual, offsets: ["x": 0], sigma: 2)
        // A second "a" far away: fitting against it (or counting its zero samples) would spoil "a".
        let duplicated = nodes + [Node(id: "a", position: Point3D(x: 200, y: 200, z: 2.5))]
        let fitted = CalibrationFitter().fit(nodes: duplicated, survey: survey)
        #expect(fitted == CalibrationFitter().fit(nodes: nodes, survey: survey))
        #expect(fitted.samples["a"] == 150)
    }

    @Test func absurdSurveySamplesAreSkippedAndTheFitStaysFinite() throws {
        let survey = syntheticSurvey(nodes: nodes, truth: actual, offsets: ["x": 0], sigma: 2)
        var spoiled = survey
        for (index, rssi) in [1e308, -1e308, 1e300].enumerated() {
            spoiled.sightings.append(Sighting(time: Double(index), device: "x", node: "a", rssi: rssi))
        }
        // A device whose truth has a NaN coordinate (possible from code, not from CSV).
        spoiled.truth.append(TruthPoint(time: 0, device: "lost", point: Point2D(x: .nan, y: 3), z: 1))
        spoiled.sightings.append(Sighting(time: 0, device: "lost", node: "b", rssi: -70))
        let fitted = CalibrationFitter().fit(nodes: nodes, survey: spoiled)
        #expect(fitted == CalibrationFitter().fit(nodes: nodes, survey: survey))
        // Writable as JSON (a NaN made the encoder throw) and readable back.
        let data = try JSONEncoder().encode(fitted)
        #expect(try JSONDecoder().decode(Calibration.self, from: data) == fitted)
    }

    @Test func truthIsInterpolatedBetweenRowsAndNotAcrossGapsAndKnownAtEachRow() throws {
        let track = TruthTrack(points: [
            TruthPoint(time: 0, device: "d", point: Point2D(x: 0, y: 0)),
            TruthPoint(time: 2, device: "d", point: Point2D(x: 4, y: 2)),
            TruthPoint(time: 100, device: "d", point: Point2D(x: 9, y: 9)),
        ])
        let middle = try #require(track.position(at: 1))
        #expect(middle.point == Point2D(x: 2, y: 1))
        #expect(track.position(at: 50) == nil)
        #expect(track.position(at: -20) == nil)
        // A row's own time is known however far the next row is: a walk with a position every 8 s (a sparse survey)
        // gives a fingerprint and a calibration sample at each row.
        #expect(track.position(at: 2)?.point == Point2D(x: 4, y: 2))
        #expect(track.position(at: 100)?.point == Point2D(x: 9, y: 9))
        #expect(track.position(at: 2.5) == nil)
        let still = TruthTrack(points: [TruthPoint(time: 9, device: "s", point: Point2D(x: 1, y: 2))])
        #expect(still.position(at: -1000)?.point == Point2D(x: 1, y: 2))
    }
}
