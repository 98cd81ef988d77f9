import Foundation
import IndoorModel

extension NodeLinkCalibration {
    /// What the links say about each node's path loss: the result of ``NodeLinkCalibration/fit()``.
    public struct Fit: Hashable, Sendable, Codable {
        /// One node's fitted values.
        public struct NodeFit: Hashable, Sendable, Codable {
            /// The node's id.
            public var id: String
            /// Links the node reported (it heard another node) that the fit used.
            public var links: Int
            /// Links in which another node heard this one, used by the fit.
            public var heardBy: Int
            /// The fitted RSSI at 1 m, dBm, when the node reported at least ``Configuration/minimumLinks`` links.
            public var rssiAtOneMeter: Double?
            /// The node's path-loss exponent (the shared one unless ``Configuration/perNodeExponent``).
            public var pathLossExponent: Double
            /// The node's gain as the device of a link, dB (`nil` when no other node heard it).
            public var gain: Double?
        }

        /// Every node that took part in a used link, by id.
        public var nodes: [NodeFit]
        /// The shared path-loss exponent (with per-node exponents, the median of theirs).
        public var pathLossExponent: Double
        /// The median fitted RSSI at 1 m over the nodes that have one, dBm: the level of nodes without links.
        public var rssiAtOneMeter: Double
        /// Links used (at least ``Configuration/minimumSamples`` samples each).
        public var linksUsed: Int
        /// The robust standard deviation of the links' levels about the fitted model, dB.
        public var residualSigma: Double

        /// `base` with the fitted path loss: each node with a fitted level and no calibration of its own (in `base`
        /// or on the node) gets it, and the pooled model becomes the fit's median level and shared exponent; `nil`
        /// when no node has a fitted level.
        public func calibration(over base: Calibration, nodes venueNodes: [Node]) -> Calibration? {
            let fitted = nodes.filter { $0.rssiAtOneMeter != nil }
            guard !fitted.isEmpty else { return nil }
            let own = Set(venueNodes.filter { $0.calibration != nil }.map(\.id)).union(base.nodes.keys)
            var calibration = base
            for node in fitted where !own.contains(node.id) {
                if let level = node.rssiAtOneMeter {
                    calibration.nodes[node.id] = NodeCalibration(
                        rssiAtOneMeter: level, pathLossExponent: node.pathLossExponent)
                }
                calibration.samples[node.id] = node.links
            }
            calibration.pooled = NodeCalibration(rssiAtOneMeter: rssiAtOneMeter, pathLossExponent: pathLossExponent)
            return calibration
        }

        /// Whether every level of `other` is within `dB` and every exponent within `exponent` of this fit's (the same
        /// nodes fitted): a fit that moved less is not worth rebuilding a method for.
        public func isClose(to other: Fit, dB: Double = 0.25, exponent: Double = 0.02) -> Bool {
            guard nodes.map(\.id) == other.nodes.map(\.id),
                abs(pathLossExponent - other.pathLossExponent) <= exponent,
                abs(rssiAtOneMeter - other.rssiAtOneMeter) <= dB
            else { return false }
            for (a, b) in zip(nodes, other.nodes) {
                switch (a.rssiAtOneMeter, b.rssiAtOneMeter) {
                case (nil, nil): continue
                case (let x?, let y?):
                    guard abs(x - y) <= dB, abs(a.pathLossExponent - b.pathLossExponent) <= exponent else {
                        return false
                    }
                default: return false
                }
            }
            return true
        }
    }

