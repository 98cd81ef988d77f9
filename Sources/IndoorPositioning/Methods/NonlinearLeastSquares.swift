import Foundation
import IndoorModel

/// Weighted nonlinear least squares on log-ranges, solved by Levenberg–Marquardt with an analytic Jacobian
/// and Huber's robust loss.
///
/// Residual of node i at horizontal position p: `uᵢ = (ln ‖p − cᵢ‖ − ln dᵢ) / sᵢ`, where ‖·‖ is the 3-D distance
/// to the node with the device at ``deviceHeight`` (the node's own height when `nil`, so ranges are horizontal)
/// and `sᵢ² = Var(dᵢ) / dᵢ²` is the variance of the log-range. With log-normal shadowing this is the maximum-likelihood
/// estimate of p. The accuracy radius is the root of the trace of the covariance `(JᵀWJ)⁻¹`, scaled up
/// when the fit is worse than the variances promise; the confidence (0…1) falls with both.
public struct NonlinearLeastSquares: PositioningMethod {
    public let name = "nonlinear"
    /// The device's height in the venue frame, metres; `nil` treats ranges as horizontal (a non-finite height given
    /// to `init` counts as `nil`).
    public var deviceHeight: Double?
    /// Normalised residual beyond which Huber's loss turns linear.
    public var huberThreshold: Double
    /// The most Levenberg–Marquardt iterations.
    public var maximumIterations: Int
    /// A step shorter than this many metres ends the search.
    public var tolerance: Double

    public init(
        deviceHeight meters: Double? = nil, huberThreshold: Double = 2, maximumIterations: Int = 5,
        tolerance: Double = 0.02
    ) {
        self.deviceHeight = meters.flatMap { $0.isFinite ? $0 : nil }
        self.huberThreshold = huberThreshold > 0 ? huberThreshold : 2
        self.maximumIterations = max(1, maximumIterations)
        self.tolerance = tolerance > 0 ? tolerance : 0.02
    }

    /// The weighted robust least-squares position (metres, venue frame) with accuracy in metres from the covariance.
    public func estimate(from all: [NodeReading]) -> Result<Estimate, NoFix> {
        // Readings all on one floor (the usual case) go straight through: `sameFloor` would hand back the same
        // array, and returning it cost a retain and a release per fix.
        guard FloorSelection.areMixed(all) else {
            return estimate(from: all, floor: all.isEmpty ? nil : all[0].node.floor)
        }
        let (readings, floor) = FloorSelection.sameFloor(all)
        return estimate(from: readings, floor: floor)
    }

