import Foundation
import IndoorModel

/// Chooses, on a venue's own survey, how much of the default's answer comes from k-NN fingerprints rather than from
/// its ``ParticleFilter``: the estimator (or the weights of a combination) ``AutoMethod`` answers with, per venue.
///
/// On a venue where people walk the surveyed routes, the fingerprints recorded along those routes are hard to beat;
/// elsewhere the filter over the learned map is. Only the survey can tell which venue this is. The survey is cut into
/// the blocks and folds of ``TrackingValidation`` (its ``TrackingValidation/blockSeconds``, ``TrackingValidation/folds``
/// and walks): for each fold a radio map and the k-NN fingerprints are learned from the other folds, and the fold's
/// walking blocks are replayed twice, each block as a new device, through the filter (with the evidence weight the
/// tracking validation chose) and through k-NN (k = 3, fingerprints averaged per surveyed position), both reading the
/// same filtered values. Each replayed row then has the filter's position and k-NN's; every share of ``knnShares``
/// answers their weighted mean, and the share with the lowest median error is taken when it beats the filter alone by
/// ``significance`` standard errors over blocks (``TrackingValidation/pairedScore(_:against:blocks:)``); otherwise the
/// filter answers alone. Nothing outside the survey is looked at.
///
/// A survey without enough walks gives no choice (`nil`): the filter answers alone (its map's own cross-validation
/// still blends in the k-NN share it measured on held-out fingerprints, ``RadioMapCrossValidation``). Deterministic:
/// the folds run on the available cores (`ParallelWork`) and are merged in order.
struct EstimatorValidation: Hashable, Sendable {
    /// The shares of k-NN compared (0: the filter alone, 1: k-NN alone), in order.
    var knnShares: [Double]
    /// How many standard errors lower the best share's replay errors must be than the filter's alone for it to be
    /// taken.
    var significance: Double
    /// The blocks, folds and walks replayed.
    var tracking: TrackingValidation

    /// - Parameters:
    ///   - knnShares: Shares of k-NN compared (default 0, ¼, ½, ¾ and 1; values outside 0…1 are left out, 0 is
    ///     always compared).
    ///   - significance: Standard errors by which the best share must beat the filter alone (default 2).
    ///   - tracking: The blocks, folds and walks (default ``TrackingValidation``'s).
    init(
        knnShares: [Double] = [0, 0.25, 0.5, 0.75, 1], significance: Double = 2,
        tracking: TrackingValidation = TrackingValidation()
    ) {
        var shares = knnShares.filter { $0.isFinite && $0 >= 0 && $0 <= 1 }
        if !shares.contains(0) { shares.insert(0, at: 0) }
        self.knnShares = shares
        self.significance = significance.isNaN ? 2 : max(0, significance)
        self.tracking = tracking
    }

    /// What the replay found.
    struct Outcome: Hashable, Sendable {
        /// The chosen share of k-NN in the answer (0: the filter alone; 1: k-NN alone).
        var knnShare: Double
        /// The shares compared, in order.
        public var shares: [Double]
        /// The median replay error of each of ``shares``, metres (`nil`: nothing located).
        var medians: [Double?]
        /// Truth rows replayed (located or not).
        public var rows: Int
        /// Whether k-NN reads the engine's answer filter (``PositioningEngine/Configuration/answerFilter``: its
        /// fingerprints made through it) rather than the particle filter's own readings.
        public var knnReadsAnswerFilter = false

        /// The chosen share's median replay error, metres: the default's validated error on this venue.
        public var validatedMedian: Double? {
            shares.firstIndex(of: knnShare).flatMap { medians.indices.contains($0) ? medians[$0] : nil }
        }

        /// The filter's median replay error alone, metres.
        var filterMedian: Double? { shares.firstIndex(of: 0).flatMap { medians[$0] } }

        /// The chosen estimator in a few words: `particle-filter`, `knn`, or `particle-filter 0.75 + knn 0.25`.
        public var estimator: String {
            if knnShare <= 0 { return "particle-filter" }
            if knnShare >= 1 { return "knn" }
            return "particle-filter \(Self.number(1 - knnShare)) + knn \(Self.number(knnShare))"
        }

