import Foundation
import IndoorModel

/// Fits a ``Calibration`` to survey data (sightings with truth) by robust regression.
///
/// Model: `rssi = P₁(node) − 10 · n(node) · log10(d) + offset(device) + ε`, d the 3-D distance in metres
/// between the node and the device's true position at the sighting's time (interpolated between truth rows;
/// the device's height is the truth `z`, else the node's height, so d is horizontal). The fit is Huber-weighted
/// least squares (iteratively reweighted), alternated with per-device median offsets. Fitted values are kept
/// within ``Configuration/rssiRange`` and ``Configuration/exponentRange``; nodes with fewer than ``Configuration/minimumSamples``
/// sightings, or whose distances span too little, use the pooled exponent (and the pooled P₁ when almost unheard).
public struct CalibrationFitter: Sendable {
    /// Bounds and thresholds of the fit.
    public struct Configuration: Hashable, Sendable {
        /// Allowed RSSI at 1 m, dBm.
        public var rssiRange: ClosedRange<Double>
        /// Allowed path-loss exponent.
        public var exponentRange: ClosedRange<Double>
        /// Fewer sightings than this and a node takes the pooled exponent.
        public var minimumSamples: Int
        /// Devices with at least this many sightings get a receiver offset (when there are several devices).
        public var minimumDeviceSamples: Int
        /// Largest receiver offset, dB.
        public var maximumOffset: Double
        /// Distances under this many metres count as this (the model has no meaning inside the near field).
        public var minimumDistance: Double
        /// Survey sightings with an RSSI outside this range, dBm, are not measurements and are skipped (a single
        /// ±1e308 dBm sample would overflow the sums and leave NaN in the fit and the JSON).
        public var sampleRange: ClosedRange<Double>

        /// The defaults: P₁ in −110…−20 dBm, exponent 1…6, 30 samples per node, 60 per device for an offset,
        /// offsets within ±20 dB, distances under 0.5 m counted as 0.5 m, samples outside −200…50 dBm skipped.
        public init(
            rssiRange: ClosedRange<Double> = -110 ... -20, exponentRange: ClosedRange<Double> = 1...6,
            minimumSamples: Int = 30, minimumDeviceSamples: Int = 60, maximumOffset: Double = 20,
            minimumDistance: Double = 0.5, sampleRange: ClosedRange<Double> = -200...50
        ) {
            self.rssiRange = rssiRange
            self.exponentRange = exponentRange
            self.minimumSamples = minimumSamples
            self.minimumDeviceSamples = minimumDeviceSamples
            self.maximumOffset = maximumOffset
            self.minimumDistance = minimumDistance
            self.sampleRange = sampleRange
        }
    }

    /// Bounds and thresholds of the fit.
    public var configuration: Configuration

