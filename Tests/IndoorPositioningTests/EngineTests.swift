import Foundation
import IndoorModel
import IndoorRanging
import IndoorTestSupport
import Testing

@testable import IndoorPositioning

@Suite struct EngineTests {
    let nodes = [
        Node(id: "a", position: Point3D(x: 0, y: 0, z: 0)), Node(id: "b", position: Point3D(x: 10, y: 0, z: 0)),
        Node(id: "c", position: Point3D(x: 0, y: 10, z: 0)), Node(id: "d", position: Point3D(x: 10, y: 10, z: 0)),
    ]

    func sightings(device: String, at point: Point2D, time: Double) -> [Sighting] {
        nodes.map { node in
            let meters = Point3D(x: point.x, y: point.y, z: 0).distance(to: node.position)
            return Sighting(
                time: time, device: device, node: node.id,
                rssi: LogDistance.rssi(meters: meters, calibration: .typical))
        }
    }

    @Test func locatesADeviceFromExactSightings() throws {
        var engine = PositioningEngine(
            nodes: nodes, method: NonlinearLeastSquares(maximumIterations: 50, tolerance: 1e-9))
        let used = engine.ingest(sightings(device: "p", at: Point2D(x: 3, y: 6), time: 1))
        #expect(used == 4)
        let fix = try engine.locate(device: "p", at: 1).get()
        #expect(fix.position.horizontal.isApproximatelyEqual(to: Point2D(x: 3, y: 6), absoluteTolerance: 1e-3))
        #expect(fix.method == "nonlinear")
        let current = engine.readings(device: "p", at: 1)
        #expect(current.map(\.node.id) == ["c", "a", "d", "b"])
    }

    @Test func withoutASurveyTheDefaultTrilateratesRangesThatAgreeAndNamesWhatAnswered() throws {
        // With the centroid prior, the posterior answers four nodes heard at their exact ranges, near the device.
        var prior = try MethodCatalog.engine(method: MethodCatalog.defaultName, nodes: nodes)
        prior.ingest(sightings(device: "p", at: Point2D(x: 3, y: 4), time: 1))
        let held = try prior.locate(device: "p", at: 1).get()
        #expect(held.method == MethodCatalog.defaultName)
        #expect(held.position.horizontal.distance(to: Point2D(x: 3, y: 4)) < 1.5, "\(held.position)")
        // Without it, four nodes heard at their exact ranges: the default solves the geometry instead of taking the
        // centroid.
        let withoutPrior = try CentroidPriorTests.withoutPrior()
        var engine = try MethodCatalog.engine(
            method: MethodCatalog.defaultName, nodes: nodes, configuration: withoutPrior)
        engine.ingest(sightings(device: "p", at: Point2D(x: 3, y: 4), time: 1))
        let fix = try engine.locate(device: "p", at: 1).get()
        #expect(fix.position.horizontal.distance(to: Point2D(x: 3, y: 4)) < 0.05, "\(fix.position)")
        #expect(fix.method == "nonlinear")
        // The same four with ranges that contradict each other (one node 12 dB weaker, one 8 dB stronger): four are
        // enough for the posterior, which answers; three of them, too few for it: the weighted centroid answers, and
        // the fix says so.
        var noisy = try MethodCatalog.engine(
            method: MethodCatalog.defaultName, nodes: nodes, configuration: withoutPrior)
        var disagreeing = sightings(device: "q", at: Point2D(x: 3, y: 4), time: 1)
        disagreeing[0].rssi -= 12
        disagreeing[3].rssi += 8
        noisy.ingest(disagreeing)
        #expect(try noisy.locate(device: "q", at: 1).get().method == MethodCatalog.defaultName)
        var three = sightings(device: "r", at: Point2D(x: 3, y: 4), time: 1).prefix(3)
        three[three.startIndex].rssi -= 12
        noisy.ingest(Array(three))
        #expect(try noisy.locate(device: "r", at: 1).get().method == "weighted-centroid")
    }

