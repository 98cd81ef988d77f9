import Foundation
import IndoorRanging

/// Other values for the default's parameters that were chosen on data, for the experiments that choose them again
/// (each real dataset held out in turn: scripts/leave-one-venue-out.sh); `nil` keeps the default's value, and an
/// engine with none set gives the default's answers.
///
/// With a survey (`auto`, and `particle-filter`, the same filter): the filter's ``leadTime``, ``turnTime``,
/// ``offsetDrift``, ``speed``, standard ``evidenceWeight`` and the chance that a cloud has lost its device
/// (``lostChance``: ``ParticleFilter/Configuration``); the fewest rows of the
/// survey's walks to choose on (``minimumWalkRows``); the bars by which
/// another evidence weight (``evidenceSignificance``, ``TrackingValidation/significance``) and a k-NN share of the
/// answer (``estimatorSignificance``, ``EstimatorValidation/significance``) must beat the standard on the survey's
/// walks; the radio map's cross-validation grid (``mapKNNShare``, ``mapKernelScale``, ``mapVarianceWeight``,
/// ``mapPriorWeight``: ``RadioMapCrossValidation``) and its likelihood's ``degreesOfFreedom``. Without a survey
/// (`auto`): the generic weighting's temperature, receiver offset prior and Student-t (``genericTemperature``,
/// ``genericOffsetPrior``, ``genericDegreesOfFreedom``: ``AutoMethod/genericConfiguration``), the fewest nodes heard
/// for the posterior to answer (``denseMinimum``), ``AgreeingRanges``' residual bar (``rangesBar``), whether each
/// device is tracked by the particle filter as with a survey (``filterWithoutSurvey``) and how far the posterior may
/// stray from the weighted centroid (``centroidGate``), and the prior about the centroid that weighs its posterior
/// (``centroidPriorWidth``, ``centroidPriorTemperature``, ``centroidPriorLayout``) and the filter through which it
/// reads RSSI (``readingNoise``). The particle count has its
/// own setting (``PositioningEngine/Configuration/particles``).
public struct DefaultTuning: Hashable, Sendable {
    /// ``ParticleFilter/Configuration/leadTime``, seconds (default 0.25).
    public var leadTime: Double?
    /// ``ParticleFilter/Configuration/turnTime``, seconds (default 6).
    public var turnTime: Double?
    /// ``ParticleFilter/Configuration/offsetDrift``, dB/√s (default over a survey 0.05:
    /// ``ParticleFilter/Configuration/overSurvey(particles:seed:)``).
    public var offsetDrift: Double?
    /// ``ParticleFilter/Configuration/speed``, the typical speed along each axis, m/s (default 1).
    public var speed: Double?
    /// ``ParticleFilter/Configuration/evidenceWeight``, the standard weight: the filter's where the survey's walks
    /// cannot choose, and the one another weight must beat (default over a survey 0.7). Compared on the walks beside
    /// ``TrackingValidation``'s grid (added to it when it is not one of its weights).
    public var evidenceWeight: Double?
    /// ``ParticleFilter/Configuration/lostChance``: the chance at each update that the cloud has lost its device
    /// (default 0.01; 0: a cloud never gives way to the readings).
    public var lostChance: Double?
    /// ``TrackingValidation/significance``, standard errors (default 2).
    public var evidenceSignificance: Double?
    /// ``EstimatorValidation/significance``, standard errors (default 2).
    public var estimatorSignificance: Double?
    /// ``TrackingValidation/minimumRows``: the fewest rows of the survey's walks for the evidence weight and the
    /// estimator to be chosen on them (default 50; docs/notes/auto-small-and-offset-surveys.md).
    public var minimumWalkRows: Int?
    /// The largest share of k-NN the radio map's cross-validation compares (``RadioMapCrossValidation/knnShares``:
    /// 0, ¾ of it and it; default ⅓, giving 0, ¼ and ⅓; 0 compares the posterior alone).
    public var mapKNNShare: Double?
    /// The factor on the kernel lengths the radio map's cross-validation compares (0.5, 1 and 2 m times it; default 1).
    public var mapKernelScale: Double?
    /// The weight of the normalising term ½ ln(variance) in the likelihood of the maps the radio map's
    /// cross-validation compares (``RadioMap/logVarianceWeight``; default 2).
    public var mapVarianceWeight: Double?
    /// The kernel weight a grid point needs before the survey outweighs the path-loss model, in the maps the radio
    /// map's cross-validation compares (``RadioMap/SurveyConfiguration/priorWeight``; default 0.25).
    public var mapPriorWeight: Double?
    /// With a survey, the Student-t degrees of freedom of the posterior's and the filter's likelihood
    /// (``PosteriorGrid/Configuration/degreesOfFreedom`` of every candidate; default 8).
    public var degreesOfFreedom: Double?
    /// Without a survey, the generic weighting's Student-t degrees of freedom (default 4).
    public var genericDegreesOfFreedom: Double?
    /// Without a survey, the temperature of the generic weighting (``AutoMethod/genericConfiguration``; default 1).
    public var genericTemperature: Double?
    /// Without a survey, the generic weighting's receiver offset prior, dB (default 15).
    public var genericOffsetPrior: Double?
    /// Without a survey, the fewest mapped nodes heard for the posterior to answer (``AutoMethod/denseMinimum``;
    /// default 4).
    public var denseMinimum: Int?
    /// Without a survey, ``AgreeingRanges/tolerance``: the largest root mean square log-range residual taken as
    /// agreement (default 0.1).
    public var rangesBar: Double?
    /// Without a survey, whether `auto` tracks each device with the particle filter over its path-loss posterior (as
    /// it does over a survey's map) instead of answering fix by fix (default `false`).
    public var filterWithoutSurvey: Bool?
    /// Without a survey, ``AutoMethod/centroidGate``: the weighted centroid of the strongest nodes answers instead of
    /// the posterior's mean where that lies farther from it than this factor times the centroid's own radius,
    /// with or without the centroid prior (default `nil`: never; an experiment of issue 56, docs/notes/auto-no-survey-simple-estimators.md).
    public var centroidGate: Double?
    /// Without a survey, the width of ``AutoMethod``'s centroid prior per metre of the centroid's spread
    /// (``CentroidPrior/width``; default 0.75; 0 turns the prior off and answers as before it: the sparse and
    /// agreeing-ranges paths).
    public var centroidPriorWidth: Double?
    /// Without a survey, the centroid prior's softmax temperature on RSSI, dB (``CentroidPrior/temperature``;
    /// default 10).
    public var centroidPriorTemperature: Double?
    /// Without a survey, whether the centroid prior is narrowed across a row of the strongest nodes to their spread
    /// across it (`true`, the default), or is a circle as wide as their RMS spread every way (`false`).
    public var centroidPriorLayout: Bool?
    /// Without a survey, the process noise of the Kalman filter through which `auto` reads each node's RSSI, dB² per
    /// second (``AutoMethod/readingFilterWithoutSurvey``; default 12).
    public var readingNoise: Double?
    /// With a survey, the share of the nodes it must pass near for `auto` to learn from it
    /// (``SurveyCoverage/minimumShare``; default ``SurveyCoverage/standardMinimumShare``, 0.9, measured in
    /// docs/notes/auto-survey-coverage.md; 0: every survey is learned from).
    public var surveyCoverage: Double?

