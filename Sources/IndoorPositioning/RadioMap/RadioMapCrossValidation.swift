import Foundation
import IndoorModel

/// Chooses a radio map's kernel and a ``PosteriorGrid``'s weighting on a survey alone, by cross-validation.
///
/// The survey's fingerprints are pooled into square blocks of ``blockSize`` metres; the blocks are dealt into
/// ``folds`` folds in a seeded shuffle (``SplitMix64``). For each fold a map is learned from the other folds and the
/// held-out fingerprints (at most ``samplesPerFold``, evenly spaced) are located with every candidate; the candidate
/// with the lowest median error over all folds wins (ties to the earlier candidate). Nothing outside the survey is
/// looked at, so the choice can be reported honestly as made on `train/`. The folds run on the available cores
/// (`ParallelWork`), merged in fold order: the same choice as one after the other.
public struct RadioMapCrossValidation: Sendable {
    /// One candidate: a map kernel and a weighting.
    public struct Candidate: Hashable, Sendable {
        /// The map's kernel.
        public var map: RadioMap.SurveyConfiguration
        /// The posterior's weighting.
        public var posterior: PosteriorGrid.Configuration

        /// A candidate of `map` and `posterior`.
        public init(map: RadioMap.SurveyConfiguration, posterior: PosteriorGrid.Configuration) {
            self.map = map
            self.posterior = posterior
        }
    }

    /// The candidates compared, in order.
    public var candidates: [Candidate]
    /// The shares of k-NN fingerprinting blended into each candidate's answer compared (0: the posterior alone).
    public var knnShares: [Double]
    /// How many folds.
    public var folds: Int
    /// Side of the blocks dealt into folds, metres.
    public var blockSize: Double
    /// Held-out fingerprints located per fold, at most.
    public var samplesPerFold: Int
    /// Grid spacing of the maps learned in the folds, metres (coarser than the final map's, for speed).
    public var spacing: Double
    /// The seed of the shuffle of blocks.
    public var seed: UInt64

    /// - Parameters:
    ///   - candidates: The candidates (default ``standardCandidates``).
    ///   - knnShares: Shares of k-NN blended in (default 0, ¼ and ⅓; values outside 0…1 are left out).
    ///   - folds: Number of folds (default 5, at least 2).
    ///   - blockSize: Metres of the blocks (default 1).
    ///   - samplesPerFold: Located fingerprints per fold (default 80).
    ///   - spacing: The folds' grid spacing, metres (default 0.5).
    ///   - seed: The shuffle's seed (default 1).
    public init(
        candidates: [Candidate] = RadioMapCrossValidation.standardCandidates, knnShares: [Double] = [0, 0.25, 1.0 / 3],
        folds: Int = 5, blockSize: Double = 1,
        samplesPerFold: Int = 80, spacing: Double = 0.5, seed: UInt64 = 1
    ) {
        self.candidates = candidates
        let shares = knnShares.filter { $0.isFinite && $0 >= 0 && $0 <= 1 }
        self.knnShares = shares.isEmpty ? [0] : shares
        self.folds = max(2, folds)
        self.blockSize = blockSize.isFinite && blockSize > 0 ? blockSize : 1
        self.samplesPerFold = max(1, samplesPerFold)
        self.spacing = spacing.isFinite && spacing > 0 ? spacing : 0.5
        self.seed = seed
    }

    /// Kernel lengths 0.5, 1 and 2 m × model variances 0, 4 and 16 dB² × temperatures 0.25, 0.5, 1 and 2 × offset
    /// priors 2 and 6 dB × the unheard nodes' term on or off, each map's normalising term weighted by
    /// ``standardLogVarianceWeight`` and each posterior's Student-t of ``standardDegreesOfFreedom``.
    public static let standardCandidates = candidates(lengthScales: standardLengthScales)

    /// The kernel lengths of ``standardCandidates``, metres: 0.5, 1 and 2 (chosen with each real dataset held out in
    /// turn: docs/notes/leave-one-venue-out-parameters.md).
    static let standardLengthScales = [0.5, 1, 2]

    /// The weight of the maps' normalising term ½ ln(variance) in ``standardCandidates`` (``RadioMap/logVarianceWeight``):
    /// 2, twice the likelihood's own, so a cell the survey covers thinly needs a better fit to win (chosen with each
    /// real dataset held out in turn: docs/notes/leave-one-venue-out-parameters.md).
    static let standardLogVarianceWeight = 2.0

    /// The Student-t degrees of freedom of the posteriors in ``standardCandidates``
    /// (``PosteriorGrid/Configuration/degreesOfFreedom``): 8, lighter tails than the posterior's own default of 4
    /// (chosen with each real dataset held out in turn: docs/notes/leave-one-venue-out-parameters.md).
    static let standardDegreesOfFreedom = 8.0

