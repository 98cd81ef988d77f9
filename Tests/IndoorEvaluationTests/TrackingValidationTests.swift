import Foundation
import IndoorModel
import IndoorTestSupport
import Testing

@testable import IndoorEvaluation
@testable import IndoorPositioning

@Suite("Tracking validation")
struct TrackingValidationTests {
    /// A small simulated office whose survey walker walks the corridor and the rooms.
    ///
    /// The walk keeps 4 m from the beacons on the outer walls (8 of 14 nodes covered, `SurveyCoverage`), so the tests
    /// of what `auto` learns from it ask for learning whatever a survey covers (``learnsAnySurvey``).
    static func office() throws -> SimulatedDataset {
        var options = SimulatorOptions()
        options.roomsPerSide = 3
        options.devices = 1
        options.duration = 30
        options.seed = 3
        return try Simulator(options: options).run()
    }

    /// The engines' configuration that learns from any survey (`survey-coverage` 0).
    static func learnsAnySurvey() throws -> PositioningEngine.Configuration {
        var configuration = PositioningEngine.Configuration()
        try configuration.defaultTuning.set("survey-coverage", to: 0)
        return configuration
    }

    /// The office, its survey and the validation's setup, made once for all tests (learning the map takes a while in
    /// a debug build).
    struct Fixture: Sendable {
        var simulated: SimulatedDataset
        var survey: Recording
        var setup: TrackingValidation.Setup
    }

    struct FixtureError: Error {
        var message: String
    }

    static let fixture: Result<Fixture, any Error> = Result {
        let simulated = try office()
        guard let survey = simulated.dataset.train else { throw FixtureError(message: "the office has no survey") }
        return Fixture(simulated: simulated, survey: survey, setup: try setup(simulated, survey: survey))
    }

    static func setup(_ simulated: SimulatedDataset, survey: Recording) throws -> TrackingValidation.Setup {
        let nodes = simulated.dataset.nodes
        let calibration = CalibrationFitter().fit(nodes: nodes, survey: survey)
        var configuration = PositioningEngine.Configuration()
        configuration.filter = ParticleFilter.readingFilter
        let auto = AutoMethod(nodes: nodes, survey: survey, calibration: calibration, configuration: configuration)
        guard let selection = auto.selection else { throw FixtureError(message: "the survey was not cross-validated") }
        return TrackingValidation.Setup(
            nodes: nodes, calibration: calibration, configuration: configuration, grid: auto.posterior.map.grid,
            candidate: selection.best, filter: ParticleFilter.Configuration(),
            floorPlan: FloorPlan(venue: simulated.venue))
    }

