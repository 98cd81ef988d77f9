import Foundation
import IndoorModel

/// The positioning methods selectable by name (`indoor evaluate --method NAME`).
///
/// One table, ``Method``'s `entry`: each method's name (its raw value), whether it needs a survey, whether its
/// tracked variant is listed, and how to make it. A ``Selection`` is a method with tracking on or off, named
/// `<method>` or `<method>+track`.
public enum MethodCatalog {
    /// A catalogued method; its raw value is its name on the command line and in reports.
    public enum Method: String, CaseIterable, Sendable, Codable {
        /// ``WeightedCentroid``.
        case weightedCentroid = "weighted-centroid"
        /// ``NadarayaWatson``: ESPresense-companion's default locator, a comparator.
        case nadarayaWatson = "nadaraya-watson"
        /// ``NearestArea``: Bermuda's default locator (the nearest node, with its hysteresis), a comparator.
        case nearestArea = "nearest-area"
        /// ``PowerCenter``.
        case powerCenter = "power-center"
        /// ``EPTA``.
        case epta
        /// ``SphereIntersection``.
        case sphereIntersection = "sphere-intersection"
        /// ``LinearLeastSquares``.
        case linearLeastSquares = "linear-least-squares"
        /// ``NonlinearLeastSquares`` (the default).
        case nonlinear
        /// ``FingerprintKNN`` over survey fingerprints (needs a survey).
        case knn
        /// ``Blend`` of nonlinear, weighted-centroid and, with a survey, knn.
        case blend
        /// ``PosteriorGrid`` over the path-loss model of the calibration (fitted on the survey when there is one).
        case posterior
        /// ``PosteriorGrid`` over a ``RadioMap`` learned from the survey (needs a survey).
        case radioMap = "radio-map"
        /// ``AutoMethod``'s posterior: with a survey, the radio map tuned on it by cross-validation, tracked per device
        /// by a ``ParticleFilter``; without one, the path-loss posterior with generic weighting, fix by fix.
        case auto
        /// ``ParticleFilter`` weighed by ``AutoMethod``'s posterior (its radio map and weighting).
        case particleFilter = "particle-filter"

        /// Whether the method learns from a survey (`train/`) and cannot work without one.
        public var needsSurvey: Bool { entry.needsSurvey }

        /// Whether ``MethodCatalog/names`` lists the method's `+track` variant too (it was measured to help).
        public var listsTracking: Bool { entry.listsTracking }

        /// The catalogue's row of the method.
        private var entry: Entry {
            switch self {
            case .weightedCentroid: Entry(needsSurvey: false, listsTracking: false) { _ in WeightedCentroid() }
            case .nadarayaWatson: Entry(needsSurvey: false, listsTracking: false) { _ in NadarayaWatson() }
            case .nearestArea: Entry(needsSurvey: false, listsTracking: false) { _ in NearestArea() }
            case .powerCenter: Entry(needsSurvey: false, listsTracking: false) { PowerCenter(deviceHeight: $0.height) }
            case .epta: Entry(needsSurvey: false, listsTracking: false) { EPTA(deviceHeight: $0.height) }
            case .sphereIntersection:
                Entry(needsSurvey: false, listsTracking: false) { SphereIntersection(deviceHeight: $0.height) }
            case .linearLeastSquares:
                Entry(needsSurvey: false, listsTracking: false) { LinearLeastSquares(deviceHeight: $0.height) }
            case .nonlinear:
                Entry(needsSurvey: false, listsTracking: false) { NonlinearLeastSquares(deviceHeight: $0.height) }
            case .knn: Entry(needsSurvey: true, listsTracking: true) { $0.fingerprints() }
            case .blend:
                Entry(needsSurvey: false, listsTracking: true) { context in
                    var members = [
                        Blend.Member(NonlinearLeastSquares(deviceHeight: context.height), trust: 1),
                        Blend.Member(WeightedCentroid(), trust: 1),
                    ]
                    if context.survey != nil { members.append(Blend.Member(context.fingerprints(), trust: 2)) }
                    return Blend(members)
                }
            case .posterior:
                Entry(needsSurvey: false, listsTracking: false) { context in
                    PosteriorGrid(
                        map: RadioMap.pathLoss(
                            nodes: context.nodes, calibration: context.calibration, grid: context.grid()))
                }
            case .radioMap:
                Entry(needsSurvey: true, listsTracking: false) { context in
                    PosteriorGrid(
                        map: RadioMap.surveyed(
                            nodes: context.nodes, fingerprints: context.surveyFingerprints(),
                            calibration: context.calibration, grid: context.grid()),
                        name: "radio-map")
                }
            case .auto:
                Entry(needsSurvey: false, listsTracking: true) { context in
                    let auto = context.auto()
                    // With a survey, each device is tracked by a particle filter over the learned map; without one,
                    // the snapshot posterior (the filter over the bare path-loss model was measured less accurate,
                    // docs/ACCURACY.md).
                    guard context.survey != nil || context.configuration.defaultTuning.filterWithoutSurvey == true
                    else { return auto }
                    return context.particleFilter(over: auto, name: auto.name)
                }
            case .particleFilter:
                Entry(needsSurvey: false, listsTracking: false) { context in
                    context.particleFilter(over: context.auto(), name: "particle-filter")
                }
            }
        }