    @Test func fixesCoverEveryDeviceWithAFix() {
        var engine = PositioningEngine(
            venue: Venue(id: "v", name: "V", nodes: nodes), method: NonlinearLeastSquares())
        engine.ingest(sightings(device: "b", at: Point2D(x: 3, y: 6), time: 1))
        engine.ingest(sightings(device: "a", at: Point2D(x: 7, y: 2), time: 1))
        engine.ingest(Sighting(time: 1, device: "c", node: "a", rssi: -60))
        #expect(engine.fixes(at: 1).map(\.device) == ["a", "b"])
        #expect(engine.fixes(at: 1).allSatisfy { $0.coordinate == nil })
    }

    @Test func aVenueAnchorPlacesFixesOnTheEarth() throws {
        let anchor = GeoAnchor(origin: GeoCoordinate(latitude: 52.5, longitude: 13.4))
        var engine = PositioningEngine(
            venue: Venue(id: "v", name: "V", nodes: nodes, anchor: anchor), method: NonlinearLeastSquares())
        engine.ingest(sightings(device: "p", at: Point2D(x: 0, y: 5), time: 1))
        let fix = try engine.locate(device: "p", at: 1).get()
        let coordinate = try #require(fix.coordinate)
        #expect(coordinate == anchor.coordinate(of: fix.position.horizontal))
        #expect(coordinate.latitude > 52.5)
    }

    @Test func ignoresUnknownNodesAndNonFiniteValues() {
        var engine = PositioningEngine(nodes: nodes, method: WeightedCentroid())
        let unknown = engine.ingest(Sighting(time: 0, device: "p", node: "zz", rssi: -60))
        let notANumber = engine.ingest(Sighting(time: 0, device: "p", node: "a", rssi: .nan))
        let never = engine.ingest(Sighting(time: .infinity, device: "p", node: "a", rssi: -60))
        #expect(!unknown && !notANumber && !never)
        #expect(engine.deviceCount == 0)
        guard case .failure(let error) = engine.locate(device: "p", at: 0) else {
            Issue.record("expected no fix")
            return
        }
        #expect(error.code == .notHeard)
    }

    @Test func anOverflowingTrimmedMeanDoesNotBlockTheOtherNodes() throws {
        // Two samples of 1e308 dBm from "a" used to average to +inf, a reading every solver refused.
        var engine = PositioningEngine(
            nodes: nodes, method: WeightedCentroid(),
            configuration: .init(filter: .trimmedMean(window: 20, trim: 0)))
        engine.ingest(Sighting(time: 0, device: "p", node: "a", rssi: 1e308))
        engine.ingest(Sighting(time: 0.5, device: "p", node: "a", rssi: 1e308))
        engine.ingest(sightings(device: "p", at: Point2D(x: 3, y: 6), time: 1).filter { $0.source != .node("a") })
        let readings = engine.readings(device: "p", at: 1)
        #expect(readings.allSatisfy { $0.rssi.isFinite && $0.distance.isFinite })
        #expect(readings.count == 4)
        let fix = try engine.locate(device: "p", at: 1).get()
        #expect(fix.position.x.isFinite && fix.position.y.isFinite)
    }

    @Test func aNodeWithANonFinitePositionIsLeftOutInsteadOfSpoilingEveryFix() throws {
        let broken = Node(id: "x", position: Point3D(x: .nan, y: 4, z: 0))
        var engine = PositioningEngine(nodes: nodes + [broken], method: NonlinearLeastSquares())
        let usedBroken = engine.ingest(Sighting(time: 1, device: "p", node: "x", rssi: -50))
        #expect(!usedBroken)
        engine.ingest(sightings(device: "p", at: Point2D(x: 3, y: 6), time: 1))
        let fix = try engine.locate(device: "p", at: 1).get()
        #expect(fix.position.horizontal.isApproximatelyEqual(to: Point2D(x: 3, y: 6), absoluteTolerance: 0.05))
        #expect(engine.node(for: .node("x")) == nil)
    }