    private func estimate(from readings: [NodeReading], floor: Int?) -> Result<Estimate, NoFix> {
        let n = readings.count
        guard n >= 3 else { return .failure(RangeCircles.validate(readings) ?? NoFix(.tooFewNodes, "too few nodes")) }
        guard (deviceHeight ?? 0).isFinite else {
            return .failure(NoFix(.invalidInput, "the device height \(deviceHeight ?? 0) m is not a finite number"))
        }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 9 * n) { buffer in
            let cx = UnsafeMutableBufferPointer(rebasing: buffer[0..<n])
            let cy = UnsafeMutableBufferPointer(rebasing: buffer[n..<(2 * n)])
            let dz2 = UnsafeMutableBufferPointer(rebasing: buffer[(2 * n)..<(3 * n)])
            let logRange = UnsafeMutableBufferPointer(rebasing: buffer[(3 * n)..<(4 * n)])
            let weight = UnsafeMutableBufferPointer(rebasing: buffer[(4 * n)..<(5 * n)])
            // Scratch for ``Problem/evaluate(_:_:derivatives:)``.
            let modelLogRange = UnsafeMutableBufferPointer(rebasing: buffer[(5 * n)..<(6 * n)])
            let squared = UnsafeMutableBufferPointer(rebasing: buffer[(6 * n)..<(7 * n)])
            let jacobianX = UnsafeMutableBufferPointer(rebasing: buffer[(7 * n)..<(8 * n)])
            let jacobianY = UnsafeMutableBufferPointer(rebasing: buffer[(8 * n)..<(9 * n)])
            // One pass: copy out, check values, sum the coordinates for the collinearity test, and start at the
            // centroid weighted by 1 / d² (inside the hull).
            var px = 0.0
            var py = 0.0
            var total = 0.0
            var sumX = 0.0
            var sumY = 0.0
            var valid = true
            readings.withUnsafeBufferPointer { list in
                for index in 0..<n {
                    let x = list[index].node.position.x
                    let y = list[index].node.position.y
                    let z = list[index].node.position.z
                    let distance = list[index].distance
                    let variance = list[index].distanceVariance
                    if !(list[index].rssi.isFinite && distance.isFinite && distance >= 0 && variance.isFinite
                        && x.isFinite && y.isFinite && z.isFinite)
                    {
                        valid = false
                    }
                    let d = max(distance, 0.05)
                    cx[index] = x
                    cy[index] = y
                    let dz = deviceHeight.map { z - $0 } ?? 0
                    dz2[index] = dz * dz
                    logRange[index] = log(d)
                    weight[index] = 1 / max(variance / (d * d), 1e-4)
                    let w = 1 / (d * d)
                    px += w * x
                    py += w * y
                    total += w
                    sumX += x
                    sumY += y
                }
            }
            guard valid,
                !pointsAreCollinear(count: n, sumX: sumX, sumY: sumY, x: { cx[$0] }, y: { cy[$0] })
            else {
                return .failure(
                    RangeCircles.validate(readings) ?? NoFix(.degenerateGeometry, "the nodes heard lie on one line"))
            }
            px /= total
            py /= total
            let problem = Problem(
                cx: UnsafeBufferPointer(cx), cy: UnsafeBufferPointer(cy), dz2: UnsafeBufferPointer(dz2),
                logRange: UnsafeBufferPointer(logRange), weight: UnsafeBufferPointer(weight), k: huberThreshold,
                modelLogRange: modelLogRange, squared: squared, jacobianX: jacobianX, jacobianY: jacobianY)
            var current = problem.evaluate(px, py, derivatives: true)
            var lambda = 1e-3
            var iterations = 0
            while iterations < maximumIterations {
                iterations += 1
                let damping = 1 + lambda
                guard
                    let (sx, sy) = solveSymmetric2(
                        current.hxx * damping, current.hxy, current.hyy * damping, -current.gx, -current.gy)
                else { break }
                // A trial that ends the search when accepted (the step is short, or this is the last iteration)
                // needs no derivatives, only the cost, χ² and the information matrix for the covariance.
                let last = iterations == maximumIterations || sx * sx + sy * sy < tolerance * tolerance
                let trial = problem.evaluate(px + sx, py + sy, derivatives: !last)
                if trial.cost <= current.cost {
                    px += sx
                    py += sy
                    current = trial
                    lambda = max(lambda * 0.2, 1e-9)
                    if sx * sx + sy * sy < tolerance * tolerance { break }
                } else {
                    lambda *= 10
                    if lambda > 1e8 { break }
                }
            }
            guard px.isFinite, py.isFinite else {
                return .failure(NoFix(.noSolution, "the nonlinear solver did not reach a finite position"))
            }
            // Covariance (JᵀWJ)⁻¹ with the plain (non-robust) weights, at the final point.
            let fisher = current.information ?? problem.information(px, py)
            let determinant = fisher.xx * fisher.yy - fisher.xy * fisher.xy
            var variance = determinant > 0 ? (fisher.xx + fisher.yy) / determinant : .infinity
            let freedom = n - 2
            let fit = freedom > 0 ? current.chiSquare / Double(freedom) : 1
            variance *= max(1, fit)
            let accuracy = variance.isFinite ? max(0.1, variance.squareRoot()) : 1000
            let fitFactor = freedom > 0 ? min(1, 2 / (1 + fit)) : 0.5
            let confidence = min(1, max(0, fitFactor / (1 + accuracy / 2)))
            return .success(
                Estimate(
                    position: Point3D(x: px, y: py, z: deviceHeight ?? 0), floor: floor,
                    accuracy: min(accuracy, 1000), confidence: confidence))
        }
    }

    /// The cost, gradient and (Gauss–Newton) Hessian at a point.
    private struct Evaluation {
        var cost = 0.0
        var chiSquare = 0.0
        var gx = 0.0, gy = 0.0
        var hxx = 0.0, hxy = 0.0, hyy = 0.0
        /// The information matrix JᵀWJ with the plain weights, when evaluated without derivatives.
        var information: (xx: Double, xy: Double, yy: Double)?
    }

    private struct Problem {
        let cx: UnsafeBufferPointer<Double>
        let cy: UnsafeBufferPointer<Double>
        let dz2: UnsafeBufferPointer<Double>
        let logRange: UnsafeBufferPointer<Double>
        let weight: UnsafeBufferPointer<Double>
        let k: Double
        /// Scratch, per node, at the point being evaluated: the model's log-range (ln m), the squared 3-D range
        /// (m², at least 1e-4) and the Jacobian of the log-range, ∂ ln ‖p − cᵢ‖ / ∂x and ∂y (1/m).
        let modelLogRange: UnsafeMutableBufferPointer<Double>
        let squared: UnsafeMutableBufferPointer<Double>
        let jacobianX: UnsafeMutableBufferPointer<Double>
        let jacobianY: UnsafeMutableBufferPointer<Double>

        /// The cost and χ² at a point, with the robust gradient and Hessian when `derivatives` is true, or else
        /// with the plain information matrix (the point is the final one).
        @inline(__always)
        func evaluate(_ px: Double, _ py: Double, derivatives: Bool) -> Evaluation {
            // Three loops rather than one, for speed, each number computed as in one loop (so the same answers to
            // the bit): first the ranges and the Jacobian, with no call, which the compiler vectorises (two
            // divisions at a time); then the logarithms, calls into libm, alone; then the sums, in node order, with
            // no call or division in the way (a call inside the loop sent every running sum to memory and back).
            for index in 0..<cx.count {
                let dx = px - cx[index]
                let dy = py - cy[index]
                let s = max(dx * dx + dy * dy + dz2[index], 1e-4)
                squared[index] = s
                let inverse = 1 / s
                jacobianX[index] = dx * inverse
                jacobianY[index] = dy * inverse
            }
            for index in 0..<cx.count {
                // The model's log-range in single precision: ~1e-7 relative, far below the noise, and faster.
                modelLogRange[index] = Double(log(Float(squared[index])))
            }
            var e = Evaluation()
            var ixx = 0.0
            var ixy = 0.0
            var iyy = 0.0
            for index in 0..<cx.count {
                let r = 0.5 * modelLogRange[index] - logRange[index]
                let w = weight[index]
                let u2 = w * r * r
                e.chiSquare += u2
                // Huber: weight 1 inside the threshold, k / |u| outside.
                var robust = 1.0
                if u2 > k * k {
                    let u = u2.squareRoot()
                    robust = k / u
                    e.cost += k * u - 0.5 * k * k
                } else {
                    e.cost += 0.5 * u2
                }
                let jx = jacobianX[index]
                let jy = jacobianY[index]
                if derivatives {
                    let rw = robust * w
                    e.gx += rw * r * jx
                    e.gy += rw * r * jy
                    e.hxx += rw * jx * jx
                    e.hxy += rw * jx * jy
                    e.hyy += rw * jy * jy
                } else {
                    ixx += w * jx * jx
                    ixy += w * jx * jy
                    iyy += w * jy * jy
                }
            }
            if !derivatives { e.information = (ixx, ixy, iyy) }
            return e
        }

        /// The information matrix JᵀWJ at a point, with the plain weights.
        func information(_ px: Double, _ py: Double) -> (xx: Double, xy: Double, yy: Double) {
            var xx = 0.0
            var xy = 0.0
            var yy = 0.0
            for index in 0..<cx.count {
                let dx = px - cx[index]
                let dy = py - cy[index]
                let s = max(dx * dx + dy * dy + dz2[index], 1e-4)
                let inverse = 1 / s
                let jx = dx * inverse
                let jy = dy * inverse
                let w = weight[index]
                xx += w * jx * jx
                xy += w * jx * jy
                yy += w * jy * jy
            }
            return (xx, xy, yy)
        }
    }
}