        /// The method made for `context` (a survey-less `knn` is refused before this is called).
        func make(_ context: Context) -> any PositioningMethod { entry.make(context) }
    }

    /// One row of the catalogue.
    private struct Entry {
        var needsSurvey: Bool
        var listsTracking: Bool
        var make: (Context) -> any PositioningMethod
    }

    /// What a method is made from.
    struct Context {
        var nodes: [Node]
        var survey: Recording?
        var configuration: PositioningEngine.Configuration
        var calibration: Calibration
        /// The venue's walls and floor connections, for methods whose motion model keeps to them.
        var floorPlan: FloorPlan?
        /// What other engines of the same ``EngineFactory`` learned, shared with this one.
        var learned: EngineFactory.Learned
        /// Told how far long learning has got (``EngineFactory/progress``).
        var progress: LearningProgress? = nil
        /// Whether ``calibration`` is a fit from node-to-node links (``NodeLinkCalibration``): it knows each node's
        /// level against the others, not the located devices' (``AutoMethod``'s `levelKnown`).
        var fromLinks = false
        /// The coverage of the survey `auto` set aside (too little of the venue, ``SurveyCoverage``); `nil` when it
        /// learns from the survey or there is none.
        var setAside: SurveyCoverage? = nil
        /// The calibrated device height, metres (`nil` when the survey gave no heights).
        var height: Double? { calibration.deviceHeight }

        /// The survey's fingerprints through the engine's filters, without the survey receivers' offsets; none
        /// without a survey.
        func surveyFingerprints() -> [Fingerprint] {
            guard let survey else { return [] }
            return MethodCatalog.surveyFingerprints(
                nodes: nodes, survey: survey, configuration: configuration, calibration: calibration)
        }

        /// The grid of the posterior methods: around the nodes and the surveyed positions.
        func grid() -> RadioMap.Grid {
            RadioMap.Grid.around(
                nodes: nodes, extra: survey?.truth.map(\.point) ?? [], height: calibration.deviceHeight)
        }

        /// ``AutoMethod`` over the nodes, learned from the survey when there is one; learned once per factory for
        /// every configuration that differs only in tracking.
        func auto() -> AutoMethod {
            var key = configuration
            key.tracking = nil
            if let known = learned.autos[key] { return known }
            var auto = AutoMethod(
                nodes: nodes, survey: survey, calibration: calibration, configuration: configuration,
                validation: configuration.defaultTuning.radioMapValidation(), progress: progress,
                levelKnown: fromLinks ? false : nil)
            auto.surveySetAside = setAside
            learned.autos[key] = auto
            return auto
        }

        /// A particle filter weighed by `auto`'s posterior, its evidence weight chosen on the survey's walks
        /// (``TrackingValidation``) when `auto` learned its map from a survey and the survey has enough walks; chosen
        /// once per factory and configuration, and named `name`.
        func particleFilter(over auto: AutoMethod, name: String) -> ParticleFilter {
            if var known = learned.filters[configuration] {
                known.name = name
                return known
            }
            var filter = validatedFilter(over: auto)
            learned.filters[configuration] = filter
            filter.name = name
            return filter
        }