        /// What was chosen and on what, in a sentence: "the answer is particle-filter 0.5 + knn 0.5, chosen on 900
        /// rows of the survey's walks (validated median 0.98 m; the filter alone 1.10 m, knn alone 1.05 m)".
        public var summary: String {
            var text = "the answer is \(estimator)"
            if knnShare > 0, knnReadsAnswerFilter { text += " (k-NN reading the engine's Kalman filter)" }
            text += ", chosen on \(rows) rows of the survey's walks"
            var parts: [String] = []
            if let chosen = validatedMedian { parts.append(String(format: "validated median %.2f m", chosen)) }
            if knnShare > 0, let filter = filterMedian {
                parts.append(String(format: "the filter alone %.2f m", filter))
            }
            if knnShare < 1, let k = shares.firstIndex(of: 1), let knn = medians[k] {
                parts.append(String(format: "knn alone %.2f m", knn))
            }
            if !parts.isEmpty { text += " (" + parts.joined(separator: "; ") + ")" }
            return text
        }

        static func number(_ value: Double) -> String { String(format: "%g", (value * 100).rounded() / 100) }
    }

    /// The share of k-NN for `survey`, or `nil` when its walks are too few (``TrackingValidation/minimumRows``).
    /// - Parameters:
    ///   - survey: Sightings with truth (`train/`).
    ///   - setup: What the engine and the filter are built from, the filter tuned as it will run (its evidence
    ///     weight chosen).
    ///   - progress: Told as each fold's replays end (phase `choosing the estimator on the survey's walks`).
    func choose(
        survey: Recording, setup: TrackingValidation.Setup, progress: LearningProgress? = nil
    ) -> Outcome? {
        let folds = tracking.folds
        let blocks = TrackingValidation.Blocks(survey: survey, seconds: tracking.blockSeconds)
        let walks = blocks.walks(travelling: tracking.minimumTravel, in: survey)
        guard walks.rows >= tracking.minimumRows else { return nil }
        progress?.begin("choosing the estimator on the survey's walks", parts: folds)
        let replays = ParallelWork.map(folds) { fold -> FoldReplay? in
            defer { progress?.finished() }
            return replay(fold: fold, of: survey, blocks: blocks, walks: walks.blocks, setup: setup)
        }
        var rows = FoldReplay(blocks: [], truth: [], filter: [], knn: [], answerFilterKNN: [])
        for case let fold? in replays {
            rows.blocks += fold.blocks
            rows.truth += fold.truth
            rows.filter += fold.filter
            rows.knn += fold.knn
            rows.answerFilterKNN += fold.answerFilterKNN
        }
        // Each share with k-NN through the filter's own readings, then through the answer filter's (where the engine
        // keeps one): the first that is best, beyond the replay's noise, is taken.
        let variants = setup.configuration.answerFilter == nil ? [false] : [false, true]
        let errors = variants.map { through in
            knnShares.map { share in rows.errors(knnShare: share, throughAnswerFilter: through) }
        }
        let medians = errors.map { perShare in
            perShare.map { list -> Double? in
                let sorted = list.compactMap { $0 }.sorted()
                return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
            }
        }
        guard let alone = knnShares.firstIndex(of: 0), let aloneMedian = medians[0][alone] else { return nil }
        var best = (variant: 0, share: alone)
        var bestMedian = aloneMedian
        for v in variants.indices {
            for (s, median) in medians[v].enumerated() where s != alone {
                guard let median, median < bestMedian else { continue }
                best = (v, s)
                bestMedian = median
            }
        }
        // Another answer than the filter's must beat it beyond the replay's own noise.
        if best.share != alone,
            TrackingValidation.pairedScore(
                errors[best.variant][best.share], against: errors[0][alone], blocks: rows.blocks) > -significance
        {
            best = (0, alone)
        }
        return Outcome(
            knnShare: knnShares[best.share], shares: knnShares, medians: medians[best.variant],
            rows: rows.blocks.count, knnReadsAnswerFilter: variants[best.variant])
    }