    /// The grid of ``standardCandidates`` with the kernel lengths `lengthScales` (metres) instead of 0.5, 1 and 2, and
    /// the maps' normalising term weighted by `logVarianceWeight`.
    static func candidates(
        lengthScales: [Double], logVarianceWeight: Double = standardLogVarianceWeight
    ) -> [Candidate] {
        var result: [Candidate] = []
        for length in lengthScales {
            for variance in [0.0, 4, 16] {
                for temperature in [0.25, 0.5, 1, 2] {
                    for offset in [2.0, 6] {
                        for missing in [1.0, 0] {
                            result.append(
                                Candidate(
                                    map: RadioMap.SurveyConfiguration(
                                        lengthScale: length, modelVariance: variance,
                                        logVarianceWeight: logVarianceWeight),
                                    posterior: PosteriorGrid.Configuration(
                                        temperature: temperature, offsetSigma: offset, missingWeight: missing,
                                        degreesOfFreedom: standardDegreesOfFreedom)))
                        }
                    }
                }
            }
        }
        return result
    }

    /// What the cross-validation found.
    public struct Outcome: Hashable, Sendable {
        /// The winning candidate.
        public var best: Candidate
        /// The winning share of k-NN blended in (0…1).
        public var knnShare: Double
        /// The median held-out error of each (candidate, share), metres, candidate-major (`nil`: nothing located).
        public var medians: [Double?]
        /// Fingerprints located per candidate.
        public var located: Int
        /// The winning candidate's held-out errors, each divided by the root-mean-square radius its posterior stated
        /// (the estimate's accuracy), in ascending order: how far the posterior's own spread undersells or oversells
        /// its errors on this survey (the posterior's mean, without the k-NN share).
        public var spreadRatios: [Double]

        /// What was chosen and on what, in a sentence: "radio map kernel 2 m, model variance 4 dB², temperature 0.5,
        /// receiver offset prior 6 dB, unheard nodes counted, chosen by cross-validation on the survey (held-out
        /// median 1.42 m over 400 fingerprints)".
        public var summary: String {
            func number(_ value: Double) -> String { String(format: "%g", value) }
            let map = best.map
            let weighting = best.posterior
            var text =
                "radio map kernel \(number(map.lengthScale)) m, model variance \(number(map.modelVariance)) dB², "
            if map.logVarianceWeight != 1 { text += "log-variance weight \(number(map.logVarianceWeight)), " }
            text +=
                "temperature \(number(weighting.temperature)), receiver offset prior \(number(weighting.offsetSigma)) dB, "
            text += weighting.missingWeight > 0 ? "unheard nodes counted" : "unheard nodes not counted"
            text += ", chosen by cross-validation on the survey"
            if let median = medians.compactMap({ $0 }).min() {
                text += String(format: " (held-out median %.2f m over %d fingerprints)", median, located)
            }
            return text
        }

        /// The factor on the radius that holds `coverage` (0…1) of a 2-D Gaussian with the posterior's spread
        /// (√(−ln(1 − coverage)) times its root-mean-square radius) for that radius to hold `coverage` of the held-out
        /// fingerprints: their ratios' `coverage` quantile over the Gaussian's, within 0.25…4; `nil` without ratios.
        func radiusFactor(coverage: Double) -> Double? {
            let share = coverage.isFinite ? min(max(coverage, 0.01), 0.99) : 0.68
            guard !spreadRatios.isEmpty else { return nil }
            let quantile = spreadRatios[Int((Double(spreadRatios.count - 1) * share).rounded())]
            return min(max(quantile / (-Foundation.log(1 - share)).squareRoot(), 0.25), 4)
        }
    }

