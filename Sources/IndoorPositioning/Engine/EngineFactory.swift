import IndoorModel

/// Builds the engines of several ``MethodCatalog/Selection``s over the same nodes, survey and calibration, learning
/// what they share once: what `indoor evaluate` and `indoor demo` do when they compare methods.
///
/// The calibration is fitted on the survey once (unless given). `auto`'s radio map and cross-validation
/// (``AutoMethod``) are learned once for every selection whose engine reads the same filtered readings, and its
/// particle filter's evidence weight is chosen on the survey's walks (``TrackingValidation``) once for every
/// selection whose engine is configured alike: `auto` and `particle-filter` (the same filter under two names) share
/// both, `auto+track` shares the map and replays the walks with its own tracking. Each engine is the one
/// ``MethodCatalog/engine(_:nodes:survey:calibration:configuration:floorPlan:)`` builds alone, with the same fixes.
///
/// A reference type inside holds what was learned, so copies of a factory share it; one factory belongs to one task.
public struct EngineFactory {
    /// The fixed radios.
    public let nodes: [Node]
    /// Sightings with truth (a dataset's `train/`), for methods that calibrate or learn from it.
    public let survey: Recording?
    /// The calibration every engine uses: the one given, else fitted on ``survey``, else uncalibrated.
    public let calibration: Calibration
    /// How much of the venue ``survey`` was taken in; `nil` without a survey. `auto` (and `particle-filter`) learn
    /// from the survey only when it covers the configuration's ``DefaultTuning/surveyCoverage`` share of the nodes
    /// (``SurveyCoverage/standardMinimumShare`` unless set; 0 learns from any survey), and locate as without a survey
    /// (with the calibration given, if any, not one fitted on the survey) otherwise; the methods that need a survey use
    /// it whatever it covers.
    public let surveyCoverage: SurveyCoverage?
    /// The calibration given at `init`, if any.
    let givenCalibration: Calibration?
    /// Engine tuning before a selection's own settings (tracking, the particle filter's reading filter).
    public let configuration: PositioningEngine.Configuration
    /// The venue's walls and floor connections, for the particle filter's motion model.
    public let floorPlan: FloorPlan?
    /// Told how far the long phases of learning have got (`auto`'s cross-validation and replays of the survey's
    /// walks), while an engine is built.
    public let progress: LearningProgress?
    let learned = Learned()

    /// A factory over `nodes`; see ``MethodCatalog/engine(_:nodes:survey:calibration:configuration:floorPlan:)`` for
    /// the parameters, and ``progress``.
    public init(
        nodes: [Node], survey: Recording? = nil, calibration: Calibration? = nil,
        configuration: PositioningEngine.Configuration = PositioningEngine.Configuration(), floorPlan: FloorPlan? = nil,
        progress: LearningProgress? = nil
    ) {
        self.progress = progress
        self.nodes = nodes
        self.survey = survey
        givenCalibration = calibration
        if let survey {
            let share = configuration.defaultTuning.surveyCoverage ?? SurveyCoverage.standardMinimumShare
            surveyCoverage = SurveyCoverage(nodes: nodes, survey: survey, minimumShare: share)
        } else {
            surveyCoverage = nil
        }
        self.calibration =
            calibration ?? survey.map { CalibrationFitter().fit(nodes: nodes, survey: $0) } ?? .uncalibrated
        self.configuration = configuration
        self.floorPlan = floorPlan
    }

    /// The coverage of ``survey`` when `selection` sets it aside: `auto` and `particle-filter` learn from a survey
    /// only where it covers enough of the venue (``surveyCoverage``); `nil` when the selection learns from it, uses
    /// it whatever it covers, or there is none.
    public func surveySetAside(by selection: MethodCatalog.Selection) -> SurveyCoverage? {
        guard selection.method == .auto || selection.method == .particleFilter, surveyCoverage?.isEnough == false
        else { return nil }
        return surveyCoverage
    }

