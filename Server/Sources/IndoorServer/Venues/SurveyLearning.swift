import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import IndoorSession
import Logging
import Synchronization

/// Learning each venue's site survey in the background (``LearningQueue``: one venue at a time, on a thread of its
/// own), and handing what is learned to the venue's session and its scans.
///
/// A venue is served from the moment it is put, without its survey; its session takes over the learned positioning
/// when it is ready (`LocationSession.adoptPositioning(of:replaying:)`: zone visits and rooms carry on), its scans too
/// (``ScanSessions``). How far each venue is, is in its runtime's state (``SurveyState``).
final class SurveyLearning: Sendable {
    /// Site surveys by venue id: those given at the server's start, then each venue's as its stored survey changes
    /// (``update(venue:survey:)``).
    var surveys: [String: Recording] { current.withLock { $0 } }
    /// The surveys given at the server's start (`indoor serve --survey`), which a venue put must hear.
    private let given: [String: Recording]
    private let current: Mutex<[String: Recording]>
    private let queue = LearningQueue()
    private let registry: VenueRegistry
    private let scans: ScanSessions
    private let metrics: ServerMetrics
    private let logger: Logger

    /// Learning of `surveys` for the venues of `registry`, handing learned scan sessions to `scans`; the end of each
    /// venue's learning is told to `logger`, the venues learning counted in `metrics`. `given` are the surveys given at
    /// the server's start (``problem(with:)``), `surveys` by default.
    init(
        surveys: [String: Recording], given: [String: Recording]? = nil, registry: VenueRegistry, scans: ScanSessions,
        metrics: ServerMetrics,
        logger: Logger = Logger(label: "indoor.hub", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.given = given ?? surveys
        current = Mutex(surveys)
        self.registry = registry
        self.scans = scans
        self.metrics = metrics
        self.logger = logger
    }

    /// Whether venue `id` has a survey to learn: its runtime keeps the recent sightings until it is learned.
    func hasSurvey(venue id: String) -> Bool { surveys[id] != nil }

    /// Makes `survey` venue `id`'s (none when `nil`); ``relearn(_:)`` then learns it.
    func update(venue id: String, survey: Recording?) {
        current.withLock { $0[id] = survey }
    }

    /// Learns `runtime`'s venue's survey again after it changed (``update(venue:survey:)``), in the background: the
    /// venue is served meanwhile as it was; a venue left without a survey goes back to positioning without one.
    func relearn(_ runtime: VenueRuntime) {
        runtime.locked { state in
            state.survey = .learning
            if state.recent == nil {
                state.recent = RecentSightings(window: 2 * state.session.configuration.positioning.window)
            }
        }
        record()
        learn(runtime, unlearning: true)
    }

    /// Whether venue `id`'s survey is learned: ``SurveyState/none`` as well for a venue that does not run here.
    func state(venue id: String) -> SurveyState {
        guard let runtime = registry.runtime(id) else { return .none }
        return runtime.locked { $0.survey }
    }

    /// Returns once `venue`'s survey is learned (or its learning failed), and at once for a venue without one.
    func finished(venue id: String) async {
        await queue.finished(id)
    }

    /// For a venue with a survey, learns it in the background (after any other venue's learning): the venue's
    /// session takes over the learned positioning, then its scans' session is made with the survey. Skipped when
    /// the runtime has been replaced or deleted by then.
    ///
    /// With `unlearning`, a venue whose survey is gone by then takes the positioning of a session without one.
    func learn(_ runtime: VenueRuntime, unlearning: Bool = false) {
        let venue = runtime.venue
        guard unlearning || surveys[venue.id] != nil else { return }
        queue.schedule(key: venue.id) { [self] in
            guard registry.isCurrent(runtime) else { return }
            guard let survey = surveys[venue.id] else {
                unlearn(runtime)
                return
            }
            let start = ContinuousClock.now
            var adopted = false
            do {
                let learned = try LocationSession(SessionConfiguration(venue: venue, survey: survey))
                let without = SurveyValidation.medianWithoutSurvey(venue: venue, survey: survey)
                let setAside = learned.surveySetAside
                let coverage = SurveyValidation.Coverage(
                    setAside ?? SurveyCoverage(nodes: venue.nodes, survey: survey), learned: setAside == nil)
                var validation = learned.surveyValidation.map {
                    SurveyValidation(
                        estimator: $0.estimator, validatedMedianMeters: $0.validatedMedianMeters,
                        withoutSurveyMedianMeters: without, coverage: coverage)
                }
                if setAside != nil {
                    validation = SurveyValidation(
                        estimator: SurveyValidation.setAside, withoutSurveyMedianMeters: without, coverage: coverage)
                }
                try runtime.locked { state in
                    try state.session.adoptPositioning(of: learned, replaying: state.recent?.sightings ?? [])
                    state.recent = nil
                    state.validation = validation
                }
                adopted = true
                guard registry.isCurrent(runtime) else { return }
                let options = IndoorScan.Options(surveys: [venue.id: survey])
                let session = try IndoorScan.session(venue: venue, options: options)
                if registry.isCurrent(runtime) { scans.adopt(learned: session, venue: venue) }
                runtime.locked { $0.survey = .learned }
                record()
                let seconds = (ContinuousClock.now - start) / .milliseconds(1) / 1000
                let what = "\(survey.truth.count) truth rows, \(survey.sightings.count) sightings"
                let took = String(format: "%.1f", seconds)
                let message =
                    setAside.map { "venue '\(venue.id)' set its survey (\(what)) aside in \(took) s: \($0.summary)" }
                    ?? "venue '\(venue.id)' learned its survey (\(what)) in \(took) s: its fixes and scans now come from "
                    + "the radio map"
                logger.info(Logger.Message(stringLiteral: message))
            } catch {
                runtime.locked { state in
                    state.recent = nil
                    state.survey = .failed
                }
                record()
                let what = adopted ? "its fixes come from its survey, its scans run without it" : "it runs without it"
                logger.error(
                    "venue '\(venue.id)' could not learn its survey; \(what)", metadata: ["error": "\(error)"])
            }
        }
    }

    /// As a learning piece: `runtime`'s session takes the positioning of a session without a survey (its survey was
    /// deleted), its scans too.
    private func unlearn(_ runtime: VenueRuntime) {
        do {
            let plain = try LocationSession(SessionConfiguration(venue: runtime.venue))
            try runtime.locked { state in
                try state.session.adoptPositioning(of: plain, replaying: state.recent?.sightings ?? [])
                state.recent = nil
                state.validation = nil
                state.survey = .none
            }
            scans.forget(venue: runtime.venue.id)
            logger.info("venue '\(runtime.venue.id)' has no survey left: it positions without one")
        } catch {
            runtime.locked { state in
                state.recent = nil
                state.survey = .failed
            }
            logger.error(
                "venue '\(runtime.venue.id)' could not go back to positioning without a survey",
                metadata: ["error": "\(error)"])
        }
        record()
    }

    /// Sets `indoor_venues_learning`: the venues served whose survey is being learned.
    func record() {
        let count = registry.all.reduce(0) { $0 + ($1.locked { $0.survey == .learning } ? 1 : 0) }
        metrics.venuesLearning.record(count)
    }

    /// Why venue `venue`'s survey cannot serve it (it hears none of its nodes), or `nil` (also for no survey).
    func problem(with venue: Venue) -> String? {
        Self.problem(venue, given[venue.id])
    }

    /// Why `survey` cannot serve `venue` (it hears none of its nodes), or `nil`.
    static func problem(_ venue: Venue, _ survey: Recording?) -> String? {
        guard let survey, !survey.hearsAny(of: venue.nodes) else { return nil }
        return "the survey given for venue '\(venue.id)' at the server's start hears none of its \(venue.nodes.count) "
            + "nodes; give the venue the nodes the survey heard, or start the server with its own survey"
    }
}

/// What a venue's survey bought, as its learning validated it: the estimator its answers come from and its median
/// error on the survey's own walks, cross-validated (`GET /v1/venues`, `GET /v1/venues/{id}/survey`).
public struct SurveyValidation: Hashable, Sendable, Encodable {
    /// `particle-filter`, `knn`, or a blend such as `particle-filter 0.75 + knn 0.25`; ``setAside`` when the survey
    /// covers too little of the venue to learn from (``coverage``).
    public var estimator: String
    /// The median error on the survey's walks held out in turn, metres; `nil` when the survey has too few walks to
    /// validate on (a survey of fixed spots).
    public var validatedMedianMeters: Double?
    /// The median error, metres, of the venue's positioning without a survey on the same walks (the survey's sightings
    /// replayed, each truth row answered online, nothing learned from them): what the survey is compared with. `nil`
    /// when no row was located.
    public var withoutSurveyMedianMeters: Double?
    /// How much of the venue the survey covers, and whether that was enough to learn from it.
    public var coverage: Coverage?

