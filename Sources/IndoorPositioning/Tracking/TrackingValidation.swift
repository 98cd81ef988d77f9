import Foundation
import IndoorModel

/// Chooses how much one update of a ``ParticleFilter`` counts (``ParticleFilter/Configuration/evidenceWeight``) on a
/// venue's own survey, by replaying the survey's walks.
///
/// Successive updates of a walker are not independent: the readings of one second share the slow shadowing of the
/// seconds before, by a venue's own amount. How much the filter should trust each update therefore differs between
/// venues (on the development sets, simulated offices wanted 0.7 and a furnished flat's robot paths 0.25–0.35), and
/// only a walk with truth can tell which.
///
/// Each survey device's time is cut into blocks of ``blockSeconds``; the blocks are dealt in turn into ``folds``
/// folds. For each fold a radio map is learned from the other folds' fingerprints (with the kernel and weighting the
/// survey's ``RadioMapCrossValidation`` chose), and the fold's walks (blocks whose truth travels at least
/// ``minimumTravel`` metres) are replayed through a ``PositioningEngine`` with a filter of each of ``evidenceWeights``:
/// each block as a new device (no history, no known receiver offset), located at each of its truth rows from its
/// sightings up to then. The weight with the lowest median error over all replayed rows is taken when it beats the
/// filter's default by ``significance`` standard errors or more (``pairedScore(_:against:blocks:)``, over blocks:
/// a survey's few hundred seconds of walk make medians a few percent apart mere noise); otherwise the default stays.
/// With another weight the accuracy radius is rescaled so that it keeps the default's meaning
/// (``Outcome/radiusScale``). Nothing outside the survey is looked at, so the choice is made on `train/` alone.
///
/// A survey without walks (static fingerprints, one scan per point) or with fewer than ``minimumRows`` replayed rows
/// gives no choice (`nil`): the filter keeps its default. The folds, and each fold's replays, run on the available
/// cores (`ParallelWork`), merged in order: the same choice as one after the other.
struct TrackingValidation: Hashable, Sendable {
    /// The evidence weights compared, in order.
    var evidenceWeights: [Double]
    /// How many folds.
    var folds: Int
    /// Seconds of a device's time per block dealt into the folds.
    var blockSeconds: Double
    /// The distance a block's truth must travel to count as a walk, metres.
    var minimumTravel: Double
    /// The fewest walking truth rows for a choice.
    var minimumRows: Int
    /// The most walking blocks replayed per fold, evenly spaced among the fold's: the work stays bounded however long
    /// the survey (40 blocks of 30 s are 20 minutes of walk per fold).
    var blocksPerFold: Int
    /// How many standard errors lower the best weight's replay errors must be than those of the filter's default
    /// weight for the best to be taken (``pairedScore(_:against:blocks:)``); otherwise the default stays.
    var significance: Double

    /// - Parameters:
    ///   - evidenceWeights: The weights compared (default 0.18, 0.25, 0.35, 0.5, 0.7 and 1: steps of about √2;
    ///     values that are not positive and finite are left out).
    ///   - folds: Number of folds (default 3, at least 2).
    ///   - blockSeconds: Seconds per block (default 30).
    ///   - minimumTravel: Metres a block's truth travels to count as a walk (default 1).
    ///   - minimumRows: The fewest walking rows for a choice (default 50: on development surveys of 33 rows the
    ///     choice took k-NN shares that cost up to 0.8 m, on 45–91 rows it never did harm;
    ///     docs/notes/auto-small-and-offset-surveys.md).
    ///   - blocksPerFold: The most blocks replayed per fold (default 40).
    ///   - significance: Standard errors by which the best weight must beat the default (default 2).
    init(
        evidenceWeights: [Double] = [0.18, 0.25, 0.35, 0.5, 0.7, 1], folds: Int = 3, blockSeconds: Double = 30,
        minimumTravel: Double = 1, minimumRows: Int = 50, significance: Double = 2, blocksPerFold: Int = 40
    ) {
        self.blocksPerFold = max(1, blocksPerFold)
        self.significance = significance.isNaN ? 2 : max(0, significance)
        let weights = evidenceWeights.filter { $0.isFinite && $0 > 0 }
        self.evidenceWeights = weights.isEmpty ? [ParticleFilter.Configuration().evidenceWeight] : weights
        self.folds = max(2, folds)
        self.blockSeconds = blockSeconds.isFinite && blockSeconds > 0 ? blockSeconds : 30
        self.minimumTravel = minimumTravel.isFinite ? max(0, minimumTravel) : 1
        self.minimumRows = max(1, minimumRows)
    }

