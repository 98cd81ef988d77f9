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
    /// walks chose (``ParticleFilter/estimators``; none without), the weighted centroid where the filter gives no
    /// plausible position.
    func surveyedAnswer(of filter: ParticleFilter) -> SurveyedAnswer {
        guard let share = filter.estimators?.knnShare, share > 0 else { return SurveyedAnswer() }
        return SurveyedAnswer(knn: fingerprints(), knnShare: share)
    }
}