    /// The best candidate for `fingerprints`, or `nil` when the survey has fewer than two blocks.
    /// - Parameters:
    ///   - nodes: The fixed radios.
    ///   - fingerprints: The survey's fingerprints.
    ///   - calibration: The path-loss model the maps correct.
    ///   - grid: The final grid (the folds use it at ``spacing``).
    ///   - progress: Told as each fold's map of each kernel is scored (phase `radio map cross-validation`).
    public func choose(
        nodes: [Node], fingerprints: [Fingerprint], calibration: Calibration, grid: RadioMap.Grid,
        progress: LearningProgress? = nil
    ) -> Outcome? {
        struct Key: Hashable {
            var floor: Int?
            var x: Int
            var y: Int
        }
        var blockOf: [Key: Int] = [:]
        var blocks: [[Int]] = []
        for (i, fingerprint) in fingerprints.enumerated() {
            let p = fingerprint.position
            guard p.x.isFinite, p.y.isFinite, abs(p.x) < 1e9, abs(p.y) < 1e9 else { continue }
            let key = Key(
                floor: fingerprint.floor, x: Int((p.x / blockSize).rounded(.down)),
                y: Int((p.y / blockSize).rounded(.down)))
            if let b = blockOf[key] {
                blocks[b].append(i)
            } else {
                blockOf[key] = blocks.count
                blocks.append([i])
            }
        }
        guard blocks.count >= 2 else { return nil }
        var random = SplitMix64(seed: seed)
        var order = Array(blocks.indices)
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, random.index(below: i + 1)) }
        let foldCount = min(folds, blocks.count)
        var foldOf = [Int](repeating: 0, count: fingerprints.count)
        for (rank, b) in order.enumerated() {
            for i in blocks[b] { foldOf[i] = rank % foldCount }
        }
        var coarse = grid
        coarse.spacing = max(grid.spacing, spacing)
        let lengths = Array(Set(candidates.map(\.map))).sorted {
            ($0.lengthScale, $0.priorWeight) < ($1.lengthScale, $1.priorWeight)
        }
        let shareCount = knnShares.count
        progress?.begin("radio map cross-validation", parts: foldCount * lengths.count)
        // Per fold, on the available cores: each (candidate, k-NN share)'s errors on the fold's held-out fingerprints,
        // and each candidate's errors over its stated radius.
        let perFold = ParallelWork.map(foldCount) { [foldOf, coarse] fold -> (errors: [[Double]], ratios: [[Double]]) in
            var errors = [[Double]](repeating: [], count: candidates.count * shareCount)
            var ratios = [[Double]](repeating: [], count: candidates.count)
            let training = fingerprints.indices.filter { foldOf[$0] != fold }.map { fingerprints[$0] }
            let held = fingerprints.indices.filter { foldOf[$0] == fold }
            guard !training.isEmpty, !held.isEmpty else {
                progress?.finished(lengths.count)
                return (errors, ratios)
            }
            let stride = max(1, held.count / samplesPerFold)
            let tested = Swift.stride(from: 0, to: held.count, by: stride).map { fingerprints[held[$0]] }
            let queries = tested.map { fingerprint -> [NodeReading] in
                fingerprint.rssi.keys.sorted().compactMap { id in
                    guard let rssi = fingerprint.rssi[id], let node = nodes.first(where: { $0.id == id }) else {
                        return nil
                    }
                    return NodeReading(node: node, rssi: rssi, distance: 1, distanceVariance: 1, lastHeard: 0)
                }.sorted { $0.rssi > $1.rssi }
            }
            let knn = FingerprintKNN(fingerprints: FingerprintKNN.averagedByPosition(training), k: 3)
            let neighbours = queries.map { query -> Point2D? in
                guard !query.isEmpty, case .success(let estimate) = knn.estimate(from: query) else { return nil }
                return estimate.position.horizontal
            }
            for length in lengths {
                let map = RadioMap.surveyed(
                    nodes: nodes, fingerprints: training, calibration: calibration, grid: coarse,
                    configuration: length)
                // Candidates differing only in temperature and the unheard term share the likelihood terms.
                var groups: [PosteriorGrid.Configuration: [Int]] = [:]
                var groupOrder: [PosteriorGrid.Configuration] = []
                for (c, candidate) in candidates.enumerated() where candidate.map == length {
                    var key = candidate.posterior
                    key.temperature = 1
                    key.missingWeight = 0
                    if groups[key] == nil { groupOrder.append(key) }
                    groups[key, default: []].append(c)
                }
                for key in groupOrder {
                    let method = PosteriorGrid(map: map, configuration: key)
                    for (q, query) in queries.enumerated() where !query.isEmpty {
                        guard let terms = method.likelihoodTerms(query) else { continue }
                        let truth = tested[q].position.horizontal
                        for c in groups[key] ?? [] {
                            let posterior = candidates[c].posterior
                            guard
                                case .success(let estimate) = method.estimate(
                                    fit: terms.fit, unheard: terms.unheard, temperature: posterior.temperature,
                                    missingWeight: posterior.missingWeight)
                            else { continue }
                            let p = estimate.position.horizontal
                            if estimate.accuracy > 0 { ratios[c].append(p.distance(to: truth) / estimate.accuracy) }
                            for (s, share) in knnShares.enumerated() {
                                let blended = neighbours[q].map { p.interpolated(to: $0, fraction: share) } ?? p
                                errors[c * shareCount + s].append(blended.distance(to: truth))
                            }
                        }
                    }
                }
                progress?.finished()
            }
            return (errors, ratios)
        }
        // The folds in order, as if run one after the other.
        var errors = [[Double]](repeating: [], count: candidates.count * shareCount)
        var ratios = [[Double]](repeating: [], count: candidates.count)
        for fold in perFold {
            for index in errors.indices where fold.errors.indices.contains(index) {
                errors[index] += fold.errors[index]
            }
            for index in ratios.indices where fold.ratios.indices.contains(index) {
                ratios[index] += fold.ratios[index]
            }
        }
        let medians = errors.map { list -> Double? in
            guard !list.isEmpty else { return nil }
            let sorted = list.sorted()
            return sorted[(sorted.count - 1) / 2]
        }
        var best = 0
        for c in medians.indices {
            guard let m = medians[c] else { continue }
            if medians[best] == nil || m < (medians[best] ?? .infinity) { best = c }
        }
        guard medians[best] != nil else { return nil }
        return Outcome(
            best: candidates[best / shareCount], knnShare: knnShares[best % shareCount], medians: medians,
            located: errors[best].count, spreadRatios: ratios[best / shareCount].filter(\.isFinite).sorted())
    }
}