    /// What the replay found.
    struct Outcome: Hashable, Sendable {
        /// The winning evidence weight.
        public var evidenceWeight: Double
        /// The factor on the filter's accuracy radius (``ParticleFilter/Configuration/radiusScale``) that keeps the
        /// radius's meaning when the weight changes: on the replay, the ratio of the default weight's
        /// error-to-radius quantile at the filter's ``ParticleFilter/Configuration/coverage`` to the winner's (a
        /// lower weight spreads the cloud, and so the radius, without the errors growing alike). 1 when the default
        /// wins.
        var radiusScale: Double
        /// The weights compared, in order.
        public var weights: [Double]
        /// The filter's default weight, which another must beat.
        public var standard: Double
        /// The median error of each of ``weights``' replays, metres (`nil`: nothing located).
        var medians: [Double?]
        /// Truth rows replayed (located or not) per weight.
        public var rows: Int
        /// Truth rows of the survey's walks (at least ``rows``: longer surveys are replayed in part).
        var walkingRows: Int

        /// What was chosen and on what, in a sentence: "each update of the filter counts 0.18, chosen on 2024 rows of
        /// the survey's walks (median 0.95 m against 1.03 m at 0.5); accuracy radius × 0.62".
        public var summary: String {
            func metres(_ weight: Double) -> String? {
                guard let w = weights.firstIndex(of: weight), medians.indices.contains(w), let m = medians[w] else {
                    return nil
                }
                return String(format: "%.2f m", m)
            }
            var text =
                "each update of the filter counts \(evidenceWeight), chosen on \(rows) rows of the survey's walks"
            if evidenceWeight != standard, let chosen = metres(evidenceWeight), let other = metres(standard) {
                text += " (median \(chosen) against \(other) at \(standard))"
            } else if evidenceWeight == standard {
                text += " (no other weight was clearly better)"
            }
            if radiusScale != 1 { text += String(format: "; accuracy radius × %.2f", radiusScale) }
            return text
        }
    }

    /// What the engine and the filter are built from.
    struct Setup: Sendable {
        /// The fixed radios.
        var nodes: [Node]
        /// The path-loss model the maps correct (fitted on the whole survey).
        var calibration: Calibration
        /// The engine tuning live data will see (its reading filter included).
        var configuration: PositioningEngine.Configuration
        /// The grid of the maps.
        var grid: RadioMap.Grid
        /// The map kernel and weighting chosen on the survey.
        var candidate: RadioMapCrossValidation.Candidate
        /// The filter's tuning but for the evidence weight.
        var filter: ParticleFilter.Configuration
        /// The venue's walls and floor connections.
        var floorPlan: FloorPlan?
    }

    /// Why ``choose(survey:setup:)`` gave no choice on `survey`, in a sentence for reports, the filter keeping its
    /// default weight `standard`: "the filter's evidence weight stays 0.5: the survey has 0 rows of walks (…), 100
    /// needed to choose another".
    func unchosenNote(survey: Recording, standard: Double) -> String {
        let walks = Blocks(survey: survey, seconds: blockSeconds).walks(travelling: minimumTravel, in: survey)
        let stays = "the filter's evidence weight stays \(standard)"
        guard walks.rows >= minimumRows else {
            let blocks = String(format: "%g s", blockSeconds)
            let metres = String(format: "%g m", minimumTravel)
            return
                "\(stays): the survey has \(walks.rows) rows of walks (truth travelling \(metres) or more in \(blocks)),"
                + " \(minimumRows) needed to choose another"
        }
        return "\(stays): no replay of the survey's \(walks.rows) rows of walks was located"
    }