    /// On the survey's own walks: every candidate replayed on the same rows; the best median taken when the bar is
    /// 0 standard errors, the default (0.5, its radius unscaled) when the bar cannot be met; the same on every run.
    @Test(.releaseBuild) func choosesOnTheSurveysWalksAndKeepsTheDefaultUnlessClearlyBeaten() throws {
        let fixture = try Self.fixture.get()
        let (survey, setup) = (fixture.survey, fixture.setup)
        let eager = try #require(TrackingValidation(significance: 0).choose(survey: survey, setup: setup))
        let weights = TrackingValidation().evidenceWeights
        #expect(eager.medians.count == weights.count)
        let medians = eager.medians.compactMap { $0 }
        #expect(medians.count == weights.count)
        let best = try #require(medians.indices.min { medians[$0] < medians[$1] })
        #expect(eager.evidenceWeight == weights[best])
        // The survey walks its whole length; rows standing still in a room for a whole block are not replayed.
        #expect(eager.rows >= 100 && eager.rows <= survey.truth.count)
        #expect(eager.rows == eager.walkingRows)
        #expect(medians.allSatisfy { $0 > 0.3 && $0 < 4 })
        if eager.evidenceWeight != 0.5 { #expect(eager.radiusScale != 1) }

        let strict = try #require(TrackingValidation(significance: 1e9).choose(survey: survey, setup: setup))
        #expect(strict.evidenceWeight == 0.5)
        #expect(strict.radiusScale == 1)
        #expect(strict.medians == eager.medians)
        #expect(TrackingValidation(significance: 0).choose(survey: survey, setup: setup) == eager)
    }

    /// The replays tell how far they have got, part by part (a fold's replay with one weight), from the cores that
    /// ran them; watching changes nothing.
    @Test func replaysReportTheirProgress() throws {
        let fixture = try Self.fixture.get()
        let (survey, setup) = (fixture.survey, fixture.setup)
        let seen = PhaseLog()
        let validation = TrackingValidation(evidenceWeights: [0.35, 0.5])
        let watched = validation.choose(survey: survey, setup: setup, progress: LearningProgress(seen.record))
        #expect(watched == validation.choose(survey: survey, setup: setup))
        let events = seen.events
        // Three folds × two weights: told with none done, then after each of the six.
        #expect(events.map(\.done) == Array(0...6))
        #expect(events.allSatisfy { $0.phase == "replaying the survey's walks" && $0.total == 6 })
    }

    /// `indoor evaluate` says what the filter chose on the survey's walks (`MethodScore.learned`): for `auto`, the
    /// weight, the rows and the medians it was chosen on; nothing for a method that chose nothing.
    @Test(.releaseBuild) func evaluationSaysWhatWasChosen() throws {
        let fixture = try Self.fixture.get()
        let scores = try MethodComparison.run(
            dataset: fixture.simulated.dataset, methods: ["auto", "knn"],
            floorPlan: FloorPlan(venue: fixture.simulated.venue), configuration: try Self.learnsAnySurvey())
        #expect(scores.map(\.method) == ["auto", "knn"])
        let note = try #require(scores.first?.learned)
        // First the map and weighting the cross-validation chose, then the weight the walks' replay chose.
        #expect(note.hasPrefix("radio map kernel "))
        #expect(note.contains(", chosen by cross-validation on the survey (held-out median "))
        #expect(note.contains("; each update of the filter counts "))
        #expect(note.contains(" rows of the survey's walks"))
        #expect(scores.last?.learned == nil)
    }

    /// One `EngineFactory` learns `auto`'s map once for `auto`, `particle-filter` and `auto+track`, and the filter's
    /// weight on the survey's walks once for the two untracked ones (the same filter under two names; `auto+track`
    /// replays with its tracking); the shared filter fixes as one built alone does.
    @Test(.releaseBuild) func engineFactoryLearnsOnceWithTheSameFixes() throws {
        let fixture = try Self.fixture.get()
        let data = fixture.simulated.dataset
        let plan = FloorPlan(venue: fixture.simulated.venue)
        let configuration = try Self.learnsAnySurvey()
        let factory = EngineFactory(
            nodes: data.nodes, survey: fixture.survey, configuration: configuration, floorPlan: plan)
        let names = ["auto", "particle-filter", "auto+track"]
        var shared = try names.map { try factory.engine(method: $0) }
        #expect(shared.map(\.method.name) == ["auto", "particle-filter", "auto"])
        #expect(factory.learned.autos.count == 1)
        #expect(factory.learned.filters.count == 2)
        let validations = shared.map { ($0.method as? ParticleFilter)?.validation }
        #expect(validations[0] != nil)
        #expect(validations[0] == validations[1])
        let knnShare = (shared[0].method as? ParticleFilter)?.estimators?.knnShare ?? 0

        // Built alone, the filter learns what the factory's `particle-filter` took from `auto`.
        var alone = [
            try MethodCatalog.engine(
                method: "particle-filter", nodes: data.nodes, survey: fixture.survey, configuration: configuration,
                floorPlan: plan)
        ]
        #expect((alone[0].method as? ParticleFilter)?.validation == validations[1])
        // The same fixes, row by row, on the first minute of the test split.
        let truth = data.test.truth.filter { $0.time < 60 }
        var sightings = data.test.sightings[...]
        var located = 0
        var moved = 0
        for row in truth {
            while let next = sightings.first, next.time <= row.time {
                for index in shared.indices { shared[index].ingest(next) }
                for index in alone.indices { alone[index].ingest(next) }
                sightings = sightings.dropFirst()
            }
            let fixes = shared.map { try? $0.locate(device: row.device, at: row.time).get() }
            let single = alone.map { try? $0.locate(device: row.device, at: row.time).get() }
            #expect(fixes[1]?.position == single[0]?.position)
            #expect(fixes[1]?.accuracy == single[0]?.accuracy)
            // `auto` answers the filter's fix with the share of k-NN its walks chose mixed in, and the filter's radius.
            #expect(fixes[0]?.accuracy == fixes[1]?.accuracy)
            if fixes[0]?.position != fixes[1]?.position { moved += 1 }
            if fixes[0] != nil { located += 1 }
        }
        // The filter's own fixes where its walks chose no k-NN share; moved towards k-NN's on some rows where they did.
        #expect(knnShare == 0 ? moved == 0 : moved > 0, "k-NN share \(knnShare), \(moved) rows moved")
        #expect(truth.count > 20)
        #expect(located > truth.count / 2)
    }

    /// A long survey is replayed in part: at most `blocksPerFold` blocks per fold, evenly spaced.
    @Test func longSurveysAreReplayedInPart() throws {
        let fixture = try Self.fixture.get()
        let (survey, setup) = (fixture.survey, fixture.setup)
        let whole = try #require(TrackingValidation(evidenceWeights: [0.5]).choose(survey: survey, setup: setup))
        let part = try #require(
            TrackingValidation(evidenceWeights: [0.5], blocksPerFold: 1).choose(survey: survey, setup: setup))
        #expect(part.walkingRows == whole.walkingRows)
        // One block of 30 s per fold, truth once a second: at most 31 rows each.
        #expect(part.rows > 0 && part.rows <= 3 * 31)
        #expect(whole.rows > part.rows)
    }

