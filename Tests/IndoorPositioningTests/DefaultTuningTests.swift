import Foundation
import IndoorModel
import IndoorRanging
import Testing

@testable import IndoorPositioning

/// ``DefaultTuning``: unset, or set to the default's own values, it leaves every choice as the default makes it; set
/// otherwise, each value reaches its constant; names and values outside a parameter's range are refused by name.
@Suite struct DefaultTuningTests {
    /// The lengths of the radio map's cross-validation candidates, in order of first appearance.
    func lengths(_ validation: RadioMapCrossValidation) -> [Double] {
        validation.candidates.map(\.map.lengthScale).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    @Test func unsetOrSetToTheDefaultsValuesItChangesNothing() throws {
        var same = DefaultTuning()
        for (name, value) in [
            ("lead-time", 0.25), ("turn-time", 6), ("offset-drift", 0.05), ("speed", 1), ("evidence-weight", 0.7),
            ("evidence-bar", 2), ("estimator-bar", 2), ("map-knn-share", 1.0 / 3), ("map-kernel-scale", 1),
            ("map-variance-weight", 2), ("map-prior-weight", 0.25), ("degrees-of-freedom", 8),
            ("generic-degrees-of-freedom", 4), ("generic-temperature", 1), ("generic-offset-prior", 15),
            ("dense-minimum", 4),
            ("ranges-bar", 0.1),
            ("no-survey-filter", 0),
            ("centroid-prior", 0.75), ("centroid-temperature", 10), ("centroid-layout", 1), ("walk-rows", 50),
            ("reading-noise", 12), ("lost-chance", 0.01),
        ] {
            try same.set(name, to: value)
        }
        // centroid-gate has no default value: unset, the posterior is never gated.
        #expect(Set(DefaultTuning.names).count == 26)
        #expect(same.centroidGate == nil)
        let standard = RadioMapCrossValidation()
        // The filter's parameters are the default's over a survey, where they are compared.
        let filter = ParticleFilter.Configuration.overSurvey()
        #expect(filter.evidenceWeight == 0.7 && filter.offsetDrift == 0.05)
        // The motion is the plain filter's, chosen for walkers.
        #expect(filter.speed == 1 && filter.turnTime == 6)
        let sized = ParticleFilter.Configuration.overSurvey(particles: 500, seed: 3)
        #expect(sized.particles == 500 && sized.seed == 3 && sized.offsetDrift == 0.05)
        for tuning in [DefaultTuning(), same] {
            #expect(tuning.applied(to: filter) == filter)
            #expect(tuning.trackingValidation() == TrackingValidation())
            #expect(tuning.estimatorValidation(tracking: TrackingValidation()) == EstimatorValidation())
            let map = tuning.radioMapValidation()
            #expect(map.knnShares == standard.knnShares && map.knnShares == [0, 0.25, 1.0 / 3])
            #expect(map.candidates == RadioMapCrossValidation.standardCandidates)
            #expect(tuning.genericConfiguration == AutoMethod.genericConfiguration)
            #expect(tuning.centroidPrior == CentroidPrior.standard)
            #expect(tuning.surveyCoverage == nil)
            #expect(tuning.readingFilterWithoutSurvey == AutoMethod.readingFilterWithoutSurvey)
        }
    }

    @Test func eachValueReachesItsConstant() throws {
        var tuning = DefaultTuning()
        try tuning.set("centroid-temperature", to: 6)
        #expect(tuning.centroidPrior == CentroidPrior(temperature: 6, width: CentroidPrior.standard.width))
        try tuning.set("centroid-prior", to: 0.5)
        #expect(tuning.centroidPrior == CentroidPrior(temperature: 6, width: 0.5))
        #expect(CentroidPrior.standard.followsLayout)
        try tuning.set("centroid-layout", to: 0)
        #expect(tuning.centroidPrior == CentroidPrior(temperature: 6, width: 0.5, followsLayout: false))
        try tuning.set("centroid-prior", to: 0)
        #expect(tuning.centroidPrior == nil)
        try tuning.set("reading-noise", to: 4)
        #expect(tuning.readingFilterWithoutSurvey == .kalman(processNoise: 4, measurementNoise: 16))
        try tuning.set("evidence-weight", to: 0.6)
        try tuning.set("evidence-bar", to: 0)
        try tuning.set("walk-rows", to: 30)
        #expect(tuning.trackingValidation().minimumRows == 30)
        try tuning.set("speed", to: 1.4)
        try tuning.set("lost-chance", to: 0)
        try tuning.set("map-kernel-scale", to: 2)
        try tuning.set("map-knn-share", to: 0.5)
        try tuning.set("generic-temperature", to: 2)
        try tuning.set("generic-offset-prior", to: 10)
        let filter = tuning.applied(to: ParticleFilter.Configuration())
        #expect(filter.evidenceWeight == 0.6 && filter.speed == 1.4 && filter.lostChance == 0)
        // A standard weight outside the grid is compared beside it.
        #expect(tuning.trackingValidation().evidenceWeights == [0.18, 0.25, 0.35, 0.5, 0.6, 0.7, 1])
        #expect(tuning.trackingValidation().significance == 0)
        let map = tuning.radioMapValidation()
        #expect(map.knnShares == [0, 0.375, 0.5])
        #expect(lengths(map) == [1, 2, 4])
        #expect(map.candidates.count == RadioMapCrossValidation.standardCandidates.count)
        #expect(tuning.genericConfiguration.temperature == 2 && tuning.genericConfiguration.offsetSigma == 10)
        #expect(map.candidates.allSatisfy { $0.map.logVarianceWeight == 2 })
        try tuning.set("map-knn-share", to: 0)
        #expect(tuning.radioMapValidation().knnShares == [0])
        try tuning.set("map-variance-weight", to: 1)
        let weighted = tuning.radioMapValidation()
        #expect(weighted.candidates.allSatisfy { $0.map.logVarianceWeight == 1 })
        #expect(lengths(weighted) == [1, 2, 4])
        try tuning.set("map-prior-weight", to: 0.5)
        try tuning.set("degrees-of-freedom", to: 16)
        try tuning.set("generic-degrees-of-freedom", to: 2)
        let tails = tuning.radioMapValidation()
        #expect(tails.candidates.allSatisfy { $0.map.priorWeight == 0.5 && $0.posterior.degreesOfFreedom == 16 })
        #expect(tails.candidates.count == RadioMapCrossValidation.standardCandidates.count)
        #expect(tuning.genericConfiguration.degreesOfFreedom == 2)
    }

    @Test func withoutASurveyTheDenseMinimumAndTheRangesBarReachAuto() throws {
        var random = SplitMix64(seed: 3)
        let readings = SeededVenue.readings(at: Point2D(x: 9, y: 7), sigma: 4, random: &random)
        let few = Array(readings.prefix(AutoMethod.denseMinimum - 1))
        let calibration = Calibration(deviceHeight: 1.2)
        // These paths answer without the centroid prior (with it, the posterior answers however many are heard).
        func auto(_ settings: [(String, Double)]) throws -> AutoMethod {
            var configuration = try CentroidPriorTests.withoutPrior()
            for (name, value) in settings { try configuration.defaultTuning.set(name, to: value) }
            return AutoMethod(
                nodes: SeededVenue.nodes, survey: nil, calibration: calibration, configuration: configuration)
        }
        let prior = AutoMethod(nodes: SeededVenue.nodes, survey: nil, calibration: calibration)
        #expect(try prior.estimate(from: few).get().method == nil)
        // Three readings: the weighted centroid by default, the posterior with a dense minimum of 3; three ranges are
        // too few to judge, so a bar no residual exceeds changes nothing. Four whose ranges disagree: the posterior
        // by default, trilateration with that bar.
        #expect(few.count == 3)
        #expect(try auto([]).estimate(from: few).get().method == "weighted-centroid")
        let dense = try auto([("dense-minimum", 3)])
        #expect(
            try dense.estimate(from: few).get()
                == PosteriorLattice(posterior: dense.posterior).estimate(from: few).get())
        #expect(try auto([("ranges-bar", 1000)]).estimate(from: few).get().method == "weighted-centroid")
        let four = Array(readings.prefix(AgreeingRanges.minimumNodes))
        let standard = try auto([])
        #expect(
            try standard.estimate(from: four).get()
                == PosteriorLattice(posterior: standard.posterior).estimate(from: four).get())
        #expect(try auto([("ranges-bar", 1000)]).estimate(from: four).get().method == "nonlinear")
        #expect(try auto([("generic-temperature", 2)]).posterior.configuration.temperature == 2)
    }

    /// Four nodes in a row along the L-shaped corridor heard alike: the posterior's mean lies beyond the weighted
    /// centroid's radius, so with a gate of 1 the centroid answers (named so), with a gate no distance exceeds the
    /// posterior; readings all round a device in the seeded venue leave the posterior within the radius, ungated.
    @Test func withoutASurveyTheCentroidGateReachesAuto() throws {
        func auto(_ settings: [(String, Double)], nodes: [Node]) throws -> AutoMethod {
            var configuration = try CentroidPriorTests.withoutPrior()
            for (name, value) in settings { try configuration.defaultTuning.set(name, to: value) }
            return AutoMethod(nodes: nodes, survey: nil, calibration: .uncalibrated, configuration: configuration)
        }
        let corridor = AutoAnswersWhereHeardTests.corridor
        var engine = PositioningEngine(nodes: corridor, method: WeightedCentroid())
        for node in ["n0", "n1", "n2", "n3"] { engine.ingest(Sighting(time: 1, device: "p", node: node, rssi: -80)) }
        let row = engine.readings(device: "p", at: 1)
        let centroid = try WeightedCentroid().estimate(from: row).get()
        let posterior = try auto([], nodes: corridor).estimate(from: row).get()
        #expect(posterior.position.horizontal.distance(to: centroid.position.horizontal) > centroid.accuracy)
        let gated = try auto([("centroid-gate", 1)], nodes: corridor).estimate(from: row).get()
        #expect(gated.method == "weighted-centroid" && gated.position == centroid.position)
        #expect(try auto([("centroid-gate", 1e9)], nodes: corridor).estimate(from: row).get() == posterior)

        var random = SplitMix64(seed: 3)
        let around = SeededVenue.readings(at: Point2D(x: 9, y: 7), sigma: 4, random: &random)
        let standard = try auto([], nodes: SeededVenue.nodes).estimate(from: around).get()
        #expect(try auto([("centroid-gate", 1)], nodes: SeededVenue.nodes).estimate(from: around).get() == standard)
    }

    @Test func withoutASurveyTheFilterSettingMakesAutoTrack() throws {
        func method(_ settings: [(String, Double)]) throws -> any PositioningMethod {
            var configuration = PositioningEngine.Configuration()
            for (name, value) in settings { try configuration.defaultTuning.set(name, to: value) }
            return try MethodCatalog.engine(
                method: MethodCatalog.defaultName, nodes: SeededVenue.nodes, configuration: configuration
            ).method
        }
        #expect(try method([]) is AutoMethod)
        #expect(try method([("no-survey-filter", 0)]) is AutoMethod)
        let filter = try #require(try method([("no-survey-filter", 1)]) as? ParticleFilter)
        #expect(filter.name == MethodCatalog.defaultName)
    }

    @Test(arguments: [
        ("magic", 1.0, "unknown parameter 'magic'; known: " + DefaultTuning.names.joined(separator: ", ")),
        ("lead-time", -1, "lead-time must be 0 or more (got -1.0)"),
        ("lead-time", .nan, "lead-time must be 0 or more (got nan)"),
        ("turn-time", 0, "turn-time must be more than 0 (got 0.0)"),
        ("speed", .infinity, "speed must be more than 0 (got inf)"),
        ("map-knn-share", 1.5, "map-knn-share must be 0 to 1 (got 1.5)"),
        ("dense-minimum", 4.5, "dense-minimum must be a whole number 1 to 1000 (got 4.5)"),
        ("dense-minimum", 0, "dense-minimum must be a whole number 1 to 1000 (got 0.0)"),
        ("no-survey-filter", 0.5, "no-survey-filter must be 0 or 1 (got 0.5)"),
        ("centroid-gate", 0, "centroid-gate must be more than 0 (got 0.0)"),
        ("map-variance-weight", -0.5, "map-variance-weight must be 0 or more (got -0.5)"),
        ("survey-coverage", 1.5, "survey-coverage must be 0 to 1 (got 1.5)"),
        ("lost-chance", -0.01, "lost-chance must be 0 to 1 (got -0.01)"),
    ])
    func refusesUnknownNamesAndValuesOutsideTheirRange(name: String, value: Double, message: String) {
        var tuning = DefaultTuning()
        #expect(throws: DefaultTuningError(message: message)) { try tuning.set(name, to: value) }
        #expect(tuning == DefaultTuning())
    }
}