    /// The best evidence weight for `survey`'s walks, or `nil` when they are too few (see ``minimumRows``).
    /// - Parameter progress: Told as each fold's replay with each weight ends (phase `replaying the survey's walks`).
    func choose(survey: Recording, setup: Setup, progress: LearningProgress? = nil) -> Outcome? {
        let blocks = Blocks(survey: survey, seconds: blockSeconds)
        let walks = blocks.walks(travelling: minimumTravel, in: survey)
        guard walks.rows >= minimumRows else { return nil }
        let weightCount = evidenceWeights.count
        progress?.begin("replaying the survey's walks", parts: folds * weightCount)
        // Per weight, each replayed row's error and radius (`nil`: not located), rows in the same order for every
        // weight.
        // Per fold, on the available cores: the replayed rows' blocks and, per weight, each row's error and radius
        // (`nil`: not located), rows in the same order for every weight; `nil` for a fold with nothing to replay.
        let replays = ParallelWork.map(folds) { fold -> (blocks: [Int], fixes: [[(error: Double, radius: Double)?]])? in
            let replayed = Self.evenlySpaced(walks.blocks.filter { $0 % folds == fold }, atMost: blocksPerFold)
            guard !replayed.isEmpty else {
                progress?.finished(weightCount)
                return nil
            }
            let training = Recording(
                sightings: survey.sightings.filter { blocks.block(of: $0.device, at: $0.time) % folds != fold },
                truth: survey.truth.filter { blocks.block(of: $0.device, at: $0.time) % folds != fold })
            guard !training.truth.isEmpty else {
                progress?.finished(weightCount)
                return nil
            }
            let fingerprints = MethodCatalog.surveyFingerprints(
                nodes: setup.nodes, survey: training, configuration: setup.configuration,
                calibration: setup.calibration)
            let map = RadioMap.surveyed(
                nodes: setup.nodes, fingerprints: fingerprints, calibration: setup.calibration, grid: setup.grid,
                configuration: setup.candidate.map)
            let posterior = PosteriorGrid(map: map, configuration: setup.candidate.posterior)
            let held = blocks.recording(of: survey, blocks: Set(replayed))
            let fixes = ParallelWork.map(evidenceWeights.count) { w in
                var tuning = setup.filter
                tuning.evidenceWeight = evidenceWeights[w]
                let filter = ParticleFilter(posterior: posterior, configuration: tuning, floorPlan: setup.floorPlan)
                let fixes = Self.replay(
                    held.recording,
                    engine: PositioningEngine(
                        nodes: setup.nodes, method: filter, configuration: setup.configuration,
                        calibration: setup.calibration))
                progress?.finished()
                return fixes
            }
            return (held.blocks, fixes)
        }
        // The folds in order, as if replayed one after the other.
        var fixes = [[(error: Double, radius: Double)?]](repeating: [], count: evidenceWeights.count)
        var rowBlocks: [Int] = []
        for case let fold? in replays {
            rowBlocks += fold.blocks
            for w in fixes.indices where fold.fixes.indices.contains(w) { fixes[w] += fold.fixes[w] }
        }
        let replayedRows = rowBlocks.count
        let errors = fixes.map { $0.map { $0?.error } }
        let medians = errors.map { list -> Double? in
            let sorted = list.compactMap { $0 }.sorted()
            return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
        }
        var best: Int?
        for (w, median) in medians.enumerated() {
            guard let median else { continue }
            if let b = best, let bestMedian = medians[b], bestMedian <= median { continue }
            best = w
        }
        guard var best else { return nil }
        var radiusScale = 1.0
        // Another weight than the filter's default must beat it beyond the replay's own noise.
        if let standard = evidenceWeights.firstIndex(of: setup.filter.evidenceWeight), standard != best,
            medians[standard] != nil
        {
            if Self.pairedScore(errors[best], against: errors[standard], blocks: rowBlocks) > -significance {
                best = standard
            } else if let old = Self.radiusQuantile(fixes[standard], share: setup.filter.coverage),
                let new = Self.radiusQuantile(fixes[best], share: setup.filter.coverage), old > 0, new > 0
            {
                radiusScale = min(max(new / old, 0.25), 4)
            }
        }
        return Outcome(
            evidenceWeight: evidenceWeights[best], radiusScale: radiusScale, weights: evidenceWeights,
            standard: setup.filter.evidenceWeight, medians: medians, rows: replayedRows, walkingRows: walks.rows)
    }

