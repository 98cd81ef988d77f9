import Foundation
import IndoorModel

extension RadioMap {
    /// How a survey corrects the path-loss model.
    public struct SurveyConfiguration: Hashable, Sendable {
        /// The Gaussian kernel's length, metres: how far a surveyed residual carries.
        public var lengthScale: Double
        /// Fingerprints within a square of this side (metres) are pooled into one surveyed point.
        public var binSize: Double
        /// How much kernel weight a grid point needs before the survey outweighs the model (the prior's strength).
        public var priorWeight: Double
        /// Variance added everywhere, dB²: how much live readings (a moving, turning carrier) stray from the survey's
        /// static means beyond the survey's own noise.
        public var modelVariance: Double
        /// The weight of each level's ½ ln(variance) in the likelihood (``RadioMap/logVarianceWeight``): above 1, a
        /// cell the survey covers thinly (its variance larger) weighs less for the same fit, so answers lean towards
        /// where the survey measured.
        public var logVarianceWeight: Double

        /// - Parameters:
        ///   - lengthScale: Metres a residual carries (default 2; non-positive or non-finite: 2).
        ///   - binSize: Metres of the squares fingerprints are pooled in (default 0.5).
        ///   - priorWeight: The model's weight against the survey's kernel weights (default 0.25).
        ///   - modelVariance: dB² added to every variance (default 4).
        ///   - logVarianceWeight: The normalising term's weight (default 1; negative or non-finite: 1).
        public init(
            lengthScale: Double = 2, binSize: Double = 0.5, priorWeight: Double = 0.25, modelVariance: Double = 4,
            logVarianceWeight: Double = 1
        ) {
            self.modelVariance = modelVariance.isFinite && modelVariance >= 0 ? modelVariance : 4
            self.logVarianceWeight = logVarianceWeight.isFinite && logVarianceWeight >= 0 ? logVarianceWeight : 1
            self.lengthScale = lengthScale.isFinite && lengthScale > 0 ? lengthScale : 2
            self.binSize = binSize.isFinite && binSize > 0 ? binSize : 0.5
            self.priorWeight = priorWeight.isFinite && priorWeight > 0 ? priorWeight : 0.25
        }
    }

    /// One pooled surveyed point: its mean position and, per node, the residual sums and how often it was heard.
    struct SurveyBin {
        var x = 0.0
        var y = 0.0
        var z = 0.0
        var floor: Int?
        var count = 0
        var residualSum: [Double]
        var residualSquares: [Double]
        var heard: [Int]

        init(nodes: Int, floor: Int?) {
            self.floor = floor
            residualSum = [Double](repeating: 0, count: nodes)
            residualSquares = residualSum
            heard = [Int](repeating: 0, count: nodes)
        }
    }