    /// An engine running `selection`.
    ///
    /// The selection decides whether the engine tracks: ``PositioningEngine/Configuration/tracking`` is set (to the
    /// factory configuration's tuning, else the default) when it is tracked and cleared when not. It also decides the
    /// per-node RSSI filter: `particle-filter`, and `auto` with a survey, read the particle filter's 1 s mean
    /// (`ParticleFilter.readingFilter`); `auto` without one reads ``AutoMethod/readingFilterWithoutSurvey`` (or the
    /// tuning's ``DefaultTuning/readingNoise``); every other method ``PositioningEngine/Configuration/filter``.
    /// - Throws: ``MissingSurveyError`` when the method needs a survey and the factory has none.
    public func engine(_ selection: MethodCatalog.Selection) throws -> PositioningEngine {
        if selection.needsSurvey, self.survey == nil { throw MissingSurveyError(method: selection.name) }
        let setAside = surveySetAside(by: selection)
        let survey = setAside == nil ? self.survey : nil
        let calibration = setAside == nil ? self.calibration : givenCalibration ?? .uncalibrated
        var tuned = configuration
        tuned.tracking = selection.tracking ? configuration.tracking ?? PositionTrack.Configuration() : nil
        // The particle filter does its own smoothing over time: it reads a short mean, not a slow filter's lagging value.
        if selection.method == .particleFilter || (selection.method == .auto && survey != nil) {
            tuned.filter = ParticleFilter.readingFilter
            // The survey's replays try the share of k-NN in `auto`'s answer also through the filter the k-NN baseline
            // reads (`particle-filter`, the same filter, learns alike and shares what was learned).
            if survey != nil { tuned.answerFilter = configuration.filter }
        } else if selection.method == .auto, configuration.defaultTuning.filterWithoutSurvey != true {
            // Fix by fix, `auto` reads a filter that trails a walker less than the engine's default.
            tuned.filter = configuration.defaultTuning.readingFilterWithoutSurvey
        }
        let context = MethodCatalog.Context(
            nodes: nodes, survey: survey, configuration: tuned, calibration: calibration, floorPlan: floorPlan,
            learned: learned, progress: progress, setAside: setAside)
        var engine = PositioningEngine(
            nodes: nodes, method: selection.method.make(context), configuration: tuned, calibration: calibration)
        if selection.method == .auto, survey != nil, let filter = engine.method as? ParticleFilter {
            engine.answer = context.surveyedAnswer(of: filter)
        } else if selection.method == .auto {
            // Without a survey too, a device heard within the window is never left without a fix: where the method
            // gives nothing plausible, the weighted centroid of what was heard answers.
            engine.answer = .withoutSurvey
        }
        // Without a survey or a fitted calibration, the nodes' path loss is fitted from their links to each other.
        if survey == nil, !calibration.knowsPathLoss, tuned.selfCalibration != nil {
            let method = selection.method
            let nodes = nodes
            let floorPlan = floorPlan
            let tuned = tuned
            engine.calibrateFromLinks { calibration in
                method.make(
                    MethodCatalog.Context(
                        nodes: nodes, survey: nil, configuration: tuned, calibration: calibration, floorPlan: floorPlan,
                        learned: Learned(), fromLinks: true, setAside: setAside))
            }
        }
        return engine
    }

    /// An engine running the method called `name` (see ``engine(_:)``).
    /// - Throws: ``UnknownMethodError`` when no method has that name; ``MissingSurveyError`` when it needs a survey.
    public func engine(method name: String) throws -> PositioningEngine {
        guard let selection = MethodCatalog.Selection(name) else {
            throw UnknownMethodError(name: name, known: MethodCatalog.names)
        }
        return try engine(selection)
    }

    /// What the factory's engines learned, by the engine configuration it was learned for.
    final class Learned {
        /// `auto`, by the configuration without tracking (tracking smooths fixes; the survey's readings are the same).
        var autos: [PositioningEngine.Configuration: AutoMethod] = [:]
        /// `auto`'s particle filter after ``TrackingValidation``, by the whole configuration (the replay runs it).
        var filters: [PositioningEngine.Configuration: ParticleFilter] = [:]
    }
}