        /// The particle filter over `auto`'s posterior with the evidence weight and radius scale ``TrackingValidation``
        /// chose, when it could, and the radius of its fixes from readings alone scaled as the survey's
        /// cross-validation measured (``RadioMapCrossValidation/Outcome/radiusFactor(coverage:)``); the default
        /// tuning otherwise.
        private func validatedFilter(over auto: AutoMethod) -> ParticleFilter {
            let standard =
                survey == nil
                ? ParticleFilter.Configuration(particles: configuration.particles, seed: configuration.particleSeed)
                : ParticleFilter.Configuration.overSurvey(
                    particles: configuration.particles, seed: configuration.particleSeed)
            var tuning = configuration.defaultTuning.applied(to: standard)
            var outcome: TrackingValidation.Outcome?
            var estimators: EstimatorValidation.Outcome?
            var unvalidated = setAside?.summary
            if let survey, let selection = auto.selection {
                let setup = TrackingValidation.Setup(
                    nodes: nodes, calibration: calibration, configuration: configuration,
                    grid: auto.posterior.map.grid, candidate: selection.best, filter: tuning, floorPlan: floorPlan)
                let validation = configuration.defaultTuning.trackingValidation()
                outcome = validation.choose(survey: survey, setup: setup, progress: progress)
                if let outcome {
                    tuning.evidenceWeight = outcome.evidenceWeight
                    tuning.radiusScale = outcome.radiusScale
                    var tuned = setup
                    tuned.filter = tuning
                    estimators = configuration.defaultTuning.estimatorValidation(tracking: validation).choose(
                        survey: survey, setup: tuned, progress: progress)
                } else {
                    unvalidated = validation.unchosenNote(survey: survey, standard: tuning.evidenceWeight)
                }
            }
            // After the replays, which weigh clouds: the fixes from readings alone get the radius their posterior
            // earned on the survey's held-out fingerprints.
            if let factor = auto.selection?.radiusFactor(coverage: tuning.coverage) {
                tuning.snapshotRadiusScale = factor
            }
            var filter = ParticleFilter(posterior: auto.posterior, configuration: tuning, floorPlan: floorPlan)
            filter.mapSelection = auto.selection
            filter.validation = outcome
            filter.estimators = estimators
            filter.unvalidated = unvalidated
            return filter
        }

        /// k-NN over the survey's fingerprints; an empty one without a survey.
        func fingerprints() -> FingerprintKNN {
            guard let survey else { return FingerprintKNN(fingerprints: [], k: 3) }
            return MethodCatalog.fingerprintMethod(
                nodes: nodes, survey: survey, configuration: configuration, calibration: calibration)
        }
    }

    /// A method and whether its fixes are tracked: what a name like `blend+track` selects.
    public struct Selection: Hashable, Sendable, LosslessStringConvertible {
        /// The method.
        public var method: Method
        /// Whether each device's fixes are smoothed by a ``PositionTrack`` (``PositioningEngine/Configuration/tracking``).
        public var tracking: Bool

        /// `method`, tracked or not.
        public init(_ method: Method, tracking: Bool = false) {
            self.method = method
            self.tracking = tracking
        }

        /// The selection called `name`: a ``Method`` name, optionally followed once by ``MethodCatalog/trackSuffix``
        /// (`knn+track`); `nil` for anything else (`knn+track+track`, `+track`, `magic`).
        public init?(_ name: String) {
            if name == MethodCatalog.defaultAlias {
                self.init(MethodCatalog.defaultMethod)
                return
            }
            if let method = Method(rawValue: name) {
                self.init(method)
                return
            }
            guard name.hasSuffix(MethodCatalog.trackSuffix),
                let method = Method(rawValue: String(name.dropLast(MethodCatalog.trackSuffix.count)))
            else { return nil }
            self.init(method, tracking: true)
        }

        /// The selection's name: the method's, followed by `+track` when tracked (what every ``Fix/method`` carries).
        public var name: String { tracking ? method.rawValue + MethodCatalog.trackSuffix : method.rawValue }

        /// Whether the method needs a survey.
        public var needsSurvey: Bool { method.needsSurvey }

        public var description: String { name }
    }

    /// Appended to any method's name (`nonlinear+track`), its fixes are smoothed per device by a ``PositionTrack``
    /// (``PositioningEngine/Configuration/tracking``). Every method accepts it; ``names`` lists the combinations
    /// that were measured to help.
    static let trackSuffix = "+track"

    /// The selections reports list, in order: every method, then the tracked variants the catalogue lists.
    public static let listed: [Selection] =
        Method.allCases.map { Selection($0) }
        + Method.allCases.filter(\.listsTracking).map { Selection($0, tracking: true) }

    /// Every listed selection's name, in the order reports list them.
    public static let names: [String] = listed.map(\.name)

    /// The default of every front end (sessions, scans, the server, `indoor replay`, `scan` and `demo`), and what
    /// `--method default` names: ``AutoMethod`` (`auto`), one configuration that uses a survey and a calibration
    /// when given and needs neither (docs/ACCURACY.md, docs/POSITIONING.md).
    public static let defaultMethod = Method.auto

    /// The name that selects ``defaultMethod`` (`default`).
    static let defaultAlias = "default"

    /// The name of ``defaultMethod``.
    public static let defaultName = defaultMethod.rawValue

    /// Whether `name` names a selection (see ``Selection/init(_:)``).
    public static func isKnown(_ name: String) -> Bool { Selection(name) != nil }