    /// Every parameter's defaults.
    init() {}

    /// A parameter: its name, what it is (with its unit), the values it takes and where it goes.
    private struct Parameter: Sendable {
        var name: String
        var meaning: String
        /// The values taken, in words for the error.
        var accepted: String
        var accepts: @Sendable (Double) -> Bool
        var store: @Sendable (inout DefaultTuning, Double) -> Void
    }

    private static let parameters: [Parameter] = [
        Parameter(
            name: "lead-time", meaning: "the particle filter's lead time, s", accepted: "0 or more",
            accepts: { $0 >= 0 }, store: { $0.leadTime = $1 }),
        Parameter(
            name: "turn-time", meaning: "its heading time, s", accepted: "more than 0",
            accepts: { $0 > 0 }, store: { $0.turnTime = $1 }),
        Parameter(
            name: "offset-drift", meaning: "its receiver offset drift, dB/√s", accepted: "0 or more",
            accepts: { $0 >= 0 }, store: { $0.offsetDrift = $1 }),
        Parameter(
            name: "speed", meaning: "its typical speed per axis, m/s", accepted: "more than 0",
            accepts: { $0 > 0 }, store: { $0.speed = $1 }),
        Parameter(
            name: "evidence-weight", meaning: "its standard evidence weight", accepted: "more than 0",
            accepts: { $0 > 0 }, store: { $0.evidenceWeight = $1 }),
        Parameter(
            name: "lost-chance", meaning: "its chance at each update that the cloud has lost its device (0: never)",
            accepted: "0 to 1", accepts: { $0 >= 0 && $0 <= 1 }, store: { $0.lostChance = $1 }),
        Parameter(
            name: "evidence-bar",
            meaning: "the standard errors by which another evidence weight must beat it on the survey's walks",
            accepted: "0 or more", accepts: { $0 >= 0 }, store: { $0.evidenceSignificance = $1 }),
        Parameter(
            name: "estimator-bar",
            meaning: "the standard errors by which a k-NN share must beat the filter on the survey's walks",
            accepted: "0 or more", accepts: { $0 >= 0 }, store: { $0.estimatorSignificance = $1 }),
        Parameter(
            name: "walk-rows",
            meaning: "the fewest rows of the survey's walks for the evidence weight and the estimator to be chosen",
            accepted: "a whole number 1 to 100000", accepts: { $0 >= 1 && $0 <= 100_000 && $0 == $0.rounded() },
            store: { $0.minimumWalkRows = Int($1) }),
        Parameter(
            name: "map-knn-share", meaning: "the largest k-NN share the radio map's cross-validation compares",
            accepted: "0 to 1", accepts: { $0 >= 0 && $0 <= 1 }, store: { $0.mapKNNShare = $1 }),
        Parameter(
            name: "map-kernel-scale", meaning: "the factor on the kernel lengths it compares (0.5, 1, 2 m)",
            accepted: "more than 0", accepts: { $0 > 0 }, store: { $0.mapKernelScale = $1 }),
        Parameter(
            name: "map-variance-weight",
            meaning: "the weight of the radio map's normalising term ½ ln(variance) in its likelihood",
            accepted: "0 or more", accepts: { $0 >= 0 }, store: { $0.mapVarianceWeight = $1 }),
        Parameter(
            name: "map-prior-weight",
            meaning: "the kernel weight a grid point needs before the survey outweighs the path-loss model",
            accepted: "more than 0", accepts: { $0 > 0 }, store: { $0.mapPriorWeight = $1 }),
        Parameter(
            name: "degrees-of-freedom", meaning: "with a survey, the likelihood's Student-t degrees of freedom",
            accepted: "more than 0", accepts: { $0 > 0 }, store: { $0.degreesOfFreedom = $1 }),
        Parameter(
            name: "generic-temperature", meaning: "without a survey, the posterior's temperature",
            accepted: "more than 0", accepts: { $0 > 0 }, store: { $0.genericTemperature = $1 }),
        Parameter(
            name: "generic-offset-prior", meaning: "without a survey, its receiver offset prior, dB",
            accepted: "more than 0", accepts: { $0 > 0 }, store: { $0.genericOffsetPrior = $1 }),
        Parameter(
            name: "generic-degrees-of-freedom", meaning: "without a survey, its Student-t degrees of freedom",
            accepted: "more than 0", accepts: { $0 > 0 }, store: { $0.genericDegreesOfFreedom = $1 }),
        Parameter(
            name: "dense-minimum", meaning: "without a survey, the fewest nodes heard for the posterior to answer",
            accepted: "a whole number 1 to 1000", accepts: { $0 >= 1 && $0 <= 1000 && $0 == $0.rounded() },
            store: { $0.denseMinimum = Int($1) }),
        Parameter(
            name: "ranges-bar",
            meaning: "without a survey, the largest RMS log-range residual for which the ranges agree",
            accepted: "more than 0", accepts: { $0 > 0 }, store: { $0.rangesBar = $1 }),
        Parameter(
            name: "no-survey-filter",
            meaning: "without a survey, 1 tracks each device with the particle filter, 0 answers fix by fix",
            accepted: "0 or 1", accepts: { $0 == 0 || $0 == 1 }, store: { $0.filterWithoutSurvey = $1 == 1 }),
        Parameter(
            name: "centroid-gate",
            meaning:
                "without a survey, the weighted centroid answers where the posterior's mean lies farther from it than this times its radius (unset: never)",
            accepted: "more than 0", accepts: { $0 > 0 }, store: { $0.centroidGate = $1 }),
        Parameter(
            name: "centroid-prior",
            meaning:
                "without a survey, the centroid prior's width per metre of the centroid's spread (0: no prior)",
            accepted: "0 or more", accepts: { $0 >= 0 }, store: { $0.centroidPriorWidth = $1 }),
        Parameter(
            name: "centroid-temperature", meaning: "without a survey, the centroid prior's temperature on RSSI, dB",
            accepted: "more than 0", accepts: { $0 > 0 }, store: { $0.centroidPriorTemperature = $1 }),
        Parameter(
            name: "centroid-layout",
            meaning: "without a survey, 1 narrows the centroid prior across a row of nodes, 0 keeps a circle",
            accepted: "0 or 1", accepts: { $0 == 0 || $0 == 1 }, store: { $0.centroidPriorLayout = $1 == 1 }),
        Parameter(
            name: "reading-noise",
            meaning: "without a survey, the process noise of the Kalman filter auto reads RSSI through, dB²/s",
            accepted: "0 or more", accepts: { $0 >= 0 }, store: { $0.readingNoise = $1 }),
        Parameter(
            name: "survey-coverage",
            meaning: "with a survey, the share of the nodes it must pass near for auto to learn from it",
            accepted: "0 to 1", accepts: { $0 >= 0 && $0 <= 1 }, store: { $0.surveyCoverage = $1 }),
    ]

