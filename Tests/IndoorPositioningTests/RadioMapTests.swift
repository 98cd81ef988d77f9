import Foundation
import IndoorModel
import IndoorRanging
import IndoorTestSupport
import Testing

@testable import IndoorPositioning

/// ``SeededVenue`` with a wall: the nodes east of x = 12 m read 12 dB weaker south of y = 8 m.
enum WalledVenue {
    static func rssi(node: Node, at device: Point2D) -> Double {
        let position = Point3D(x: device.x, y: device.y, z: 1.2)
        var rssi = LogDistance.rssi(meters: node.position.distance(to: position), calibration: .typical)
        if node.position.x > 12, device.y < 8 { rssi -= 12 }
        return rssi
    }

    static func readings(at device: Point2D, sigma: Double, random: inout SplitMix64) -> [NodeReading] {
        SeededVenue.nodes.map { node in
            NodeReading(
                node: node, rssi: rssi(node: node, at: device) + sigma * random.standardNormal(), distance: 1,
                distanceVariance: 1, lastHeard: 0)
        }.sorted { $0.rssi > $1.rssi }
    }

    /// Survey fingerprints on a 1.5 m lattice, `repeats` noisy samples per point.
    static func fingerprints(sigma: Double = 2, repeats: Int = 3, seed: UInt64 = 5) -> [Fingerprint] {
        var random = SplitMix64(seed: seed)
        var result: [Fingerprint] = []
        for i in 0..<15 {
            for j in 0..<9 {
                let point = Point2D(x: 1.5 + Double(i) * 1.5, y: 1.5 + Double(j) * 1.5)
                for _ in 0..<repeats {
                    var rssi: [String: Double] = [:]
                    for node in SeededVenue.nodes {
                        rssi[node.id] = self.rssi(node: node, at: point) + sigma * random.standardNormal()
                    }
                    result.append(Fingerprint(position: Point3D(x: point.x, y: point.y, z: 1.2), rssi: rssi))
                }
            }
        }
        return result
    }

    /// The median error of `method` over seeded devices in the walled venue.
    static func medianError(_ method: any PositioningMethod, count: Int = 120, seed: UInt64 = 9) -> Double {
        var random = SplitMix64(seed: seed)
        var errors: [Double] = []
        for device in SeededVenue.devices(count, random: &random) {
            let list = readings(at: device, sigma: 3, random: &random)
            guard case .success(let estimate) = method.estimate(from: list) else { continue }
            errors.append(estimate.position.horizontal.distance(to: device))
        }
        errors.sort()
        return errors.isEmpty ? .infinity : errors[(errors.count - 1) / 2]
    }
}

@Suite struct RadioMapTests {
    let calibration = Calibration(shadowingSigma: 4, deviceHeight: 1.2)
    let grid = RadioMap.Grid.around(nodes: SeededVenue.nodes, height: 1.2, spacing: 0.5)

