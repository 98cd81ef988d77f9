import IndoorModel
import IndoorPositioning

/// The positioning behind `indoor replay`: a method from the catalogue, with a fallback for the default.
///
/// With an explicit method, every locate uses that method and nothing else. Without one, the catalogue's
/// default method (``MethodCatalog/defaultName``, which trilaterates and needs three nodes not on one line)
/// is asked first, and when it answers ``NoFix/Code/tooFewNodes``, ``NoFix/Code/degenerateGeometry`` or
/// ``NoFix/Code/noSolution`` (no answer, or one refused as far outside the nodes heard) the same locate is answered by ``fallbackMethod``, which works from one node. Both engines ingest every
/// sighting, so the fallback has the same history; a fix says in its `method` field which method gave it.
struct ReplayLocator {
    /// The method that answers when the default cannot use the geometry it has.
    static let fallbackMethod = "weighted-centroid"
    /// The default method's failures that the fallback answers.
    static let fallbackCodes: Set<NoFix.Code> = [.tooFewNodes, .degenerateGeometry, .noSolution]

    private var primary: PositioningEngine
    private var fallback: PositioningEngine?

    /// What one locate gave.
    struct Outcome {
        var result: Result<Fix, NoFix>
        /// When the fallback answered: the default method's reason for not answering.
        var fellBackBecause: NoFix.Code?
    }

    /// - Parameters:
    ///   - method: A catalogue method name, or `nil` for the default with the fallback.
    ///   - nodes: The venue's nodes.
    /// - Throws: ``UnknownMethodError``, ``MissingSurveyError``.
    init(method: String?, nodes: [Node]) throws {
        primary = try MethodCatalog.engine(method: method ?? MethodCatalog.defaultName, nodes: nodes)
        if method == nil, MethodCatalog.defaultName != Self.fallbackMethod {
            fallback = try MethodCatalog.engine(method: Self.fallbackMethod, nodes: nodes)
        }
    }

    /// Takes one sighting. - Returns: whether its node is one of the venue's.
    mutating func ingest(_ sighting: Sighting) -> Bool {
        _ = fallback?.ingest(sighting)
        return primary.ingest(sighting)
    }

    /// Locates `device` at `time` seconds.
    func locate(device: String, at time: Double) -> Outcome {
        let first = primary.locate(device: device, at: time)
        guard case .failure(let noFix) = first, Self.fallbackCodes.contains(noFix.code), let fallback else {
            return Outcome(result: first)
        }
        return Outcome(result: fallback.locate(device: device, at: time), fellBackBecause: noFix.code)
    }
}