    /// At most `count` of `items`, evenly spaced from the first (all of them when they are no more).
    static func evenlySpaced(_ items: [Int], atMost count: Int) -> [Int] {
        guard items.count > count, count > 0 else { return items }
        return (0..<count).map { items[$0 * items.count / count] }
    }

    /// The `share` quantile of the located rows' error-to-radius ratios; `nil` when no row has a positive radius.
    static func radiusQuantile(_ fixes: [(error: Double, radius: Double)?], share: Double) -> Double? {
        let ratios = fixes.compactMap { fix -> Double? in
            guard let fix, fix.radius > 0 else { return nil }
            let ratio = fix.error / fix.radius
            return ratio.isFinite ? ratio : nil
        }.sorted()
        guard !ratios.isEmpty else { return nil }
        return ratios[Int((Double(ratios.count - 1) * min(max(share, 0), 1)).rounded())]
    }

    /// How much lower `errors` are than `baseline` on the same rows, in standard errors: the mean over blocks of each
    /// block's mean difference (rows located by both), divided by its standard error over the blocks (rows of one
    /// block are seconds apart and far from independent). Negative when `errors` are lower; 0 with fewer than two
    /// blocks; infinite when every block differs by the same amount.
    static func pairedScore(_ errors: [Double?], against baseline: [Double?], blocks: [Int]) -> Double {
        var sums: [Int: (total: Double, count: Int)] = [:]
        for i in 0..<min(errors.count, baseline.count, blocks.count) {
            guard let a = errors[i], let b = baseline[i] else { continue }
            let old = sums[blocks[i], default: (0, 0)]
            sums[blocks[i]] = (old.total + a - b, old.count + 1)
        }
        // In block order: a dictionary's order changes between runs, and so would the sums' last bits.
        let means = sums.sorted { $0.key < $1.key }.map { $0.value.total / Double($0.value.count) }
        guard means.count >= 2 else { return 0 }
        let n = Double(means.count)
        let mean = means.reduce(0, +) / n
        let variance = means.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        // The same difference in every block: as sure as the replay can be.
        guard variance > 0 else { return mean == 0 ? 0 : mean < 0 ? -.infinity : .infinity }
        return mean / (variance / n).squareRoot()
    }

    /// The horizontal error and the accuracy radius (metres) of each of `recording`'s truth rows in time order (`nil`:
    /// not located): each row answered from the sightings up to its time, as `indoor evaluate` does.
    static func replay(_ recording: Recording, engine: PositioningEngine) -> [(error: Double, radius: Double)?] {
        replayFixes(recording, engine: engine) { fix, row in
            let error = fix.position.horizontal.distance(to: row.point)
            return error.isFinite ? (error, fix.accuracy) : nil
        }
    }

