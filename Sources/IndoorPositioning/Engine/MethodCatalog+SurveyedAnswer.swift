import IndoorModel

extension MethodCatalog {
    /// The estimator `engine`'s answers come from, as its survey chose it (``EstimatorValidation``): `nil` for
    /// engines other than `auto` with a survey. Without enough walks in the survey to choose, the filter alone with
    /// no validated error.
    package static func chosenEstimator(_ engine: PositioningEngine) -> (estimator: String, validatedMedian: Double?)? {
        guard engine.answer?.surveyed == true, let filter = engine.method as? ParticleFilter else { return nil }
        guard let outcome = filter.estimators else { return ("particle-filter", nil) }
        return (outcome.estimator, outcome.validatedMedian)
    }
}

extension MethodCatalog.Context {
    /// What `auto` with a survey does with `filter`'s answers: the share of k-NN over the survey's fingerprints its
    /// walks chose (``ParticleFilter/estimators``; none without), k-NN reading the filter they chose for it (the
    /// filter's own readings, or the engine's answer filter with fingerprints made through it), and the weighted
    /// centroid where the filter gives no plausible position.
    func surveyedAnswer(of filter: ParticleFilter) -> SurveyedAnswer {
        guard let outcome = filter.estimators, outcome.knnShare > 0 else { return SurveyedAnswer() }
        guard outcome.knnReadsAnswerFilter, let survey, configuration.answerFilter != nil else {
            return SurveyedAnswer(knn: fingerprints(), knnShare: outcome.knnShare)
        }
        return SurveyedAnswer(
            knn: MethodCatalog.fingerprintMethod(
                nodes: nodes, survey: survey, configuration: configuration.answering, calibration: calibration),
            knnShare: outcome.knnShare, knnReadsAnswerFilter: true)
    }
}

extension PositioningEngine.Configuration {
    /// The configuration whose filter is ``answerFilter`` (where set; itself without one): what k-NN in `auto`'s
    /// answer reads.
    var answering: PositioningEngine.Configuration {
        var answering = self
        if let answerFilter { answering.filter = answerFilter }
        answering.answerFilter = nil
        return answering
    }
}