    /// One fold's replayed rows: each row's block, truth and the estimators' positions (`nil`: not located).
    struct FoldReplay: Sendable {
        var blocks: [Int]
        var truth: [Point2D]
        var filter: [Point2D?]
        /// k-NN through the filter's own readings.
        var knn: [Point2D?]
        /// k-NN through the answer filter's readings (``PositioningEngine/Configuration/answerFilter``); empty
        /// without one.
        var answerFilterKNN: [Point2D?]

        /// Each row's error with `knnShare` of k-NN's position (through the answer filter where
        /// `throughAnswerFilter`) and the rest of the filter's (either alone where the other did not answer).
        func errors(knnShare: Double, throughAnswerFilter: Bool = false) -> [Double?] {
            let knn = throughAnswerFilter && answerFilterKNN.count == truth.count ? answerFilterKNN : self.knn
            return truth.indices.map { i in
                guard let position = SurveyedAnswer.mixed(filter[i], knn[i], knnShare: knnShare) else { return nil }
                let error = position.distance(to: truth[i])
                return error.isFinite ? error : nil
            }
        }
    }

    /// The replay of `fold`'s walking blocks (at most ``TrackingValidation/blocksPerFold``) through the filter and
    /// k-NN learned from the other folds; `nil` when the fold has nothing to replay or nothing to learn from.
    private func replay(
        fold: Int, of survey: Recording, blocks: TrackingValidation.Blocks, walks: [Int],
        setup: TrackingValidation.Setup
    ) -> FoldReplay? {
        let folds = tracking.folds
        let replayed = TrackingValidation.evenlySpaced(
            walks.filter { $0 % folds == fold }, atMost: tracking.blocksPerFold)
        guard !replayed.isEmpty else { return nil }
        let training = Recording(
            sightings: survey.sightings.filter { blocks.block(of: $0.device, at: $0.time) % folds != fold },
            truth: survey.truth.filter { blocks.block(of: $0.device, at: $0.time) % folds != fold })
        guard !training.truth.isEmpty else { return nil }
        let fingerprints = MethodCatalog.surveyFingerprints(
            nodes: setup.nodes, survey: training, configuration: setup.configuration, calibration: setup.calibration)
        let map = RadioMap.surveyed(
            nodes: setup.nodes, fingerprints: fingerprints, calibration: setup.calibration, grid: setup.grid,
            configuration: setup.candidate.map)
        let filter = ParticleFilter(
            posterior: PosteriorGrid(map: map, configuration: setup.candidate.posterior), configuration: setup.filter,
            floorPlan: setup.floorPlan)
        let knn = FingerprintKNN(fingerprints: FingerprintKNN.averagedByPosition(fingerprints), k: 3)
        let held = blocks.recording(of: survey, blocks: Set(replayed))
        var methods: [any PositioningMethod] = [filter, knn]
        var own = setup.configuration
        own.answerFilter = nil
        var configurations = [own, own]
        // With an answer filter, k-NN also through it, its fingerprints made through it.
        if setup.configuration.answerFilter != nil {
            let answering = setup.configuration.answering
            let answerFilterPrints = MethodCatalog.surveyFingerprints(
                nodes: setup.nodes, survey: training, configuration: answering, calibration: setup.calibration)
            methods.append(FingerprintKNN(fingerprints: FingerprintKNN.averagedByPosition(answerFilterPrints), k: 3))
            configurations.append(answering)
        }
        let positions = ParallelWork.map(methods.count) { [methods, configurations] m in
            Self.positions(
                held.recording,
                engine: PositioningEngine(
                    nodes: setup.nodes, method: methods[m], configuration: configurations[m],
                    calibration: setup.calibration))
        }
        return FoldReplay(
            blocks: held.blocks, truth: held.recording.truth.map(\.point), filter: positions[0], knn: positions[1],
            answerFilterKNN: positions.count > 2 ? positions[2] : [])
    }

    /// The horizontal position answered at each of `recording`'s truth rows in time order (`nil`: not located), each
    /// from the sightings up to its time.
    static func positions(_ recording: Recording, engine: PositioningEngine) -> [Point2D?] {
        TrackingValidation.replayFixes(recording, engine: engine) { fix, _ in fix.position.horizontal }
    }
}