    /// What `answer` makes of the fix of each of `recording`'s truth rows in time order (`nil`: not located), each
    /// fix made from the sightings up to the row's time.
    static func replayFixes<Answer>(
        _ recording: Recording, engine: PositioningEngine, _ answer: (Fix, TruthPoint) -> Answer?
    ) -> [Answer?] {
        var engine = engine
        let sightings = recording.sightings.sorted { $0.time < $1.time }
        var next = 0
        var answers: [Answer?] = []
        answers.reserveCapacity(recording.truth.count)
        for row in recording.truth {
            while next < sightings.count, sightings[next].time <= row.time {
                engine.ingest(sightings[next])
                next += 1
            }
            guard case .success(let fix) = engine.locate(device: row.device, at: row.time) else {
                answers.append(nil)
                continue
            }
            answers.append(answer(fix, row))
        }
        return answers
    }
}

extension TrackingValidation {
    /// A survey's devices' time cut into blocks: block `k` of a device holds its time from its first sighting or truth
    /// row + k × `seconds`, for `seconds`.
    struct Blocks {
        /// Each device's first time, seconds.
        let start: [String: Double]
        let seconds: Double
        /// Every block's number, per device, in one sequence: the device's blocks follow the devices before it.
        let first: [String: Int]

        init(survey: Recording, seconds: Double) {
            var start: [String: Double] = [:]
            var last: [String: Double] = [:]
            for (device, time) in survey.sightings.map({ ($0.device, $0.time) })
                + survey.truth.map({
                    ($0.device, $0.time)
                }) where time.isFinite
            {
                start[device] = min(start[device] ?? time, time)
                last[device] = max(last[device] ?? time, time)
            }
            self.start = start
            self.seconds = seconds
            var first: [String: Int] = [:]
            var total = 0
            for device in start.keys.sorted() {
                first[device] = total
                let span = (last[device] ?? 0) - (start[device] ?? 0)
                total += Int(min((span / seconds).rounded(.down), 1e9)) + 1
            }
            self.first = first
        }

        /// The block of `device` at `time` (numbered across devices); -1 for a device or time not seen.
        func block(of device: String, at time: Double) -> Int {
            guard let begin = start[device], let base = first[device], time.isFinite else { return -1 }
            return base + Int(min(((time - begin) / seconds).rounded(.down), 1e9))
        }

        /// The blocks whose truth travels at least `metres` (summed between consecutive rows), and their rows.
        func walks(travelling metres: Double, in survey: Recording) -> (blocks: [Int], rows: Int) {
            var rows: [Int: [TruthPoint]] = [:]
            for row in survey.truth {
                let b = block(of: row.device, at: row.time)
                if b >= 0 { rows[b, default: []].append(row) }
            }
            var blocks: [Int] = []
            var count = 0
            for (b, points) in rows.sorted(by: { $0.key < $1.key }) {
                let path = points.sorted { $0.time < $1.time }
                var travel = 0.0
                for i in path.indices.dropFirst() { travel += path[i].point.distance(to: path[i - 1].point) }
                guard path.count >= 2, travel >= metres else { continue }
                blocks.append(b)
                count += path.count
            }
            return (blocks, count)
        }

        /// The part of `survey` in `blocks`, each block as a device of its own (`device#block`), its truth in time
        /// order, and each truth row's block.
        func recording(of survey: Recording, blocks: Set<Int>) -> (recording: Recording, blocks: [Int]) {
            var sightings: [Sighting] = []
            for var sighting in survey.sightings {
                let b = block(of: sighting.device, at: sighting.time)
                guard blocks.contains(b) else { continue }
                sighting.device += "#\(b)"
                sightings.append(sighting)
            }
            var truth: [(row: TruthPoint, block: Int)] = []
            for var row in survey.truth {
                let b = block(of: row.device, at: row.time)
                guard blocks.contains(b) else { continue }
                row.device += "#\(b)"
                truth.append((row, b))
            }
            truth.sort { $0.row.time < $1.row.time }
            return (Recording(sightings: sightings, truth: truth.map(\.row)), truth.map(\.block))
        }
    }
}