    /// A fitter with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The calibration that best explains `survey` for `nodes`.
    ///
    /// Sightings of unknown nodes, with non-finite RSSI or RSSI outside ``Configuration/sampleRange``, without a finite
    /// distance to the truth, or at times the truth does not cover are skipped.
    /// Later duplicates of a node id are ignored (the engine keeps the first too).
    /// With no usable sighting the answer is ``Calibration/uncalibrated``.
    public func fit(nodes listed: [Node], survey: Recording) -> Calibration {
        // Later duplicates of an id are ignored, as the engine does.
        var nodeIndex: [String: Int] = [:]
        var nodes: [Node] = []
        for node in listed where nodeIndex[node.id] == nil {
            nodeIndex[node.id] = nodes.count
            nodes.append(node)
        }
        let tracks = TruthTrack.tracks(survey.truth)
        var deviceIndex: [String: Int] = [:]
        var deviceNames: [String] = []
        var samples: [Sample] = []
        samples.reserveCapacity(survey.sightings.count)
        for sighting in survey.sightings {
            guard sighting.rssi.isFinite, configuration.sampleRange.contains(sighting.rssi),
                let index = nodeIndex[sighting.source.text],
                let truth = tracks[sighting.device]?.position(at: sighting.time)
            else { continue }
            let node = nodes[index]
            let dz = (truth.z ?? node.position.z) - node.position.z
            let dx = truth.point.x - node.position.x
            let dy = truth.point.y - node.position.y
            let meters = max((dx * dx + dy * dy + dz * dz).squareRoot(), configuration.minimumDistance)
            // A truth row or node with a non-finite coordinate gives no distance (max keeps NaN), so no sample.
            guard meters.isFinite, meters > 0 else { continue }
            let device: Int
            if let known = deviceIndex[sighting.device] {
                device = known
            } else {
                device = deviceNames.count
                deviceIndex[sighting.device] = device
                deviceNames.append(sighting.device)
            }
            samples.append(Sample(node: index, device: device, logDistance: log10(meters), rssi: sighting.rssi))
        }
        guard !samples.isEmpty else { return .uncalibrated }

        let heights = survey.truth.compactMap(\.z).sorted()
        let deviceHeight = heights.isEmpty ? nil : heights[heights.count / 2]

        var perNode = [[Int]](repeating: [], count: nodes.count)
        var perDevice = [[Int]](repeating: [], count: deviceNames.count)
        for (position, sample) in samples.enumerated() {
            perNode[sample.node].append(position)
            perDevice[sample.device].append(position)
        }
        let offsetDevices = perDevice.indices.filter { perDevice[$0].count >= configuration.minimumDeviceSamples }
        var offsets = [Double](repeating: 0, count: deviceNames.count)
        var pooled = NodeCalibration.typical
        var fitted = [NodeCalibration?](repeating: nil, count: nodes.count)

        let rounds = offsetDevices.count >= 2 ? 4 : 1
        for _ in 0..<rounds {
            let all = Array(samples.indices)
            pooled = robustLine(all, samples: samples, offsets: offsets, fixedExponent: nil) ?? .typical
            for index in nodes.indices {
                let rows = perNode[index]
                guard !rows.isEmpty else {
                    fitted[index] = nil
                    continue
                }
                let spread = standardDeviation(rows.map { samples[$0].logDistance })
                if rows.count >= configuration.minimumSamples && spread >= 0.08 {
                    fitted[index] = robustLine(rows, samples: samples, offsets: offsets, fixedExponent: nil)
                } else if rows.count >= 5 {
                    fitted[index] = robustLine(
                        rows, samples: samples, offsets: offsets, fixedExponent: pooled.pathLossExponent)
                } else {
                    fitted[index] = nil
                }
            }
            guard offsetDevices.count >= 2 else { break }
            // Each device's offset: the median residual of its sightings against the node fits.
            var raw: [Double] = []
            for device in offsetDevices {
                let residuals = perDevice[device].map { row -> Double in
                    let sample = samples[row]
                    let model = fitted[sample.node] ?? pooled
                    return sample.rssi - (model.rssiAtOneMeter - 10 * model.pathLossExponent * sample.logDistance)
                }
                raw.append(median(residuals))
            }
            let mean = raw.reduce(0, +) / Double(raw.count)
            for (position, device) in offsetDevices.enumerated() {
                offsets[device] = min(
                    max(raw[position] - mean, -configuration.maximumOffset), configuration.maximumOffset)
            }
        }

        var residuals: [Double] = []
        residuals.reserveCapacity(samples.count)
        for sample in samples {
            let model = fitted[sample.node] ?? pooled
            residuals.append(
                sample.rssi - offsets[sample.device]
                    - (model.rssiAtOneMeter - 10 * model.pathLossExponent * sample.logDistance))
        }
        let center = median(residuals)
        let sigma = 1.4826 * median(residuals.map { abs($0 - center) })

        var byNode: [String: NodeCalibration] = [:]
        var counts: [String: Int] = [:]
        for (index, node) in nodes.enumerated() {
            counts[node.id] = perNode[index].count
            if let calibration = fitted[index] { byNode[node.id] = calibration }
        }
        var byDevice: [String: Double] = [:]
        if offsetDevices.count >= 2 {
            for device in offsetDevices { byDevice[deviceNames[device]] = offsets[device] }
        }
        return Calibration(
            nodes: byNode, pooled: pooled, deviceOffsets: byDevice, shadowingSigma: min(max(sigma, 1), 15),
            deviceHeight: deviceHeight, samples: counts)
    }

    private struct Sample {
        var node: Int
        var device: Int
        var logDistance: Double
        var rssi: Double
    }

    /// Huber IRLS fit of `rssi − offset = P₁ − 10 n · log10 d`, within bounds; `nil` without rows.
    ///
    /// The first pass is ordinary least squares; its residuals fix the robust scale (1.4826 · median |r|), and
    /// five reweighted passes follow with Huber's weights at 1.345 scales.
    private func robustLine(_ rows: [Int], samples: [Sample], offsets: [Double], fixedExponent: Double?)
        -> NodeCalibration?
    {
        guard !rows.isEmpty else { return nil }
        var weights = [Double](repeating: 1, count: rows.count)
        var residuals = [Double](repeating: 0, count: rows.count)
        var intercept = -60.0
        var exponent = fixedExponent ?? 2
        var threshold = Double.infinity
        for pass in 0..<6 {
            var sw = 0.0
            var sx = 0.0
            var sy = 0.0
            var sxx = 0.0
            var sxy = 0.0
            for position in rows.indices {
                let sample = samples[rows[position]]
                let w = weights[position]
                let x = -10 * sample.logDistance
                let y = sample.rssi - offsets[sample.device]
                sw += w
                sx += w * x
                sy += w * y
                sxx += w * x * x
                sxy += w * x * y
            }
            guard sw > 0 else { return nil }
            let determinant = sw * sxx - sx * sx
            if fixedExponent == nil, determinant > 1e-9 * max(1, sw * sxx) {
                exponent = (sw * sxy - sx * sy) / determinant
                exponent = min(
                    max(exponent, configuration.exponentRange.lowerBound), configuration.exponentRange.upperBound)
            }
            intercept = (sy - exponent * sx) / sw
            intercept = min(max(intercept, configuration.rssiRange.lowerBound), configuration.rssiRange.upperBound)
            for position in rows.indices {
                let sample = samples[rows[position]]
                residuals[position] = abs(
                    sample.rssi - offsets[sample.device] - (intercept - 10 * exponent * sample.logDistance))
            }
            if pass == 0 { threshold = 1.345 * max(1.4826 * median(residuals), 0.5) }
            for position in rows.indices {
                let r = residuals[position]
                weights[position] = r <= threshold ? 1 : threshold / r
            }
        }
        return NodeCalibration(rssiAtOneMeter: intercept, pathLossExponent: exponent)
    }

    private func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private func standardDeviation(_ values: [Double]) -> Double {
        guard values.count > 1 else { return 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        return variance.squareRoot()
    }
}