    @Test func duplicateIdsKeepTheFirstNodeAndSharedPositionsGiveNoFixNotNaN() throws {
        let moved = Node(id: "a", position: Point3D(x: 500, y: 500, z: 0))
        var engine = PositioningEngine(nodes: nodes + [moved], method: NonlinearLeastSquares())
        #expect(engine.node(for: .node("a"))?.position == Point3D(x: 0, y: 0, z: 0))
        // Three nodes stacked on one spot: a clear degenerate-geometry answer for every method.
        let stacked = ["s1", "s2", "s3"].map { Node(id: $0, position: Point3D(x: 4, y: 4, z: 2)) }
        for name in MethodCatalog.names where MethodCatalog.Selection(name)?.needsSurvey == false {
            var stackedEngine = try MethodCatalog.engine(method: name, nodes: stacked)
            for (index, node) in stacked.enumerated() {
                stackedEngine.ingest(Sighting(time: 0, device: "p", node: node.id, rssi: -60 - Double(index)))
            }
            switch stackedEngine.locate(device: "p", at: 0) {
            case .success(let fix):
                #expect(fix.position.x.isFinite && fix.position.y.isFinite, "\(name)")
            case .failure(let error):
                #expect(!error.message.isEmpty, "\(name)")
            }
        }
        engine.ingest(sightings(device: "p", at: Point2D(x: 7, y: 2), time: 0))
        let fix = try engine.locate(device: "p", at: 0).get()
        #expect(fix.position.horizontal.isApproximatelyEqual(to: Point2D(x: 7, y: 2), absoluteTolerance: 0.05))
    }

    @Test func timeGoingBackwardsNeitherCrashesNorForgetsTheDevice() throws {
        var engine = PositioningEngine(
            nodes: nodes, method: NonlinearLeastSquares(), configuration: .init(tracking: .init()))
        for time in [10.0, 9, 12, 3, 11, 12.5] {
            engine.ingest(sightings(device: "p", at: Point2D(x: 3, y: 6), time: time))
        }
        #expect(engine.deviceCount == 1)
        for time in [12.5, 11.0, 9.0] {
            let fix = try engine.locate(device: "p", at: time).get()
            #expect(fix.position.horizontal.isApproximatelyEqual(to: Point2D(x: 3, y: 6), absoluteTolerance: 0.1))
        }
    }

    @Test func aReadingWhoseVarianceOverflowsIsSkipped() throws {
        // −5000 dBm: 10^(4941 / 20) ≈ 1e247 m, whose square overflows; the solvers refused the whole device.
        var engine = PositioningEngine(
            nodes: nodes + [Node(id: "e", position: Point3D(x: 5, y: 20, z: 0))], method: PowerCenter())
        engine.ingest(sightings(device: "p", at: Point2D(x: 3, y: 6), time: 1))
        engine.ingest(Sighting(time: 1, device: "p", node: "e", rssi: -5000))
        #expect(engine.readings(device: "p", at: 1).map(\.node.id).sorted() == ["a", "b", "c", "d"])
        let fix = try engine.locate(device: "p", at: 1).get()
        #expect(fix.position.horizontal.isApproximatelyEqual(to: Point2D(x: 3, y: 6), absoluteTolerance: 1e-6))
    }

    @Test func aNonFiniteReceiverOffsetMakesTheSightingUnusable() {
        // Used to report the sighting as used and keep an empty node entry (and a device) for it.
        let calibration = Calibration(deviceOffsets: ["p": .nan, "q": -1.7e308])
        var engine = PositioningEngine(nodes: nodes, method: WeightedCentroid(), calibration: calibration)
        let used = engine.ingest(Sighting(time: 0, device: "p", node: "a", rssi: -60))
        let overflowing = engine.ingest(Sighting(time: 0, device: "q", node: "a", rssi: 1.7e308))
        #expect(!used && !overflowing)
        #expect(engine.deviceCount == 0)
        let plain = engine.ingest(Sighting(time: 0, device: "r", node: "a", rssi: -60))
        #expect(plain)
    }

    @Test func aLateSampleDoesNotMakeAFreshTrimmedMeanNodeStale() {
        var engine = PositioningEngine(
            nodes: nodes, method: WeightedCentroid(), configuration: .init(window: 5, filter: .androidDefault))
        engine.ingest(Sighting(time: 10, device: "p", node: "a", rssi: -60))
        engine.ingest(Sighting(time: 4, device: "p", node: "a", rssi: -62))  // arrives late
        #expect(engine.readings(device: "p", at: 12).map(\.node.id) == ["a"])
    }