    @Test func theSurveyedMapLearnsTheWallThePathLossModelMisses() throws {
        let map = RadioMap.surveyed(
            nodes: SeededVenue.nodes, fingerprints: WalledVenue.fingerprints(), calibration: calibration, grid: grid)
        let east = try #require(map.column(of: "n3"))
        // A grid point south of the wall, between surveyed points.
        let cell = try #require(
            map.cells.indices.min { a, b in
                map.cells[a].horizontal.distance(to: Point2D(x: 18.25, y: 4.25))
                    < map.cells[b].horizontal.distance(to: Point2D(x: 18.25, y: 4.25))
            })
        let truth = WalledVenue.rssi(node: SeededVenue.nodes[3], at: map.cells[cell].horizontal)
        #expect(abs(map.mean[cell * map.nodeCount + east] - truth) < 3)
        let surveyed = WalledVenue.medianError(PosteriorGrid(map: map))
        let pathLoss = WalledVenue.medianError(
            PosteriorGrid(map: RadioMap.pathLoss(nodes: SeededVenue.nodes, calibration: calibration, grid: grid)))
        #expect(surveyed < 0.8 * pathLoss, "surveyed \(surveyed) m, path loss \(pathLoss) m")
    }

    /// The weight of the normalising term ½ ln(variance): the map's levels and spreads stay as they are, the term is
    /// scaled, and the heavier it weighs the nearer the surveyed part a device heard beyond it is answered (the cells
    /// the survey covers thinly have the larger variances).
    @Test func aHeavierLogVarianceTermLeansAnswersTowardsTheSurvey() throws {
        let west = WalledVenue.fingerprints().filter { $0.position.x < 12 }
        func map(_ weight: Double) -> RadioMap {
            RadioMap.surveyed(
                nodes: SeededVenue.nodes, fingerprints: west, calibration: calibration, grid: grid,
                configuration: RadioMap.SurveyConfiguration(logVarianceWeight: weight))
        }
        let plain = map(1)
        #expect(
            plain
                == RadioMap.surveyed(nodes: SeededVenue.nodes, fingerprints: west, calibration: calibration, grid: grid)
        )
        let weights = [0.0, 1, 3]
        let maps = weights.map(map)
        for (weight, weighted) in zip(weights, maps) {
            #expect(weighted.mean == plain.mean && weighted.inverseVariance == plain.inverseVariance)
            #expect(weighted.logVarianceWeight == weight)
            #expect(
                zip(weighted.halfLogVariance, plain.halfLogVariance).allSatisfy { abs($0 - weight * $1) < 1e-12 })
        }
        // Devices east of the survey: the mean x of their answers, for each weight.
        let meanX = maps.map { map -> Double in
            var random = SplitMix64(seed: 3)
            var sum = 0.0
            var count = 0
            for _ in 0..<40 {
                let device = Point2D(x: random.uniform(15...21), y: random.uniform(3...13))
                let readings = WalledVenue.readings(at: device, sigma: 3, random: &random)
                guard case .success(let estimate) = PosteriorGrid(map: map).estimate(from: readings) else { continue }
                sum += estimate.position.x
                count += 1
            }
            return sum / Double(max(count, 1))
        }
        #expect(meanX[0] > meanX[1] && meanX[1] > meanX[2], "mean x for weights \(weights): \(meanX)")
        #expect(RadioMap.SurveyConfiguration(logVarianceWeight: -1).logVarianceWeight == 1)
    }

    @Test func crossValidationIsDeterministicAndPicksAWorkingCandidate() throws {
        let validation = RadioMapCrossValidation(
            candidates: [
                .init(
                    map: RadioMap.SurveyConfiguration(lengthScale: 0.1),
                    posterior: PosteriorGrid.Configuration(temperature: 0.01)),
                .init(map: RadioMap.SurveyConfiguration(lengthScale: 2), posterior: PosteriorGrid.Configuration()),
            ], knnShares: [0, 0.5], samplesPerFold: 20)
        let fingerprints = WalledVenue.fingerprints(repeats: 1)
        let first = try #require(
            validation.choose(
                nodes: SeededVenue.nodes, fingerprints: fingerprints, calibration: calibration, grid: grid))
        let second = validation.choose(
            nodes: SeededVenue.nodes, fingerprints: fingerprints, calibration: calibration, grid: grid)
        #expect(first == second)
        // A nearly flat posterior (temperature 0.01) answers the middle of the venue: clearly worse.
        #expect(first.best.map.lengthScale == 2)
        #expect(first.medians.count == 4 && first.located > 0)
    }

    /// The cross-validation measures how well the winner's stated spread covers its held-out errors: a sharp posterior
    /// (a high temperature shrinks its spread, not its errors) needs its radius widened, a timid one narrowed.
    @Test func crossValidationMeasuresHowWellThePosteriorsSpreadCoversItsErrors() throws {
        let fingerprints = WalledVenue.fingerprints(repeats: 1)
        func outcome(temperature: Double) throws -> RadioMapCrossValidation.Outcome {
            let validation = RadioMapCrossValidation(
                candidates: [
                    .init(
                        map: RadioMap.SurveyConfiguration(lengthScale: 2),
                        posterior: PosteriorGrid.Configuration(temperature: temperature))
                ], knnShares: [0], samplesPerFold: 20)
            return try #require(
                validation.choose(
                    nodes: SeededVenue.nodes, fingerprints: fingerprints, calibration: calibration, grid: grid))
        }
        let sharp = try outcome(temperature: 8)
        let timid = try outcome(temperature: 0.05)
        // A 2-D Gaussian holds 68% within √(−ln 0.32) ≈ 1.07 times its root-mean-square radius.
        let gaussian = (-log(0.32)).squareRoot()
        for found in [sharp, timid] {
            let ratios = found.spreadRatios
            #expect(ratios == ratios.sorted() && ratios.count > 100 && ratios.count <= found.located)
            // The factor makes the Gaussian's radius hold 68% of the held-out errors.
            let factor = try #require(found.radiusFactor(coverage: 0.68))
            let held = ratios.filter { $0 <= factor * gaussian * (1 + 1e-12) }.count
            #expect(abs(Double(held) / Double(ratios.count) - 0.68) < 0.01, "\(held) of \(ratios.count)")
        }
        let widened = try #require(sharp.radiusFactor(coverage: 0.68))
        let narrowed = try #require(timid.radiusFactor(coverage: 0.68))
        #expect(widened > 1.5 && narrowed < 0.9, "sharp × \(widened), timid × \(narrowed)")
        #expect(
            RadioMapCrossValidation.Outcome(best: sharp.best, knnShare: 0, medians: [], located: 0, spreadRatios: [])
                .radiusFactor(coverage: 0.68) == nil)
    }

    /// `indoor evaluate` says what the cross-validation chose and on how much, with the winner's held-out median.
    @Test func theCrossValidationsChoiceReadsAsASentence() {
        let chosen = RadioMapCrossValidation.Candidate(
            map: RadioMap.SurveyConfiguration(lengthScale: 4, modelVariance: 16),
            posterior: PosteriorGrid.Configuration(temperature: 0.25, offsetSigma: 6, missingWeight: 0))
        let outcome = RadioMapCrossValidation.Outcome(
            best: chosen, knnShare: 0, medians: [1.5, nil, 1.234, 2], located: 80, spreadRatios: [])
        #expect(
            outcome.summary
                == "radio map kernel 4 m, model variance 16 dB², temperature 0.25, receiver offset prior 6 dB, unheard "
                + "nodes not counted, chosen by cross-validation on the survey (held-out median 1.23 m over 80 "
                + "fingerprints)")
        var weighted = outcome
        weighted.best.map.logVarianceWeight = 2
        #expect(weighted.summary.hasPrefix("radio map kernel 4 m, model variance 16 dB², log-variance weight 2, temp"))
        var counted = outcome
        counted.best.posterior.missingWeight = 1
        counted.medians = []
        #expect(counted.summary.hasSuffix("unheard nodes counted, chosen by cross-validation on the survey"))
    }

    /// The cross-validation tells how far it has got, part by part (a fold's map of one kernel scored), from the cores
    /// that ran them; watching changes nothing.
    @Test func crossValidationReportsItsProgress() throws {
        let validation = RadioMapCrossValidation(
            candidates: [1, 2, 4].map { length in
                .init(map: RadioMap.SurveyConfiguration(lengthScale: length), posterior: PosteriorGrid.Configuration())
            }, folds: 4, samplesPerFold: 10)
        let fingerprints = WalledVenue.fingerprints(repeats: 1)
        let lock = NSLock()
        nonisolated(unsafe) var events: [(phase: String, done: Int, total: Int)] = []
        let watched = validation.choose(
            nodes: SeededVenue.nodes, fingerprints: fingerprints, calibration: calibration, grid: grid,
            progress: LearningProgress { phase, done, total in
                lock.lock()
                events.append((phase, done, total))
                lock.unlock()
            })
        #expect(
            watched
                == validation.choose(
                    nodes: SeededVenue.nodes, fingerprints: fingerprints, calibration: calibration, grid: grid))
        // Four folds × three kernels: told with none done, then after each of the twelve.
        #expect(events.map(\.done) == Array(0...12))
        #expect(events.allSatisfy { $0.phase == "radio map cross-validation" && $0.total == 12 })
    }

    @Test func tooSmallASurveyIsNoChoice() {
        let one = [Fingerprint(position: Point3D(x: 3, y: 3, z: 1.2), rssi: ["n0": -60])]
        #expect(
            RadioMapCrossValidation().choose(
                nodes: SeededVenue.nodes, fingerprints: one, calibration: calibration, grid: grid) == nil)
    }
}