    /// An engine running `selection` over `nodes`.
    ///
    /// With a survey, the engine is calibrated on it (``CalibrationFitter``) unless `calibration` is given, and
    /// fingerprinting methods learn their fingerprints from it. The selection decides whether the engine tracks:
    /// ``PositioningEngine/Configuration/tracking`` is set (to the given tuning, else the default) when it is tracked
    /// and cleared when not.
    /// - Parameters:
    ///   - selection: The method and whether it is tracked.
    ///   - nodes: The fixed radios.
    ///   - survey: Sightings with truth (a dataset's `train/`), for methods that calibrate or learn from it.
    ///   - calibration: A calibration to use instead of fitting one on `survey`.
    ///   - configuration: Engine tuning.
    ///   - floorPlan: The venue's walls and floor connections (``FloorPlan/init(venue:)``): the particle filter's
    ///     walkers (`auto` with a survey, `particle-filter`) keep to them; other methods ignore it.
    /// - Throws: ``MissingSurveyError`` when the method needs a survey and none was given.
    public static func engine(
        _ selection: Selection, nodes: [Node], survey: Recording? = nil, calibration: Calibration? = nil,
        configuration: PositioningEngine.Configuration = PositioningEngine.Configuration(), floorPlan: FloorPlan? = nil
    ) throws -> PositioningEngine {
        try EngineFactory(
            nodes: nodes, survey: survey, calibration: calibration, configuration: configuration, floorPlan: floorPlan
        )
        .engine(selection)
    }

    /// An engine running the method called `name` over `nodes` (see ``engine(_:nodes:survey:calibration:configuration:floorPlan:)``).
    /// - Parameters:
    ///   - name: One of ``names``, or any method's name followed by ``trackSuffix``.
    ///   - nodes: The fixed radios.
    ///   - survey: Sightings with truth (a dataset's `train/`), for methods that calibrate or learn from it.
    ///   - calibration: A calibration to use instead of fitting one on `survey`.
    ///   - configuration: Engine tuning.
    ///   - floorPlan: The venue's walls and floor connections, for the particle filter's motion model.
    /// - Throws: ``UnknownMethodError`` when no method has that name; ``MissingSurveyError`` when it needs a survey.
    public static func engine(
        method name: String, nodes: [Node], survey: Recording? = nil, calibration: Calibration? = nil,
        configuration: PositioningEngine.Configuration = PositioningEngine.Configuration(), floorPlan: FloorPlan? = nil
    ) throws -> PositioningEngine {
        try EngineFactory(
            nodes: nodes, survey: survey, calibration: calibration, configuration: configuration, floorPlan: floorPlan
        )
        .engine(method: name)
    }
}

extension MethodCatalog {
    /// What `engine`'s method learned from the survey, in a sentence for reports: the particle filter's radio map and
    /// weighting chosen by cross-validation (``RadioMapCrossValidation``), its evidence weight chosen on the survey's
    /// walks (``TrackingValidation``) or why it kept its default (a survey without enough walks), and the factor on
    /// the radius of its fixes from readings alone when the survey's held-out fingerprints set one; `nil` for other
    /// methods and without a survey.
    package static func learnedNote(_ engine: PositioningEngine) -> String? {
        if let auto = engine.method as? AutoMethod { return auto.surveySetAside?.summary }
        guard let filter = engine.method as? ParticleFilter else { return nil }
        var parts = [
            filter.mapSelection?.summary, filter.validation?.summary ?? filter.unvalidated, filter.estimators?.summary,
        ].compactMap { $0 }
        let scale = filter.configuration.snapshotRadiusScale
        if scale != 1 {
            parts.append(
                String(
                    format: "a first fix's accuracy radius (from readings alone) × %.2f, measured on the survey's "
                        + "held-out fingerprints", scale))
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// k-NN (k = 3) over the survey's fingerprints averaged per surveyed position.
    ///
    /// The fingerprints are taken without the survey devices' receiver offsets: those describe the survey's
    /// receivers, not the ones that will be located.
    static func fingerprintMethod(
        nodes: [Node], survey: Recording, configuration: PositioningEngine.Configuration, calibration: Calibration
    ) -> FingerprintKNN {
        let fingerprints = surveyFingerprints(
            nodes: nodes, survey: survey, configuration: configuration, calibration: calibration)
        return FingerprintKNN(fingerprints: FingerprintKNN.averagedByPosition(fingerprints), k: 3)
    }

    /// The survey's fingerprints through the engine's filters, taken without the survey devices' receiver offsets.
    static func surveyFingerprints(
        nodes: [Node], survey: Recording, configuration: PositioningEngine.Configuration, calibration: Calibration
    ) -> [Fingerprint] {
        var plain = calibration
        plain.deviceOffsets = [:]
        return FingerprintKNN.survey(nodes: nodes, recording: survey, configuration: configuration, calibration: plain)
    }
}