    /// Fits the model over the links held now (see ``NodeLinkCalibration``); `nil` when no link has
    /// ``Configuration/minimumSamples`` samples.
    ///
    /// Least squares over the links' median levels, each weighed by `k / (k + 4)` for `k` samples, with Huber weights
    /// (1.345 robust standard deviations) recomputed five times, and priors: each node's level about the levels' mean
    /// (``Configuration/levelPriorSigma``), each node's gain about 0 (``Configuration/gainPriorSigma``; the gains' mean
    /// is held at 0), the exponent about the prior's (``Configuration/exponentPriorSigma``), all relative to
    /// ``Configuration/linkSigma``.
    /// Levels and gains are solved by coordinate descent, a node's level and exponent together when each node has its
    /// own; the links are visited in the order of their node indices, so the fit does not depend on hashing.
    public func fit() -> Fit? {
        let used = links.filter { $0.value.samples.count >= configuration.minimumSamples }.sorted { $0.key < $1.key }
        guard !used.isEmpty else { return nil }
        let count = used.count
        let reporter = used.map { Int($0.key >> 32) }
        let heard = used.map { Int($0.key & 0xFFFF_FFFF) }
        // rssi = L + D + n·x with x = −10·log10(d), centred on its mean so that a node's level (at the links' mean
        // distance) and the exponent are nearly independent: L = level − n·centre.
        let raw = used.map { -10 * $0.value.log10Distance }
        let centre = raw.reduce(0, +) / Double(count)
        let x = raw.map { $0 - centre }
        let y = used.map { $0.value.level }
        let base = used.map { Double($0.value.samples.count) / (Double($0.value.samples.count) + 4) }
        var weight = base
        let variance = configuration.linkSigma * configuration.linkSigma
        let levelPrior = variance / (configuration.levelPriorSigma * configuration.levelPriorSigma)
        let gainPrior = variance / (configuration.gainPriorSigma * configuration.gainPriorSigma)
        let exponentPrior = variance / (configuration.exponentPriorSigma * configuration.exponentPriorSigma)
        let levelCentre = prior.rssiAtOneMeter + prior.pathLossExponent * centre
        var level = [Double](repeating: levelCentre, count: nodes.count)
        var gain = [Double](repeating: 0, count: nodes.count)
        var exponent = [Double](repeating: prior.pathLossExponent, count: nodes.count)
        var byReporter = [[Int]](repeating: [], count: nodes.count)
        var byHeard = [[Int]](repeating: [], count: nodes.count)
        for link in 0..<count {
            byReporter[reporter[link]].append(link)
            byHeard[heard[link]].append(link)
        }
        var scale = configuration.linkSigma
        for _ in 0..<5 {
            for _ in 0..<200 {
                // The levels' prior is centred on their own mean (they differ from one another by the prior's
                // spread), which the first sweep starts from the prior's level.
                let reporters = nodes.indices.filter { !byReporter[$0].isEmpty }
                let levelMean = reporters.map { level[$0] }.reduce(0, +) / Double(max(1, reporters.count))
                for node in reporters {
                    // Level and (own) exponent of the node: a 2×2 system with the priors; the level alone otherwise.
                    var sw = levelPrior
                    var swx = 0.0
                    var swxx = exponentPrior
                    var swz = levelPrior * levelMean
                    var swxz = exponentPrior * prior.pathLossExponent
                    for link in byReporter[node] {
                        let w = weight[link]
                        let z = y[link] - gain[heard[link]]
                        sw += w
                        swx += w * x[link]
                        swxx += w * x[link] * x[link]
                        swz += w * z
                        swxz += w * x[link] * z
                    }
                    if configuration.perNodeExponent {
                        let determinant = sw * swxx - swx * swx
                        guard determinant > 0 else { continue }
                        level[node] = (swxx * swz - swx * swxz) / determinant
                        exponent[node] = (sw * swxz - swx * swz) / determinant
                    } else {
                        level[node] = (swz - swx * exponent[node]) / sw
                    }
                }
                for node in nodes.indices where !byHeard[node].isEmpty {
                    var sw = gainPrior
                    var swz = 0.0
                    for link in byHeard[node] {
                        let owner = reporter[link]
                        sw += weight[link]
                        swz += weight[link] * (y[link] - level[owner] - exponent[owner] * x[link])
                    }
                    gain[node] = swz / sw
                }
                // The gauge: the nodes' gains as devices average 0 (a typical device), the common level is in the
                // nodes' levels. Moving a constant from every gain to every level leaves each link's sum as it was.
                let heardNodes = nodes.indices.filter { !byHeard[$0].isEmpty }
                let mean = heardNodes.map { gain[$0] }.reduce(0, +) / Double(max(1, heardNodes.count))
                for node in heardNodes { gain[node] -= mean }
                for node in nodes.indices where !byReporter[node].isEmpty { level[node] += mean }
                if !configuration.perNodeExponent {
                    var sxx = exponentPrior
                    var sxz = exponentPrior * prior.pathLossExponent
                    for link in 0..<count {
                        let z = y[link] - level[reporter[link]] - gain[heard[link]]
                        sxx += weight[link] * x[link] * x[link]
                        sxz += weight[link] * x[link] * z
                    }
                    let shared = sxz / sxx
                    for node in exponent.indices { exponent[node] = shared }
                }
            }
            // Huber weights from the residuals' robust spread.
            let residuals = (0..<count).map {
                y[$0] - level[reporter[$0]] - gain[heard[$0]] - exponent[reporter[$0]] * x[$0]
            }
            scale = max(1, 1.4826 * Self.median(residuals.map(abs)))
            let threshold = 1.345 * scale
            for link in 0..<count {
                let size = abs(residuals[link])
                weight[link] = base[link] * (size > threshold ? threshold / size : 1)
            }
        }
        var fits: [Fit.NodeFit] = []
        for node in nodes.indices where !byReporter[node].isEmpty || !byHeard[node].isEmpty {
            let reported = byReporter[node].count
            fits.append(
                Fit.NodeFit(
                    id: nodes[node].id, links: reported, heardBy: byHeard[node].count,
                    rssiAtOneMeter: reported >= configuration.minimumLinks
                        ? level[node] - exponent[node] * centre : nil,
                    pathLossExponent: exponent[node], gain: byHeard[node].isEmpty ? nil : gain[node]))
        }
        fits.sort { $0.id < $1.id }
        let levels = fits.compactMap(\.rssiAtOneMeter)
        let exponents = fits.filter { $0.rssiAtOneMeter != nil }.map(\.pathLossExponent)
        return Fit(
            nodes: fits,
            pathLossExponent: exponents.isEmpty ? prior.pathLossExponent : Self.median(exponents),
            rssiAtOneMeter: levels.isEmpty ? prior.rssiAtOneMeter : Self.median(levels), linksUsed: count,
            residualSigma: scale)
    }

    /// The median of `values` (the mean of the middle two for an even count); NaN for none.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