@Suite struct AutoMethodTests {
    /// A survey of the walled venue: one static device per lattice point, three scans a second apart.
    static func survey() -> Recording {
        var random = SplitMix64(seed: 21)
        var sightings: [Sighting] = []
        var truth: [TruthPoint] = []
        var time = 0.0
        for i in 0..<8 {
            for j in 0..<5 {
                let point = Point2D(x: 1.5 + Double(i) * 3, y: 1.5 + Double(j) * 3)
                let device = "survey-\(i)-\(j)"
                truth.append(TruthPoint(time: time, device: device, point: point, z: 1.2))
                for scan in 0..<3 {
                    for node in SeededVenue.nodes {
                        let rssi = WalledVenue.rssi(node: node, at: point) + 2 * random.standardNormal()
                        sightings.append(
                            Sighting(time: time + Double(scan), device: device, node: node.id, rssi: rssi))
                    }
                }
                time += 10
            }
        }
        return Recording(sightings: sightings, truth: truth)
    }

    @Test func withASurveyTheChoiceIsMadeOnItAndRepeatable() {
        let validation = RadioMapCrossValidation(
            candidates: [
                .init(map: RadioMap.SurveyConfiguration(lengthScale: 2), posterior: PosteriorGrid.Configuration()),
                .init(
                    map: RadioMap.SurveyConfiguration(lengthScale: 4),
                    posterior: PosteriorGrid.Configuration(temperature: 1)),
            ], samplesPerFold: 10)
        let survey = Self.survey()
        let calibration = CalibrationFitter().fit(nodes: SeededVenue.nodes, survey: survey)
        let first = AutoMethod(
            nodes: SeededVenue.nodes, survey: survey, calibration: calibration, validation: validation)
        let second = AutoMethod(
            nodes: SeededVenue.nodes, survey: survey, calibration: calibration, validation: validation)
        #expect(first.selection != nil && first.selection == second.selection)
        let auto = WalledVenue.medianError(first)
        let centroid = WalledVenue.medianError(WeightedCentroid())
        #expect(auto < 0.6 * centroid, "auto \(auto) m, weighted centroid \(centroid) m")
    }