    /// The ``estimator`` of a survey set aside: the venue locates as without one.
    public static let setAside = "without-survey"

    /// How much of the venue a survey covers (``IndoorPositioning/SurveyCoverage``).
    public struct Coverage: Hashable, Sendable, Encodable {
        /// The nodes a truth row of the survey passes within ``radiusMeters`` of.
        public var coveredNodes: Int
        /// The venue's nodes.
        public var nodes: Int
        /// The nodes' typical spacing, metres: how near a surveyed position must be for a node to count.
        public var radiusMeters: Double
        /// The share of the nodes the survey must cover to be learned from, 0…1.
        public var minimumShare: Double
        /// Whether the survey was learned from (`false`: set aside, the venue locates as without it).
        public var learned: Bool

        init(_ coverage: SurveyCoverage, learned: Bool) {
            coveredNodes = coverage.coveredNodes
            nodes = coverage.nodeCount
            radiusMeters = coverage.radiusMeters
            minimumShare = coverage.minimumShare
            self.learned = learned
        }
    }

    /// The median error, metres, of `venue`'s default positioning without a survey on `survey`'s truth rows, scored
    /// as `indoor evaluate` scores (``IndoorEvaluation/Evaluator``); `nil` when nothing was located.
    static func medianWithoutSurvey(venue: Venue, survey: Recording) -> Double? {
        let plain = SessionConfiguration(venue: venue)
        let factory = EngineFactory(
            nodes: venue.nodes, calibration: plain.calibration, configuration: plain.positioning,
            floorPlan: FloorPlan(venue: venue))
        guard let engine = try? factory.engine(plain.method) else { return nil }
        return Evaluator.score(engine, on: survey).summary.medianMeters
    }
}