    /// A survey of static points (one truth row per device, as uji-library's) has no walk to replay: no choice.
    @Test func staticFingerprintsGiveNoChoice() throws {
        let fixture = try Self.fixture.get()
        let (survey, setup) = (fixture.survey, fixture.setup)
        var points: [TruthPoint] = []
        var sightings: [Sighting] = []
        for (i, row) in survey.truth.enumerated() {
            let id = "scan-\(i)"
            points.append(TruthPoint(time: row.time, device: id, point: row.point, floor: row.floor))
            for var sighting in survey.sightings
            where sighting.device == row.device && sighting.time > row.time - 1 && sighting.time <= row.time {
                sighting.device = id
                sightings.append(sighting)
            }
        }
        let scans = Recording(sightings: sightings.sorted { $0.time < $1.time }, truth: points)
        #expect(TrackingValidation().choose(survey: scans, setup: setup) == nil)
        // What `indoor evaluate` says instead (`MethodCatalog.learnedNote`).
        #expect(
            TrackingValidation().unchosenNote(survey: scans, standard: 0.5)
                == "the filter's evidence weight stays 0.5: the survey has 0 rows of walks (truth travelling 1 m or "
                + "more in 30 s), 50 needed to choose another")
        // Too few rows for the bar: no choice either.
        let demanding = TrackingValidation(minimumRows: survey.truth.count + 1)
        #expect(demanding.choose(survey: survey, setup: setup) == nil)
        let walking = try #require(TrackingValidation(evidenceWeights: [0.5]).choose(survey: survey, setup: setup))
        #expect(
            demanding.unchosenNote(survey: survey, standard: 0.5).hasSuffix(
                ": the survey has \(walking.walkingRows) rows of walks (truth travelling 1 m or more in 30 s), "
                    + "\(survey.truth.count + 1) needed to choose another"))
    }

    /// Hostile survey rows (times and positions not finite or absurd, RSSI not finite) neither crash the replay nor
    /// change which rows count: the good walks still give a choice among the candidates.
    @Test func hostileSurveyRowsNeverCrash() throws {
        let fixture = try Self.fixture.get()
        var survey = fixture.survey
        guard let first = survey.truth.first, let heard = survey.sightings.first else { return }
        survey.truth += [
            TruthPoint(time: .nan, device: first.device, point: first.point),
            TruthPoint(time: 1e300, device: first.device, point: first.point),
            TruthPoint(time: first.time + 0.5, device: first.device, point: Point2D(x: .nan, y: 1e308)),
            TruthPoint(time: -.infinity, device: "ghost", point: Point2D(x: 1, y: 1)),
        ]
        survey.sightings += [
            Sighting(time: .nan, device: heard.device, source: heard.source, rssi: -60),
            Sighting(time: heard.time, device: heard.device, source: heard.source, rssi: .nan),
            Sighting(time: 1e300, device: heard.device, source: heard.source, rssi: 1e300),
        ]
        let outcome = try #require(TrackingValidation().choose(survey: survey, setup: fixture.setup))
        #expect(TrackingValidation().evidenceWeights.contains(outcome.evidenceWeight))
        #expect(outcome.radiusScale.isFinite && outcome.radiusScale > 0)
    }

    /// The paired score counts blocks, not rows: a steady gain in every block is sure, gains and losses that cancel
    /// are nothing, and one block alone proves nothing.
    @Test func pairedScoreWeighsBlocks() {
        let baseline: [Double?] = [1, 1, 1, 1, 1, 1]
        let blocks = [0, 0, 1, 1, 2, 2]
        let steady: [Double?] = [0.9, 0.9, 0.9, 0.9, 0.9, 0.9]
        #expect(TrackingValidation.pairedScore(steady, against: baseline, blocks: blocks) == -.infinity)
        #expect(TrackingValidation.pairedScore(baseline, against: steady, blocks: blocks) == .infinity)
        // Block means −0.1, −0.2, −0.3: mean −0.2, standard error 0.1/√3.
        let better: [Double?] = [0.9, 0.9, 0.8, 0.8, 0.7, 0.7]
        let score = TrackingValidation.pairedScore(better, against: baseline, blocks: blocks)
        #expect(abs(score - -0.2 / (0.1 / 3.0.squareRoot())) < 1e-9)
        let mixed: [Double?] = [0.8, 0.8, 1.2, 1.2, 1, 1]
        #expect(TrackingValidation.pairedScore(mixed, against: baseline, blocks: blocks) == 0)
        #expect(TrackingValidation.pairedScore(better, against: baseline, blocks: [0, 0, 0, 0, 0, 0]) == 0)
        // Rows one side did not locate are left out of both.
        let missing: [Double?] = [nil, 0.9, 0.8, nil, 0.7, 0.7]
        #expect(abs(TrackingValidation.pairedScore(missing, against: baseline, blocks: blocks) - score) < 1e-9)
    }

    /// The radius quantile is the share's quantile of error / radius over located rows with a radius.
    @Test func radiusQuantileOfErrorToRadius() {
        let fixes: [(error: Double, radius: Double)?] = [(1, 2), (1, 1), (3, 1), nil, (2, 0), (2, 1)]
        // Ratios 0.5, 1, 2, 3.
        #expect(TrackingValidation.radiusQuantile(fixes, share: 0.68) == 2)
        #expect(TrackingValidation.radiusQuantile(fixes, share: 0) == 0.5)
        #expect(TrackingValidation.radiusQuantile(fixes, share: 1) == 3)
        #expect(TrackingValidation.radiusQuantile([nil, (1, 0)], share: 0.68) == nil)
    }
}

/// What a ``LearningProgress`` told, in order (its calls come one at a time, from any core).
final class PhaseLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(phase: String, done: Int, total: Int)] = []

    var events: [(phase: String, done: Int, total: Int)] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    @Sendable func record(_ phase: String, _ done: Int, _ total: Int) {
        lock.lock()
        defer { lock.unlock() }
        recorded.append((phase, done, total))
    }
}