    /// The path-loss model of `calibration` corrected by survey `fingerprints` (path loss plus interpolated residual).
    ///
    /// Fingerprints are pooled per square of ``SurveyConfiguration/binSize``; per node, the pooled residuals about the
    /// path-loss model are spread over the grid with a Gaussian kernel of ``SurveyConfiguration/lengthScale``, weighed
    /// against ``SurveyConfiguration/priorWeight`` (so far from the survey the map is the model). The variance is the
    /// node's noise within a surveyed point plus its residual variance scaled by how little the survey covers the cell;
    /// the chance of hearing a node is the surveyed rate, blended the same way with the model's (``Detection``, its
    /// level the 1st percentile of the surveyed RSSI).
    /// - Parameters:
    ///   - nodes: The fixed radios.
    ///   - fingerprints: Survey samples (``FingerprintKNN/survey(nodes:recording:configuration:calibration:spacing:)``).
    ///   - calibration: The path-loss model corrected.
    ///   - grid: Where the grid lies.
    ///   - configuration: Kernel and pooling.
    /// - Complexity: O(cells × pooled points × nodes).
    public static func surveyed(
        nodes listed: [Node], fingerprints: [Fingerprint], calibration: Calibration, grid: Grid,
        configuration: SurveyConfiguration = SurveyConfiguration()
    ) -> RadioMap {
        let nodes = usable(listed)
        let n = nodes.count
        var index: [String: Int] = [:]
        for (j, node) in nodes.enumerated() { index[node.id] = j }
        let calibrations = nodes.map { calibration.calibration(for: $0) }
        // Pool the fingerprints per square.
        struct Key: Hashable {
            var floor: Int?
            var x: Int
            var y: Int
        }
        var binIndex: [Key: Int] = [:]
        var bins: [SurveyBin] = []
        var surveyed: [Double] = []
        let gridFloors = Set(grid.floors.compactMap { $0 })
        for fingerprint in fingerprints {
            let p = fingerprint.position
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite, abs(p.x) < 1e9, abs(p.y) < 1e9 else { continue }
            let floor = gridFloors.isEmpty ? nil : fingerprint.floor
            let key = Key(
                floor: floor, x: Int((p.x / configuration.binSize).rounded()),
                y: Int((p.y / configuration.binSize).rounded()))
            let b: Int
            if let known = binIndex[key] {
                b = known
            } else {
                b = bins.count
                binIndex[key] = b
                bins.append(SurveyBin(nodes: n, floor: floor))
            }
            bins[b].x += p.x
            bins[b].y += p.y
            bins[b].z += p.z
            bins[b].count += 1
            for (id, rssi) in fingerprint.rssi {
                guard let j = index[id], rssi.isFinite else { continue }
                surveyed.append(rssi)
                let model = pathLoss(
                    node: nodes[j], calibration: calibrations[j], cell: p, floor: floor,
                    height: grid.height == nil ? nil : p.z)
                let residual = rssi - model
                bins[b].residualSum[j] += residual
                bins[b].residualSquares[j] += residual * residual
                bins[b].heard[j] += 1
            }
        }
        for b in bins.indices {
            let count = Double(bins[b].count)
            bins[b].x /= count
            bins[b].y /= count
            bins[b].z /= count
        }
        // Per node: noise within a pooled point and variance of the pooled residuals about the model.
        var noise = [Double](repeating: 0, count: n)
        var spread = [Double](repeating: 0, count: n)
        let pooledSigma = calibration.shadowingSigma
        for j in 0..<n {
            var within = 0.0
            var withinCount = 0
            var between = 0.0
            var betweenCount = 0
            for bin in bins where bin.heard[j] > 0 {
                let heard = Double(bin.heard[j])
                let mean = bin.residualSum[j] / heard
                within += bin.residualSquares[j] - heard * mean * mean
                withinCount += bin.heard[j] - 1
                between += mean * mean
                betweenCount += 1
            }
            let noiseVariance = withinCount >= 5 ? within / Double(withinCount) : pooledSigma * pooledSigma / 2
            noise[j] = max(1, noiseVariance)
            spread[j] = betweenCount >= 2 ? max(1, between / Double(betweenCount)) : pooledSigma * pooledSigma
        }
        surveyed.sort()
        let detection =
            surveyed.isEmpty
            ? Detection.generic
            : Detection(level: surveyed[min(surveyed.count - 1, surveyed.count / 100)], spread: 3)
        let (cells, floors) = grid.points()
        var mean = [Double](repeating: 0, count: cells.count * n)
        var variance = mean
        var heardProbability = mean
        let twoL2 = 2 * configuration.lengthScale * configuration.lengthScale
        let reach = 9 * configuration.lengthScale * configuration.lengthScale
        let prior = configuration.priorWeight
        let extraVariance = configuration.modelVariance
        // The bins flat, node-major (entry j × bins + b), read for every cell without copying a bin.
        let binX = bins.map(\.x)
        let binY = bins.map(\.y)
        let binFloor = bins.map(\.floor)
        let binCount = bins.map { Double($0.count) }
        let heardOf = (0..<n).flatMap { j in bins.map { Double($0.heard[j]) } }
        let residualSumOf = (0..<n).flatMap { j in bins.map { $0.residualSum[j] } }
        // Per cell, the bins within reach on its floor and their kernel weights (in bin order), found once for
        // every node.
        var near: [(bin: Int, weight: Double)] = []
        near.reserveCapacity(bins.count)
        for (c, cell) in cells.enumerated() {
            near.removeAll(keepingCapacity: true)
            for b in bins.indices {
                let dx = cell.x - binX[b]
                let dy = cell.y - binY[b]
                let d2 = dx * dx + dy * dy
                guard d2 <= reach, binFloor[b] == floors[c] else { continue }
                let weight = exp(-d2 / twoL2)
                if weight > 0 { near.append((b, weight)) }
            }
            for j in 0..<n {
                var residualWeight = 0.0
                var residual = 0.0
                var rateWeight = 0.0
                var rate = 0.0
                let ratio = noise[j] / spread[j]
                let plane = j * bins.count
                for (b, k) in near {
                    let heard = heardOf[plane + b]
                    rateWeight += k
                    rate += k * heard / binCount[b]
                    guard heard > 0 else { continue }
                    let w = k * heard / (heard + ratio)
                    residualWeight += w
                    residual += w * residualSumOf[plane + b] / heard
                }
                let model = pathLoss(
                    node: nodes[j], calibration: calibrations[j], cell: cell, floor: floors[c], height: grid.height)
                let m = model + residual / (prior + residualWeight)
                mean[c * n + j] = m
                variance[c * n + j] = noise[j] + spread[j] * prior / (prior + residualWeight) + extraVariance
                heardProbability[c * n + j] = (rate + prior * detection.probability(dBm: m)) / (rateWeight + prior)
            }
        }
        return RadioMap(
            nodeIDs: nodes.map(\.id), grid: grid, mean: mean, variance: variance, heardProbability: heardProbability,
            logVarianceWeight: configuration.logVarianceWeight)
    }
}
