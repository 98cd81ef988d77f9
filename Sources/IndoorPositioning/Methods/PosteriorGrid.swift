import Foundation
import IndoorModel

/// The posterior mean of the device's position over a grid, from a ``RadioMap`` as the likelihood.
///
/// Each grid point's log-likelihood sums, over the nodes heard, a Student-t term of the reading's RSSI about the map's
/// mean (scaled by the map's spread; heavy tails so that one reading through a wall cannot veto the right place),
/// and, over the mapped nodes not heard, the log chance of not hearing them there (weighted by
/// ``Configuration/missingWeight``). A receiver gain offset common to all readings (phones differ by up to 13 dB) is
/// estimated per grid point from the readings, with a zero-mean Gaussian prior of ``Configuration/offsetSigma`` dB,
/// so a phone that reads 8 dB low is not pulled away from every node. The log-likelihood is tempered by
/// ``Configuration/temperature`` (the readings' errors are correlated, so the plain product is over-confident).
///
/// The answer is the mean of the whole posterior (not its peak) on the floor holding most of it; the accuracy is the
/// posterior's RMS spread, metres.
public struct PosteriorGrid: PositioningMethod {
    /// How readings weigh.
    public struct Configuration: Hashable, Sendable {
        /// The factor on every log-likelihood (1: plain Bayes; lower: a broader posterior).
        public var temperature: Double
        /// The prior spread of a receiver's gain offset, dB (0: no offset).
        public var offsetSigma: Double
        /// The weight of "mapped here but not heard" (0: ignore unheard nodes).
        public var missingWeight: Double
        /// Degrees of freedom of the Student-t term of each reading.
        public var degreesOfFreedom: Double

        /// - Parameters:
        ///   - temperature: Factor on the log-likelihood (default 0.5).
        ///   - offsetSigma: Prior spread of the receiver offset, dB (default 4).
        ///   - missingWeight: Weight of the unheard nodes' term (default 1).
        ///   - degreesOfFreedom: Student-t degrees of freedom (default 4).
        public init(
            temperature: Double = 0.5, offsetSigma: Double = 4, missingWeight: Double = 1, degreesOfFreedom: Double = 4
        ) {
            self.temperature = temperature.isFinite && temperature > 0 ? temperature : 0.5
            self.offsetSigma = offsetSigma.isFinite && offsetSigma >= 0 ? offsetSigma : 4
            self.missingWeight = missingWeight.isFinite && missingWeight >= 0 ? missingWeight : 1
            self.degreesOfFreedom = degreesOfFreedom.isFinite && degreesOfFreedom > 0 ? degreesOfFreedom : 4
        }
    }

    public let name: String
    /// The likelihood's map.
    public let map: RadioMap
    /// How readings weigh.
    public var configuration: Configuration

    /// A posterior-mean method over `map`, reported as `name`.
    public init(map: RadioMap, configuration: Configuration = Configuration(), name: String = "posterior") {
        self.map = map
        self.configuration = configuration
        self.name = name
    }

    /// The log-likelihood terms of every grid point given `readings`, untempered: how well the heard readings fit
    /// (`fit`, with the receiver offset estimated per point) and the log chance of not hearing the mapped nodes that
    /// were not heard (`unheard`); `nil` when no reading names a mapped node. The log-posterior is
    /// `temperature × (fit + missingWeight × unheard)`.
    func likelihoodTerms(_ readings: [NodeReading]) -> (fit: [Double], unheard: [Double])? {
        let n = map.nodeCount
        let (columns, values) = map.heard(readings)
        guard !columns.isEmpty else { return nil }
        let cellCount = map.cells.count
        var fit = [Double](repeating: 0, count: cellCount)
        var unheard = fit
        let tau2 = configuration.offsetSigma * configuration.offsetSigma
        let priorPrecision = tau2 > 0 ? 1 / tau2 : .infinity
        let inverseNu = 1 / configuration.degreesOfFreedom
        let tail = 0.5 * (configuration.degreesOfFreedom + 1)
        let heard = columns.count
        // Per grid point, the Student-t terms Σ ln(1 + u) are taken as one ln Π(1 + u) (a handful of factors ≥ 1
        // stays finite; should the product overflow, the sum is taken instead): one logarithm per point, not one per
        // node heard.
        map.mean.withUnsafeBufferPointer { mean in
            map.inverseVariance.withUnsafeBufferPointer { precision in
                map.halfLogVariance.withUnsafeBufferPointer { halfLog in
                    map.missLog.withUnsafeBufferPointer { missLog in
                        columns.withUnsafeBufferPointer { columns in
                            values.withUnsafeBufferPointer { values in
                                for c in 0..<cellCount {
                                    let base = c * n
                                    var offset = 0.0
                                    if priorPrecision.isFinite {
                                        var weight = priorPrecision
                                        var sum = 0.0
                                        for k in 0..<heard {
                                            let w = precision[base + columns[k]]
                                            weight += w
                                            sum += w * (values[k] - mean[base + columns[k]])
                                        }
                                        offset = sum / weight
                                    }
                                    var product = 1.0
                                    var halfLogs = 0.0
                                    var missing = map.missSum[c]
                                    for k in 0..<heard {
                                        let index = base + columns[k]
                                        let e = values[k] - mean[index] - offset
                                        product *= 1 + e * e * precision[index] * inverseNu
                                        halfLogs += halfLog[index]
                                        missing -= missLog[index]
                                    }
                                    var studentT = Foundation.log(product)
                                    if studentT == .infinity {
                                        studentT = 0
                                        for k in 0..<heard {
                                            let index = base + columns[k]
                                            let e = values[k] - mean[index] - offset
                                            studentT += log1p(e * e * precision[index] * inverseNu)
                                        }
                                    }
                                    let prior = priorPrecision.isFinite ? -0.5 * offset * offset * priorPrecision : 0
                                    fit[c] = prior - tail * studentT - halfLogs
                                    unheard[c] = missing
                                }
                            }
                        }
                    }
                }
            }
        }
        return (fit, unheard)
    }