    /// The names ``set(_:to:)`` takes, in order.
    public static let names = parameters.map(\.name)

    /// One line per parameter: its name, what it is and the values it takes (for a command's help).
    public static var help: String {
        parameters.map { "\($0.name): \($0.meaning) (\($0.accepted))" }.joined(separator: "; ")
    }

    /// Sets the parameter called `name` (one of ``names``) to `value`.
    /// - Throws: ``DefaultTuningError`` for another name or a value the parameter does not take (each takes finite
    ///   values only; ``help`` says which).
    public mutating func set(_ name: String, to value: Double) throws(DefaultTuningError) {
        guard let parameter = Self.parameters.first(where: { $0.name == name }) else {
            throw DefaultTuningError(
                message: "unknown parameter '\(name)'; known: \(Self.names.joined(separator: ", "))")
        }
        guard value.isFinite, parameter.accepts(value) else {
            throw DefaultTuningError(message: "\(name) must be \(parameter.accepted) (got \(value))")
        }
        parameter.store(&self, value)
    }

    /// `filter` with the parameters set here.
    func applied(to filter: ParticleFilter.Configuration) -> ParticleFilter.Configuration {
        var tuned = filter
        if let leadTime { tuned.leadTime = leadTime }
        if let turnTime { tuned.turnTime = turnTime }
        if let offsetDrift { tuned.offsetDrift = offsetDrift }
        if let speed { tuned.speed = speed }
        if let evidenceWeight { tuned.evidenceWeight = evidenceWeight }
        if let lostChance { tuned.lostChance = lostChance }
        return tuned
    }

