import IndoorModel

/// The positioning methods selectable by name (`indoor evaluate --method NAME`).
public enum MethodCatalog {
    /// Every method name, in the order reports list them.
    public static let names: [String] = [
        "weighted-centroid", "power-center", "epta", "sphere-intersection", "linear-least-squares", "nonlinear",
        "knn", "blend", "knn+track", "blend+track",
    ]

    /// Appended to any method's name (`nonlinear+track`), its fixes are smoothed per device by a ``PositionTrack``
    /// (``Tracked``). Every catalogued method accepts it; ``names`` lists the combinations that were measured.
    public static let trackSuffix = "+track"

    /// Methods that need a survey (`train/`) to work.
    public static let surveyMethods: Set<String> = ["knn", "knn+track"]

    /// The default method for new users: the nonlinear least-squares solver (needs no survey).
    public static let defaultName = "nonlinear"

    /// Whether `name` names a method: one of ``names``, or one of them followed by ``trackSuffix``.
    public static func isKnown(_ name: String) -> Bool {
        if names.contains(name) { return true }
        guard name.hasSuffix(trackSuffix), name.count > trackSuffix.count else { return false }
        let base = String(name.dropLast(trackSuffix.count))
        // `knn+track+track` is not a method: a track is not tracked twice.
        return names.contains(base) && !base.hasSuffix(trackSuffix)
    }

    /// An engine running the method called `name` over `nodes`.
    ///
    /// With a survey, the engine is calibrated on it (``CalibrationFitter``) unless `calibration` is given, and
    /// fingerprinting methods learn their fingerprints from it.
    /// - Parameters:
    ///   - name: One of ``names``, or any of them followed by ``trackSuffix``.
    ///   - nodes: The fixed radios.
    ///   - survey: Sightings with truth (a dataset's `train/`), for methods that calibrate or learn from it.
    ///   - calibration: A calibration to use instead of fitting one on `survey`.
    ///   - configuration: Engine tuning.
    /// - Throws: ``UnknownMethodError`` when no method has that name; ``MissingSurveyError`` when it needs a survey.
    public static func engine(
        method name: String, nodes: [Node], survey: Recording? = nil, calibration: Calibration? = nil,
        configuration: PositioningEngine.Configuration = PositioningEngine.Configuration()
    ) throws -> PositioningEngine {
        guard isKnown(name) else { throw UnknownMethodError(name: name, known: names) }
        let tracked = name.hasSuffix(trackSuffix)
        let baseName = tracked ? String(name.dropLast(trackSuffix.count)) : name
        let fitted = calibration ?? survey.map { CalibrationFitter().fit(nodes: nodes, survey: $0) } ?? .uncalibrated
        let height = fitted.deviceHeight
        let method: any PositioningMethod
        switch baseName {
        case "weighted-centroid": method = WeightedCentroid()
        case "power-center": method = PowerCenter(deviceHeight: height)
        case "epta": method = EPTA(deviceHeight: height)
        case "sphere-intersection": method = SphereIntersection(deviceHeight: height)
        case "linear-least-squares": method = LinearLeastSquares(deviceHeight: height)
        case "nonlinear": method = NonlinearLeastSquares(deviceHeight: height)
        case "knn":
            guard let survey else { throw MissingSurveyError(method: name) }
            method = fingerprintMethod(nodes: nodes, survey: survey, configuration: configuration, calibration: fitted)
        case "blend":
            var members = [
                Blend.Member(NonlinearLeastSquares(deviceHeight: height), trust: 1),
                Blend.Member(WeightedCentroid(), trust: 1),
            ]
            if let survey {
                let knn = fingerprintMethod(
                    nodes: nodes, survey: survey, configuration: configuration, calibration: fitted)
                members.append(Blend.Member(knn, trust: 2))
            }
            method = Blend(members)
        default:
            throw UnknownMethodError(name: name, known: names)
        }
        return PositioningEngine(
            nodes: nodes, method: tracked ? Tracked(method) : method, configuration: configuration, calibration: fitted)
    }
}

extension MethodCatalog {
    /// k-NN (k = 3) over the survey's fingerprints averaged per surveyed position.
    ///
    /// The fingerprints are taken without the survey devices' receiver offsets: those describe the survey's
    /// receivers, not the ones that will be located.
    static func fingerprintMethod(
        nodes: [Node], survey: Recording, configuration: PositioningEngine.Configuration, calibration: Calibration
    ) -> FingerprintKNN {
        var plain = calibration
        plain.deviceOffsets = [:]
        let fingerprints = FingerprintKNN.survey(
            nodes: nodes, recording: survey, configuration: configuration, calibration: plain)
        return FingerprintKNN(fingerprints: FingerprintKNN.averagedByPosition(fingerprints), k: 3)
    }
}