    /// `auto`'s filter answers a device's first readings by the posterior alone, with the radius the survey's
    /// held-out fingerprints measured for that posterior, and says so.
    @Test(.releaseBuild) func theFiltersFixesFromReadingsAloneGetTheRadiusTheHeldOutFingerprintsMeasured() throws {
        let factory = EngineFactory(nodes: SeededVenue.nodes, survey: Self.survey())
        let engine = try factory.engine(method: "particle-filter")
        let filter = try #require(engine.method as? ParticleFilter)
        let auto = try #require(factory.learned.autos.values.first)
        let factor = try #require(auto.selection?.radiusFactor(coverage: 0.68))
        #expect(filter.configuration.snapshotRadiusScale == factor)
        // The survey's static points have no walk: the clouds' own radius keeps its default.
        #expect(filter.configuration.radiusScale == 1 && filter.validation == nil)
        var random = SplitMix64(seed: 4)
        let readings = WalledVenue.readings(at: Point2D(x: 9, y: 7), sigma: 2, random: &random)
        let snapshot = try auto.posterior.estimate(from: readings).get()
        let fix = try filter.estimate(from: readings).get()
        #expect(fix.position == snapshot.position)
        let radius = max(auto.posterior.map.spacing / 2, factor * (-log(0.32)).squareRoot() * snapshot.accuracy)
        #expect(abs(fix.accuracy - radius) < 1e-9, "\(fix.accuracy) m against \(radius) m")
        let note = try #require(MethodCatalog.learnedNote(engine))
        #expect(note.hasPrefix(try #require(auto.selection?.summary)))
        #expect(
            note.hasSuffix(
                String(
                    format: "; a first fix's accuracy radius (from readings alone) × %.2f, measured on the survey's "
                        + "held-out fingerprints", factor)))
    }

    /// The particle count and seed are part of the engine's tuning, so every front end (a session, `indoor evaluate
    /// --particles --filter-seed`) sets them for the filter `auto` and `particle-filter` build, and the survey's
    /// replays run with them.
    @Test(.releaseBuild) func theEnginesTuningSetsTheFiltersParticleCountAndSeed() throws {
        var tuning = PositioningEngine.Configuration()
        #expect(tuning.particles == 1000)
        tuning.particles = 300
        tuning.particleSeed = 7
        for survey in [nil, Self.survey()] {
            let factory = EngineFactory(nodes: SeededVenue.nodes, survey: survey, configuration: tuning)
            let filter = try #require(try factory.engine(method: "particle-filter").method as? ParticleFilter)
            #expect(filter.configuration.particles == 300)
            #expect(filter.configuration.seed == 7)
            var random = SplitMix64(seed: 5)
            let readings = WalledVenue.readings(at: Point2D(x: 9, y: 7), sigma: 2, random: &random)
            var belief = try #require(filter.start(device: "phone", readings: readings, at: 0))
            filter.update(&belief, readings: readings, at: 1)
            #expect(belief.count == 300)
        }
        let standard = try EngineFactory(nodes: SeededVenue.nodes, survey: Self.survey()).engine(method: "auto")
        #expect((standard.method as? ParticleFilter)?.configuration.particles == 1000)
        #expect((standard.method as? ParticleFilter)?.configuration.seed == 0)
        #expect(PositioningEngine.Configuration(particles: 3).particles == 10)
        #expect(PositioningEngine.Configuration(particles: 1_000_000).particles == 100_000)
    }

    @Test func withoutASurveyFewerThanFiveNodesHeardAreAnsweredByTheSparseMethod() throws {
        var random = SplitMix64(seed: 3)
        let readings = SeededVenue.readings(at: Point2D(x: 9, y: 7), sigma: 4, random: &random)
        let few = Array(readings.prefix(AutoMethod.denseMinimum - 1))
        let enough = Array(readings.prefix(AutoMethod.denseMinimum))
        // Without a calibration that knows the path loss and with the centroid prior off: four readings whose ranges
        // disagree (4 dB of shadowing) are answered by the weighted centroid, named in the estimate; five by the
        // posterior.
        let plain = AutoMethod(
            nodes: SeededVenue.nodes, survey: nil, calibration: Calibration(deviceHeight: 1.2),
            configuration: try CentroidPriorTests.withoutPrior())
        var centroid = try WeightedCentroid().estimate(from: few).get()
        centroid.method = "weighted-centroid"
        #expect(try plain.estimate(from: few).get() == centroid)
        // The posterior's mean, weighed on its lattice (within centimetres of every grid point's).
        let plainLattice = PosteriorLattice(posterior: plain.posterior)
        #expect(try plain.estimate(from: enough).get() == plainLattice.estimate(from: enough).get())
        #expect(
            try plain.estimate(from: enough).get().position.distance(
                to: plain.posterior.estimate(from: enough).get().position) < 0.05)
        #expect(try plain.estimate(from: few).get() != plainLattice.estimate(from: few).get())
        // With one: nonlinear least squares, and the posterior where two readings are too few to trilaterate.
        let fitted = Calibration(
            pooled: NodeCalibration(rssiAtOneMeter: -61, pathLossExponent: 2.2), deviceHeight: 1.2)
        #expect(fitted.knowsPathLoss && !Calibration.uncalibrated.knowsPathLoss)
        let calibrated = AutoMethod(nodes: SeededVenue.nodes, survey: nil, calibration: fitted)
        // A calibration that knows the path loss narrows the receiver offset prior: 4 dB, not 15.
        #expect(calibrated.posterior.configuration == AutoMethod.calibratedConfiguration)
        #expect(plain.posterior.configuration == AutoMethod.genericConfiguration)
        #expect(
            AutoMethod.calibratedConfiguration.offsetSigma == 4 && AutoMethod.genericConfiguration.offsetSigma == 15)
        var trilaterated = try NonlinearLeastSquares(deviceHeight: 1.2).estimate(from: few).get()
        trilaterated.method = "nonlinear"
        #expect(try calibrated.estimate(from: few).get() == trilaterated)
        let calibratedLattice = PosteriorLattice(posterior: calibrated.posterior)
        #expect(try calibrated.estimate(from: enough).get() == calibratedLattice.estimate(from: enough).get())
        let two = Array(readings.prefix(2))
        #expect(try calibrated.estimate(from: two).get() == calibratedLattice.estimate(from: two).get())
        // A survey's map answers every fix.
        let surveyed = AutoMethod(
            nodes: SeededVenue.nodes, survey: Self.survey(),
            calibration: CalibrationFitter().fit(nodes: SeededVenue.nodes, survey: Self.survey()),
            validation: RadioMapCrossValidation(
                candidates: [
                    .init(map: RadioMap.SurveyConfiguration(), posterior: PosteriorGrid.Configuration())
                ], samplesPerFold: 10))
        #expect(surveyed.sparse == nil)
    }

    @Test func aVenueWithManyNodesAndFloorsGetsACoarserGridNotUnboundedMemory() throws {
        // 100 nodes per floor on three floors, every 5 m over 45 m × 45 m.
        let nodes = (0..<300).map { index in
            Node(
                id: "m\(index)",
                position: Point3D(x: Double(index % 10) * 5, y: Double(index / 10 % 10) * 5, z: 2.5),
                floor: index / 100)
        }
        let budget = 60_000
        let auto = AutoMethod(
            nodes: nodes, survey: nil, calibration: Calibration(deviceHeight: 1.2), maximumMapEntries: budget)
        let map = auto.posterior.map
        #expect(map.cells.count * map.nodeCount <= budget)
        #expect(map.cells.count * map.nodeCount > budget / 2)
        #expect(Set(map.floors) == [0, 1, 2])
        // Still a fix, on the floor whose nodes are heard loudest.
        let device = Point3D(x: 22, y: 17, z: 1.2)
        let readings = nodes.filter { $0.floor == 1 }.map { node in
            let rssi = LogDistance.rssi(meters: node.position.distance(to: device), calibration: .typical)
            return NodeReading(node: node, rssi: rssi, distance: 1, distanceVariance: 1, lastHeard: 0)
        }
        let fix = try auto.estimate(from: readings).get()
        #expect(fix.floor == 1)
        #expect(fix.position.horizontal.distance(to: device.horizontal) < 5)
        // The datasets' venues are far below the default budget: the grid keeps its spacing.
        let small = AutoMethod(nodes: SeededVenue.nodes, survey: nil, calibration: Calibration(deviceHeight: 1.2))
        #expect(small.posterior.map.spacing == AutoMethod.pathLossSpacing)
        #expect(AutoMethod.maximumMapEntries == 4_000_000)
    }

    @Test func withoutASurveyItStillLocatesAndSaysNoChoiceWasMade() throws {
        let method = AutoMethod(nodes: SeededVenue.nodes, survey: nil, calibration: Calibration(deviceHeight: 1.2))
        #expect(method.selection == nil && method.name == "auto")
        let error = SeededVenue.medianError(method)
        let centroid = SeededVenue.medianError(WeightedCentroid())
        #expect(error < 0.9 * centroid, "auto \(error) m, weighted centroid \(centroid) m")
        var engine = try MethodCatalog.engine(method: "auto", nodes: SeededVenue.nodes)
        engine.ingest(Sighting(time: 0, device: "p", node: "n5", rssi: -62))
        let fix = try engine.locate(device: "p", at: 0).get()
        #expect(fix.position.horizontal.distance(to: SeededVenue.nodes[5].position.horizontal) < 6)
    }
}