    @Test func aStaticSurveyDeviceWithABogusTimestampIsSampledOnlyWhereHeard() {
        // Sightings every 0.5 s over 0…20 s, then one at 1e12 s: sampling every second up to 1e12 never ended.
        var sightings: [Sighting] = []
        for step in 0...40 { sightings.append(Sighting(time: Double(step) / 2, device: "s", node: "a", rssi: -60)) }
        let truth = [TruthPoint(time: 0, device: "s", point: Point2D(x: 1, y: 1), z: 0)]
        let plain = FingerprintKNN.survey(
            nodes: nodes, recording: Recording(sightings: sightings, truth: truth),
            configuration: .init(), calibration: .uncalibrated)
        // Samples at 5, 6, …, 19 s and at the last sighting (20 s).
        #expect(plain.count == 16)
        sightings.append(Sighting(time: 1e12, device: "s", node: "a", rssi: -60))
        let bogus = FingerprintKNN.survey(
            nodes: nodes, recording: Recording(sightings: sightings, truth: truth),
            configuration: .init(), calibration: .uncalibrated)
        // 5 … 25 s (the window keeps the 20 s sighting fresh until 25 s), then the bogus one.
        #expect(bogus.count == 22)
    }

    @Test func aWalkWithAPositionEveryEightSecondsGivesAFingerprintAtEachRow() {
        // A walk from (0, 0) to (16, 0) heard every half second, its position written every 8 s: more than the 5 s
        // its truth may be bridged, so nothing between the rows is known, but each row is (a sparse survey's rows
        // all gave nothing).
        var sightings: [Sighting] = []
        for step in 0...32 { sightings.append(Sighting(time: Double(step) / 2, device: "w", node: "a", rssi: -60)) }
        let truth = stride(from: 0.0, through: 16, by: 8).map {
            TruthPoint(time: $0, device: "w", point: Point2D(x: $0, y: 0), z: 0)
        }
        let fingerprints = FingerprintKNN.survey(
            nodes: nodes, recording: Recording(sightings: sightings, truth: truth),
            configuration: .init(), calibration: .uncalibrated)
        #expect(fingerprints.map(\.position.x) == [0, 8, 16])
    }

    @Test func oneBogusFutureTimestampDoesNotStopExpiry() {
        var engine = PositioningEngine(nodes: nodes, method: WeightedCentroid())
        engine.ingest(Sighting(time: 1e9, device: "bogus", node: "a", rssi: -60))
        engine.ingest(Sighting(time: 0, device: "old", node: "a", rssi: -60))
        for time in stride(from: 100.0, through: 200, by: 10) {
            engine.ingest(Sighting(time: time, device: "new", node: "b", rssi: -60))
        }
        // "old" was last heard at 0 s, 200 s ago with a 60 s expiry; sweeps used to wait for time 1e9 + 60.
        #expect(engine.readings(device: "old", at: 0).isEmpty)
        // "old" and "new" agree on a time line 1e9 s before the first (bogus) one: the present jumps back to it
        // and the bogus device, stamped on the abandoned time line, is forgotten too (DataClock).
        #expect(engine.deviceCount == 1)
        #expect(engine.clock.present == 200)
    }

    @Test func aDeviceHeardByAThousandNodesKeepsAtMostItsBound() throws {
        var many: [Node] = []
        for index in 0..<1000 {
            many.append(Node(id: "n\(index)", position: Point3D(x: Double(index % 40), y: Double(index / 40), z: 2)))
        }
        var engine = PositioningEngine(nodes: many, method: EPTA(deviceHeight: 1.2))
        let device = Point3D(x: 20.2, y: 12.7, z: 1.2)
        for node in many {
            let rssi = LogDistance.rssi(meters: node.position.distance(to: device), calibration: .typical)
            engine.ingest(Sighting(time: 0, device: "p", node: node.id, rssi: rssi))
        }
        #expect(engine.readings(device: "p", at: 0).count == engine.configuration.maximumNodesPerDevice)
        let fix = try engine.locate(device: "p", at: 0).get()
        #expect(fix.position.x.isFinite && fix.position.y.isFinite)
    }