    /// The posterior mean (metres, venue frame) on the floor holding most of the posterior; `notHeard` when no
    /// reading names a mapped node.
    public func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        guard !map.cells.isEmpty else { return .failure(NoFix(.noSolution, "the radio map has no grid points")) }
        guard let terms = likelihoodTerms(readings) else {
            return .failure(NoFix(.notHeard, "none of the nodes heard is in the radio map"))
        }
        return estimate(
            fit: terms.fit, unheard: terms.unheard, temperature: configuration.temperature,
            missingWeight: configuration.missingWeight)
    }

    /// The log-posterior of every grid point (up to a constant): `temperature × (fit + missingWeight × unheard)`.
    static func logPosterior(fit: [Double], unheard: [Double], temperature: Double, missingWeight: Double) -> [Double] {
        var log = [Double](repeating: 0, count: fit.count)
        for c in 0..<fit.count { log[c] = temperature * (fit[c] + missingWeight * unheard[c]) }
        return log
    }

    /// The posterior mean from ``likelihoodTerms(_:)`` weighted by `temperature` and `missingWeight`.
    func estimate(fit: [Double], unheard: [Double], temperature: Double, missingWeight: Double)
        -> Result<Estimate, NoFix>
    {
        let log = Self.logPosterior(fit: fit, unheard: unheard, temperature: temperature, missingWeight: missingWeight)
        guard let peak = log.max(), peak.isFinite else {
            return .failure(NoFix(.noSolution, "the readings fit no grid point (absurd RSSI?)"))
        }
        // The floor holding most of the posterior.
        var floorMass: [(floor: Int?, mass: Double)] = []
        var weights = [Double](repeating: 0, count: log.count)
        for c in 0..<log.count {
            let w = exp(log[c] - peak)
            weights[c] = w
            if let slot = floorMass.firstIndex(where: { $0.floor == map.floors[c] }) {
                floorMass[slot].mass += w
            } else {
                floorMass.append((map.floors[c], w))
            }
        }
        var floor = floorMass[0].floor
        var best = floorMass[0].mass
        for candidate in floorMass.dropFirst() where candidate.mass > best {
            best = candidate.mass
            floor = candidate.floor
        }
        var total = 0.0
        var x = 0.0
        var y = 0.0
        var z = 0.0
        for c in 0..<log.count where map.floors[c] == floor {
            let w = weights[c]
            let p = map.cells[c]
            total += w
            x += w * p.x
            y += w * p.y
            z += w * p.z
        }
        x /= total
        y /= total
        z /= total
        var spread = 0.0
        for c in 0..<log.count where map.floors[c] == floor {
            let p = map.cells[c]
            spread += weights[c] * ((p.x - x) * (p.x - x) + (p.y - y) * (p.y - y))
        }
        let accuracy = max(map.spacing / 2, (spread / total).squareRoot())
        return .success(
            Estimate(
                position: Point3D(x: x, y: y, z: z), floor: floor, accuracy: accuracy,
                confidence: 1 / (1 + accuracy / 2)))
    }
}
