import IndoorModel

/// What the default (`auto`) does with its method's answer before it becomes a fix: with a survey, mixes in the share
/// of k-NN fingerprints its survey chose (``EstimatorValidation``); with a survey or without, answers with the
/// weighted centroid of what was heard where the method gives nothing or nothing plausible.
///
/// A ``PositioningEngine`` whose ``PositioningEngine/answer`` is set asks it at every fix: the method's estimate (or
/// its failure) and the device's readings held over the engine's window come in, the fix's estimate goes out. So a
/// device heard by a node of the venue within the window is never left without a position: a single weak node
/// heard from afar gives a posterior whose mean lies far outside the area that node covers, and without a survey a
/// broad posterior over a corridor's nodes has its mean pulled into the empty middle of the grid around an L-shaped
/// corridor; the engine's ``PlausibleArea`` refuses both, and the weighted centroid answers there, with its own
/// radius (the heard nodes' spread about it, at least the nearest node's range).
public struct SurveyedAnswer: Sendable {
    /// The fingerprints mixed in, `nil` for none.
    public var knn: FingerprintKNN?
    /// The share (0…1) of ``knn``'s position in the answer.
    public var knnShare: Double
    /// Whether ``knn`` reads the engine's ``PositioningEngine/Configuration/answerFilter`` (its fingerprints were made
    /// through it) rather than the readings the method was given.
    public var knnReadsAnswerFilter: Bool
    /// What answers where the method gives no plausible position (the weighted centroid of the readings).
    public var fallback: WeightedCentroid
    /// Whether the answer was made from a survey (`auto` with one); `false` for the fallback alone of `auto`
    /// without a survey, which chose no estimator (``MethodCatalog/chosenEstimator(_:)`` is `nil` there).
    let surveyed: Bool

    /// - Parameters:
    ///   - knn: Fingerprints to mix in (`nil`: none).
    ///   - knnShare: Their share in the answer (clamped to 0…1; 0 when not finite).
    ///   - knnReadsAnswerFilter: Whether they read the engine's answer filter (default `false`).
    ///   - fallback: What answers where the method does not (default ``WeightedCentroid``).
    ///   - surveyed: Whether it was made from a survey (default `true`).
    init(
        knn: FingerprintKNN? = nil, knnShare: Double = 0, knnReadsAnswerFilter: Bool = false,
        fallback: WeightedCentroid = WeightedCentroid(), surveyed: Bool = true
    ) {
        self.knn = knn
        self.knnShare = knnShare.isFinite ? min(max(knnShare, 0), 1) : 0
        self.knnReadsAnswerFilter = knnReadsAnswerFilter
        self.fallback = fallback
        self.surveyed = surveyed
    }

    /// What `auto` without a survey does with its method's answer: the weighted centroid of what was heard where the
    /// method gives nothing plausible, nothing mixed in.
    static let withoutSurvey = SurveyedAnswer(surveyed: false)

    /// The estimate of a fix, checked against `area` already: `primary` with ``knnShare`` of k-NN's position (from
    /// `held`) mixed in when both answered on the same floor (and the mix is plausible for `current`); where `primary`
    /// failed or lies outside `area` for `current`, the fallback's answer from `held` (its ``Estimate/method`` naming
    /// it; inside the area of what it was made from), or `primary`'s failure when nothing was heard.
    /// - Parameters:
    ///   - primary: The method's answer.
    ///   - current: The readings `primary` was made from (a tracking method's fresh ones).
    ///   - held: The device's readings, each node's last value held over the engine's window.
    ///   - knnReadings: What k-NN reads where it reads the answer filter (``knnReadsAnswerFilter``: the engine's
    ///     ``PositioningEngine/Configuration/answerFilter``'s values held over the window); `nil`: `held`.
    ///   - area: The engine's plausibility check.
    func answer(
        _ primary: Result<Estimate, NoFix>, current: [NodeReading], held: [NodeReading],
        knn knnReadings: [NodeReading]? = nil, area: PlausibleArea
    ) -> Result<Estimate, NoFix> {
        if case .success(var estimate) = primary, area.check(estimate.position, readings: current) == nil {
            guard knnShare > 0, let knn, case .success(let other) = knn.estimate(from: knnReadings ?? held),
                other.floor == nil || other.floor == estimate.floor,
                let mixed = Self.mixed(estimate.position.horizontal, other.position.horizontal, knnShare: knnShare)
            else { return .success(estimate) }
            let position = Point3D(x: mixed.x, y: mixed.y, z: estimate.position.z)
            guard area.check(position, readings: current) == nil else { return .success(estimate) }
            estimate.position = position
            return .success(estimate)
        }
        guard !held.isEmpty, case .success(var estimate) = fallback.estimate(from: held) else { return primary }
        estimate.method = estimate.method ?? fallback.name
        return .success(estimate)
    }

    /// `knnShare` of `knn` and the rest of `filter`: `filter` where `knn` is `nil`, `nil` where `filter` is (the
    /// fallback answers there).
    static func mixed(_ filter: Point2D?, _ knn: Point2D?, knnShare: Double) -> Point2D? {
        guard let filter else { return nil }
        guard let knn, knnShare > 0 else { return filter }
        return Point2D(x: filter.x + knnShare * (knn.x - filter.x), y: filter.y + knnShare * (knn.y - filter.y))
    }
}