    @Test func readingsGoStaleAndDevicesExpire() {
        let configuration = PositioningEngine.Configuration(window: 5, deviceExpiry: 30)
        var engine = PositioningEngine(nodes: nodes, method: WeightedCentroid(), configuration: configuration)
        engine.ingest(sightings(device: "old", at: Point2D(x: 1, y: 1), time: 0))
        #expect(engine.readings(device: "old", at: 4).count == 4)
        #expect(engine.readings(device: "old", at: 6).isEmpty)
        engine.ingest(sightings(device: "new", at: Point2D(x: 1, y: 1), time: 100))
        #expect(engine.deviceCount == 1)
        #expect(engine.readings(device: "old", at: 100).isEmpty)
        // A forgotten device starts afresh: its old filter state does not leak into a new one.
        engine.ingest(Sighting(time: 101, device: "third", node: "a", rssi: -70))
        #expect(engine.readings(device: "third", at: 101).map(\.rssi) == [-70])
    }

    @Test func memoryIsBoundedByMaximumDevices() {
        let configuration = PositioningEngine.Configuration(deviceExpiry: 1e9, maximumDevices: 10)
        var engine = PositioningEngine(nodes: nodes, method: WeightedCentroid(), configuration: configuration)
        for index in 0..<100 {
            engine.ingest(Sighting(time: Double(index), device: "d\(index)", node: "a", rssi: -60))
            #expect(engine.deviceCount <= 10)
        }
        #expect(!engine.readings(device: "d99", at: 99).isEmpty)
    }

    @Test func theTrimmedMeanAveragesOverItsOwnWindow() {
        let configuration = PositioningEngine.Configuration(window: 5, filter: .androidDefault)
        var engine = PositioningEngine(nodes: nodes, method: WeightedCentroid(), configuration: configuration)
        for time in 0...10 {
            engine.ingest(Sighting(time: Double(time), device: "p", node: "a", rssi: time < 5 ? -80 : -60))
        }
        // 11 samples in the last 20 s: one dropped at each end (10%), leaving four at −80 and five at −60.
        let rssi = engine.readings(device: "p", at: 10).first?.rssi ?? 0
        #expect(abs(rssi - (4 * -80.0 + 5 * -60.0) / 9) < 1e-9)
        #expect(engine.readings(device: "p", at: 16).isEmpty)
    }

    @Test func nodesPerDeviceAreBoundedAndTheStalestIsReplaced() {
        let configuration = PositioningEngine.Configuration(window: 100, maximumNodesPerDevice: 3)
        var engine = PositioningEngine(nodes: nodes, method: WeightedCentroid(), configuration: configuration)
        for (time, id) in ["a", "b", "c", "a", "d"].enumerated() {
            engine.ingest(Sighting(time: Double(time), device: "p", node: id, rssi: -60 - Double(time)))
        }
        // b (heard at 1) was the stalest when d arrived.
        #expect(Set(engine.readings(device: "p", at: 4).map(\.node.id)) == ["a", "c", "d"])
    }

    @Test(arguments: [
        RSSIFilter.Kind.trimmedMean(window: 20, trim: 0.1), .arma(coefficient: 0.5),
        .kalman(processNoise: 1, measurementNoise: 4),
    ])
    func everyFilterKindRunsInTheEngine(kind: RSSIFilter.Kind) throws {
        var engine = PositioningEngine(
            nodes: nodes, method: NonlinearLeastSquares(), configuration: PositioningEngine.Configuration(filter: kind))
        for time in 0..<5 { engine.ingest(sightings(device: "p", at: Point2D(x: 3, y: 6), time: Double(time))) }
        let fix = try engine.locate(device: "p", at: 4).get()
        #expect(fix.position.horizontal.distance(to: Point2D(x: 3, y: 6)) < 0.1)
    }

    @Test func calibrationOffsetsAndPerNodeFitsApply() {
        let calibration = Calibration(
            nodes: ["a": NodeCalibration(rssiAtOneMeter: -50, pathLossExponent: 2)], deviceOffsets: ["loud": 5])
        var engine = PositioningEngine(nodes: nodes, method: WeightedCentroid(), calibration: calibration)
        engine.ingest(Sighting(time: 0, device: "loud", node: "a", rssi: -65))
        let reading = engine.readings(device: "loud", at: 0)
        #expect(reading.first?.rssi == -70)
        #expect(reading.first.map { abs($0.distance - 10) < 1e-9 } == true)
    }

