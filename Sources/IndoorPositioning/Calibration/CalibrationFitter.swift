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
        var samples = samples(nodes: listed, truth: survey.truth)
        for sighting in survey.sightings { samples.add(sighting) }
        return fit(samples)
    }

    /// An empty set of survey samples for `nodes`, to fill with ``Samples/add(_:)`` one sighting at a time (a
    /// survey read from a file without holding its sightings) and fit with ``fit(_:)``.
    ///
    /// - Parameters:
    ///   - nodes: The fixed radios; later duplicates of an id are ignored.
    ///   - truth: The survey's truth rows, in any order: where each device was (interpolated between rows).
    public func samples(nodes: [Node], truth: [TruthPoint]) -> Samples {
        Samples(nodes: nodes, truth: truth, configuration: configuration)
    }

    /// The calibration that best explains `samples` (see ``fit(nodes:survey:)``).
    public func fit(_ gathered: Samples) -> Calibration {
        let nodes = gathered.nodes
        let deviceNames = gathered.deviceNames
        let samples = gathered.samples
        guard !samples.isEmpty else { return .uncalibrated }

        let deviceHeight = gathered.deviceHeight

        // Sample indices per node and per device (32-bit: ``Samples`` holds fewer than 2³¹).
        var perNode = [[Int32]](repeating: [], count: nodes.count)
        var perDevice = [[Int32]](repeating: [], count: deviceNames.count)
        for (position, sample) in samples.enumerated() {
            perNode[Int(sample.node)].append(Int32(position))
            perDevice[Int(sample.device)].append(Int32(position))
        }
        let offsetDevices = perDevice.indices.filter { perDevice[$0].count >= configuration.minimumDeviceSamples }
        var offsets = [Double](repeating: 0, count: deviceNames.count)
        var pooled = NodeCalibration.typical
        var fitted = [NodeCalibration?](repeating: nil, count: nodes.count)

        let rounds = offsetDevices.count >= 2 ? 4 : 1
        for _ in 0..<rounds {
            let all = Int32(0)..<Int32(samples.count)
            pooled = robustLine(all, samples: samples, offsets: offsets, fixedExponent: nil) ?? .typical
            for index in nodes.indices {
                let rows = perNode[index]
                guard !rows.isEmpty else {
                    fitted[index] = nil
                    continue
                }
                let spread = standardDeviation(rows.map { samples[Int($0)].logDistance })
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
                    let sample = samples[Int(row)]
                    let model = fitted[Int(sample.node)] ?? pooled
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
            let model = fitted[Int(sample.node)] ?? pooled
            residuals.append(
                sample.rssi - offsets[Int(sample.device)]
                    - (model.rssiAtOneMeter - 10 * model.pathLossExponent * sample.logDistance))
        }
        let center = median(sorting: &residuals)
        for index in residuals.indices { residuals[index] = abs(residuals[index] - center) }
        let sigma = 1.4826 * median(sorting: &residuals)

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

    /// Huber IRLS fit of `rssi − offset = P₁ − 10 n · log10 d`, within bounds; `nil` without rows.
    ///
    /// The first pass is ordinary least squares; its residuals fix the robust scale (1.4826 · median |r|), and
    /// five reweighted passes follow with Huber's weights at 1.345 scales.
    private func robustLine(
        _ rows: some RandomAccessCollection<Int32>, samples: [Samples.Sample], offsets: [Double],
        fixedExponent: Double?
    ) -> NodeCalibration? {
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
            for (position, row) in rows.enumerated() {
                let sample = samples[Int(row)]
                let w = weights[position]
                let x = -10 * sample.logDistance
                let y = sample.rssi - offsets[Int(sample.device)]
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
            for (position, row) in rows.enumerated() {
                let sample = samples[Int(row)]
                residuals[position] = abs(
                    sample.rssi - offsets[Int(sample.device)] - (intercept - 10 * exponent * sample.logDistance))
            }
            if pass == 0 {
                // The weights are set from the residuals next: sort a copy of the residuals in their place.
                weights = residuals
                threshold = 1.345 * max(1.4826 * median(sorting: &weights), 0.5)
            }
            for position in residuals.indices {
                let r = residuals[position]
                weights[position] = r <= threshold ? 1 : threshold / r
            }
        }
        return NodeCalibration(rssiAtOneMeter: intercept, pathLossExponent: exponent)
    }

    private func median(_ values: [Double]) -> Double {
        var sorted = values
        return median(sorting: &sorted)
    }

    /// The median of `values`, sorting them in place (no copy of a large array); 0 when empty.
    private func median(sorting values: inout [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        values.sort()
        let middle = values.count / 2
        return values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
    }

    private func standardDeviation(_ values: [Double]) -> Double {
        guard values.count > 1 else { return 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        return variance.squareRoot()
    }
}
