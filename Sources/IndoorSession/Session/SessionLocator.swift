import IndoorModel
import IndoorPositioning

/// The positioning of a session: the configured method, and the fallback method for the locates it cannot
/// answer (``FallbackPolicy``).
///
/// Both engines ingest every device's sighting, so the fallback has the same history; a fix says in its `method` field
/// which method gave it. A sighting of one node by another (a link, ``IndoorPositioning/NodeLinkCalibration``) goes to
/// the primary engine alone: when its self-calibration rebuilds its method over a new fit, the fallback is rebuilt
/// over the same fit (``IndoorPositioning/PositioningEngine/adoptLinkFit(_:at:)``), which is what it would have fitted
/// from the same links, so the links are kept and fitted once.
struct SessionLocator: Sendable {
    private var primary: PositioningEngine
    private var fallback: PositioningEngine?
    private let fallbackCodes: Set<NoFix.Code>
    /// The coverage of the survey the configured method set aside (``IndoorPositioning/SurveyCoverage``), if it did.
    let surveySetAside: SurveyCoverage?

    /// What one locate gave.
    struct Outcome {
        var result: Result<Fix, NoFix>
        /// When the fallback answered: the method's reason for not answering.
        var fellBackBecause: NoFix.Code?
    }

    /// - Throws: ``UnknownMethodError``, ``MissingSurveyError``.
    init(_ configuration: SessionConfiguration) throws {
        let nodes = configuration.venue.nodes
        // The venue's walls and stairs, for methods whose motion model keeps to them (the particle filter).
        let plan = FloorPlan(venue: configuration.venue)
        // One factory: the calibration fitted on the survey, and what both methods learn alike, learned once.
        let factory = EngineFactory(
            nodes: nodes, survey: configuration.survey, calibration: configuration.calibration,
            configuration: configuration.positioning, floorPlan: plan)
        // The session judges each sighting's time (``LocationSession``): the engines follow its judgement.
        let clock = DataClock.follower(horizon: configuration.positioning.horizon)
        primary = try factory.engine(configuration.method)
        surveySetAside = factory.surveySetAside(by: configuration.method)
        primary.clock = clock
        fallbackCodes = configuration.fallback.codes
        if let method = configuration.fallback.method, MethodCatalog.Selection(method) != configuration.method {
            fallback = try factory.engine(MethodCatalog.Selection(method))
            fallback?.clock = clock
        }
    }

    /// Lets `device` go in both engines.
    mutating func forget(device: String) {
        primary.forget(device: device)
        fallback?.forget(device: device)
    }

    /// How many devices the configured method's engine holds.
    var deviceCount: Int { primary.deviceCount }

    /// The name of the fallback method, if there is one.
    var fallbackName: String? { fallback?.methodName }

    /// Takes one sighting. - Returns: whether its node is one of the venue's (for a link: whether it was usable).
    mutating func ingest(_ sighting: Sighting) -> Bool {
        if primary.linkCalibration.isNodeDevice(sighting.device) { return ingestLink(sighting) }
        _ = fallback?.ingest(sighting)
        return primary.ingest(sighting)
    }

    /// A link: fitted by the primary engine, whose new fit the fallback adopts.
    private mutating func ingestLink(_ sighting: Sighting) -> Bool {
        let revision = primary.linkFitRevision
        let used = primary.ingest(sighting)
        if primary.linkFitRevision != revision, let fit = primary.linkFit, let time = primary.linkFitTime {
            fallback?.adoptLinkFit(fit, at: time)
        }
        return used
    }

    /// The fallback engine, when there is one.
    var fallbackEngine: PositioningEngine? { fallback }

    /// The estimator the configured method's answers come from and its validated median error, metres, as the survey
    /// chose them (`nil` for methods other than `auto` with a survey).
    var surveyValidation: (estimator: String, validatedMedian: Double?)? {
        MethodCatalog.chosenEstimator(primary)
    }

    /// Whether `device` names a node of the venue (`node:<id>`, or a node's beacon identity): its sightings are links
    /// between nodes (``IndoorPositioning/NodeLinkCalibration``), never a located device's.
    func isNodeLink(_ device: String) -> Bool {
        primary.linkCalibration.isNodeDevice(device)
    }

    /// The method's fit from node-to-node links, `nil` before the first or without self-calibration.
    var linkFit: NodeLinkCalibration.Fit? { primary.linkFit }

    /// The data time, seconds, at which ``linkFit`` was made; `nil` without one.
    var linkFitTime: Double? { primary.linkFitTime }

    /// What the method's self-calibration did with link sightings.
    var linkCounts: NodeLinkCalibration.Counts { primary.linkCalibration.counts }

    /// Whether the method calibrates itself from node-to-node links.
    var isSelfCalibrating: Bool { primary.isSelfCalibrating }

    /// The readings of `device` at `time` seconds that the session's method makes a fix from, strongest first.
    func readings(device: String, at time: Double) -> [NodeReading] {
        primary.fixReadings(device: device, at: time)
    }

    /// Locates `device` at `time` seconds.
    func locate(device: String, at time: Double) -> Outcome {
        let first = primary.locate(device: device, at: time)
        guard case .failure(let noFix) = first, fallbackCodes.contains(noFix.code), let fallback else {
            return Outcome(result: first)
        }
        return Outcome(result: fallback.locate(device: device, at: time), fellBackBecause: noFix.code)
    }
}