    @Test func advertisedTransmitPowerStandsInForAMissingCalibration() {
        let calibrated = Node(id: "cal", position: Point3D(x: 0, y: 0, z: 0), calibration: .typical)
        var engine = PositioningEngine(nodes: nodes + [calibrated], method: WeightedCentroid())
        engine.ingest(Sighting(time: 0, device: "p", node: "a", rssi: -70, txPower: -50))
        engine.ingest(Sighting(time: 0, device: "p", node: "b", rssi: -79))
        engine.ingest(Sighting(time: 0, device: "p", node: "cal", rssi: -79, txPower: -50))
        let distances = Dictionary(
            uniqueKeysWithValues: engine.readings(device: "p", at: 0).map { ($0.node.id, $0.distance) })
        // a: −50 dBm at 1 m advertised, exponent 2 → 10 m; b: no power advertised → typical −59 → 10 m;
        // cal: its own calibration wins over the advertised power → 10 m.
        #expect(distances.mapValues { abs($0 - 10) < 1e-9 } == ["a": true, "b": true, "cal": true])
    }

    @Test(arguments: [-1e308, 1e308, -129, 200, Double.nan])
    func anAdvertisedPowerNoFrameCanCarryIsIgnored(txPower: Double) {
        // −1e308 dBm at 1 m made the distance exactly 0 m.
        var engine = PositioningEngine(nodes: nodes, method: WeightedCentroid())
        engine.ingest(Sighting(time: 0, device: "p", node: "a", rssi: -79, txPower: txPower))
        let distance = engine.readings(device: "p", at: 0).first?.distance
        #expect(distance.map { abs($0 - 10) < 1e-9 } == true)  // the typical −59 dBm at 1 m
        engine.ingest(Sighting(time: 1, device: "p", node: "a", rssi: -70, txPower: -50))
        engine.ingest(Sighting(time: 1, device: "p", node: "a", rssi: -70, txPower: txPower))
        #expect(engine.readings(device: "p", at: 1).first.map { $0.distance > 1 && $0.distance < 20 } == true)
    }

    @Test func perDeviceDistanceModelsOverrideTheDefault() {
        let configuration = PositioningEngine.Configuration(deviceModels: ["iphone": .curveFit(.iPhoneLike)])
        var engine = PositioningEngine(nodes: nodes, method: WeightedCentroid(), configuration: configuration)
        engine.ingest(Sighting(time: 0, device: "iphone", node: "a", rssi: -59))
        engine.ingest(Sighting(time: 0, device: "other", node: "a", rssi: -59))
        let curve = engine.readings(device: "iphone", at: 0).first?.distance ?? 0
        #expect(abs(curve - (0.89976 + 0.111)) < 1e-9)
        #expect(engine.readings(device: "other", at: 0).first?.distance == 1)
    }
}

@Suite struct FingerprintTests {
    @Test func nearestFingerprintsDecideThePosition() throws {
        let fingerprints = [
            Fingerprint(position: Point3D(x: 0, y: 0, z: 0), rssi: ["a": -50, "b": -80]),
            Fingerprint(position: Point3D(x: 10, y: 0, z: 0), rssi: ["a": -80, "b": -50]),
            Fingerprint(position: Point3D(x: 5, y: 0, z: 0), rssi: ["a": -65, "b": -65]),
        ]
        let knn = FingerprintKNN(fingerprints: fingerprints, k: 1)
        let reading = { (id: String, rssi: Double) in
            NodeReading(
                node: Node(id: id, position: Point3D(x: 0, y: 0, z: 0)), rssi: rssi, distance: 1, distanceVariance: 1,
                lastHeard: 0)
        }
        let estimate = try knn.estimate(from: [reading("a", -79), reading("b", -52)]).get()
        #expect(estimate.position.x == 10)
        let unknown = knn.estimate(from: [reading("zz", -60)])
        #expect((try? unknown.get()) == nil)
        let averaged = FingerprintKNN.averagedByPosition(fingerprints + [fingerprints[0]])
        #expect(averaged.count == 3)
    }