    /// The evidence weight's validation on the survey's walks, with the bar and the standard weight set here.
    func trackingValidation() -> TrackingValidation {
        var validation = TrackingValidation()
        if let evidenceSignificance { validation.significance = evidenceSignificance }
        if let minimumWalkRows { validation.minimumRows = minimumWalkRows }
        if let evidenceWeight, !validation.evidenceWeights.contains(evidenceWeight) {
            validation.evidenceWeights = (validation.evidenceWeights + [evidenceWeight]).sorted()
        }
        return validation
    }

    /// The estimator's validation over `tracking`'s blocks, with the bar set here.
    func estimatorValidation(tracking: TrackingValidation) -> EstimatorValidation {
        guard let estimatorSignificance else { return EstimatorValidation(tracking: tracking) }
        return EstimatorValidation(significance: estimatorSignificance, tracking: tracking)
    }

    /// The radio map's cross-validation with the grid set here.
    func radioMapValidation() -> RadioMapCrossValidation {
        var validation = RadioMapCrossValidation()
        if let mapKNNShare { validation.knnShares = mapKNNShare > 0 ? [0, 0.75 * mapKNNShare, mapKNNShare] : [0] }
        if mapKernelScale != nil || mapVarianceWeight != nil {
            validation.candidates = RadioMapCrossValidation.candidates(
                lengthScales: RadioMapCrossValidation.standardLengthScales.map { $0 * (mapKernelScale ?? 1) },
                logVarianceWeight: mapVarianceWeight ?? RadioMapCrossValidation.standardLogVarianceWeight)
        }
        for index in validation.candidates.indices {
            if let mapPriorWeight { validation.candidates[index].map.priorWeight = mapPriorWeight }
            if let degreesOfFreedom { validation.candidates[index].posterior.degreesOfFreedom = degreesOfFreedom }
        }
        return validation
    }

    /// The centroid prior of `auto` without a survey and without a calibration that knows the path loss; `nil` when
    /// turned off (``centroidPriorWidth`` 0).
    var centroidPrior: CentroidPrior? {
        var prior = CentroidPrior.standard
        if let centroidPriorWidth { prior.width = centroidPriorWidth }
        if let centroidPriorTemperature { prior.temperature = centroidPriorTemperature }
        if let centroidPriorLayout { prior.followsLayout = centroidPriorLayout }
        return prior.width > 0 ? prior : nil
    }

    /// The per-node RSSI filter of `auto` without a survey.
    var readingFilterWithoutSurvey: RSSIFilter.Kind {
        readingNoise.map(AutoMethod.readingFilter(processNoise:)) ?? AutoMethod.readingFilterWithoutSurvey
    }

    /// The weighting of the posterior without a survey and without a calibration that knows the path loss.
    var genericConfiguration: PosteriorGrid.Configuration {
        var configuration = AutoMethod.genericConfiguration
        if let genericTemperature { configuration.temperature = genericTemperature }
        if let genericOffsetPrior { configuration.offsetSigma = genericOffsetPrior }
        if let genericDegreesOfFreedom { configuration.degreesOfFreedom = genericDegreesOfFreedom }
        return configuration
    }
}

/// A parameter of ``DefaultTuning`` named or valued wrongly.
public struct DefaultTuningError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, and what is accepted.
    public var message: String
    public var description: String { message }
}