    @Test func surveyFingerprintsComeThroughTheEngineFilters() {
        let nodes = [
            Node(id: "a", position: Point3D(x: 0, y: 0, z: 2.5)), Node(id: "b", position: Point3D(x: 20, y: 0, z: 2.5)),
            Node(id: "c", position: Point3D(x: 10, y: 18, z: 2.5)),
        ]
        let survey = syntheticSurvey(
            nodes: nodes, truth: ["a": .typical, "b": .typical, "c": .typical], offsets: ["walker": 0], sigma: 0)
        let fingerprints = FingerprintKNN.survey(
            nodes: nodes, recording: survey, configuration: PositioningEngine.Configuration(),
            calibration: .uncalibrated)
        #expect(fingerprints.count == 150)
        #expect(fingerprints.allSatisfy { $0.rssi.count == 3 })
    }
}

@Suite struct MethodCatalogTests {
    let nodes = [
        Node(id: "a", position: Point3D(x: 0, y: 0, z: 2.5)), Node(id: "b", position: Point3D(x: 20, y: 0, z: 2.5)),
        Node(id: "c", position: Point3D(x: 10, y: 18, z: 2.5)), Node(id: "d", position: Point3D(x: 0, y: 18, z: 2.5)),
    ]

    /// The methods that choose their weighting by cross-validating the survey (minutes in a debug build).
    static let crossValidated: Set = ["auto", "auto+track", "particle-filter"]

    @Test(arguments: MethodCatalog.names.filter { !crossValidated.contains($0) })
    func everyMethodLocatesOnASurveyedVenue(name: String) throws {
        try locatesOnASurveyedVenue(name: name)
    }

    @Test(.releaseBuild, arguments: MethodCatalog.names.filter { crossValidated.contains($0) })
    func everyCrossValidatedMethodLocatesOnASurveyedVenue(name: String) throws {
        try locatesOnASurveyedVenue(name: name)
    }

    func locatesOnASurveyedVenue(name: String) throws {
        let truth = Dictionary(uniqueKeysWithValues: nodes.map { ($0.id, NodeCalibration.typical) })
        let survey = syntheticSurvey(nodes: nodes, truth: truth, offsets: ["walker": 0], sigma: 1)
        var engine = try MethodCatalog.engine(method: name, nodes: nodes, survey: survey)
        #expect(engine.methodName == name)
        let device = Point3D(x: 6, y: 7, z: 1)
        for node in nodes {
            let rssi = LogDistance.rssi(meters: node.position.distance(to: device), calibration: .typical)
            engine.ingest(Sighting(time: 1000, device: "p", node: node.id, rssi: rssi))
        }
        let fix = try engine.locate(device: "p", at: 1000).get()
        // The nearest area answers the nearest node; the centroid is pulled toward the middle of the nodes; the others
        // solve the geometry.
        if name == "nearest-area" {
            #expect(fix.position == Point3D(x: 0, y: 0, z: 2.5))
            return
        }
        #expect(fix.position.horizontal.distance(to: device.horizontal) < (name == "weighted-centroid" ? 6 : 3.5))
    }

    @Test func everyKnownNameMakesAnEngineAndATrackIsNotTrackedTwice() throws {
        #expect(!MethodCatalog.isKnown("knn+track+track") && !MethodCatalog.isKnown("nonlinear+track+track"))
        #expect(!MethodCatalog.isKnown("+track") && MethodCatalog.isKnown("epta+track"))
        let survey = Recording(
            sightings: nodes.map { Sighting(time: 0, device: "s", node: $0.id, rssi: -65) },
            truth: [TruthPoint(time: 0, device: "s", point: Point2D(x: 3, y: 6), z: 0)])
        for name in MethodCatalog.names + MethodCatalog.names.map({ $0 + MethodCatalog.trackSuffix })
        where MethodCatalog.isKnown(name) {
            let engine = try MethodCatalog.engine(method: name, nodes: nodes, survey: survey)
            #expect(engine.methodName == name)
        }
    }

    @Test func unknownNamesAndMissingSurveysAreClearErrors() {
        #expect(throws: UnknownMethodError.self) { try MethodCatalog.engine(method: "magic", nodes: nodes) }
        #expect(throws: MissingSurveyError.self) { try MethodCatalog.engine(method: "knn", nodes: nodes) }
        #expect(MethodCatalog.names.contains(MethodCatalog.defaultName))
    }
}
