import Foundation
import IndoorModel

/// The posterior mean of a ``PosteriorGrid`` over a path-loss map, weighed on a coarser lattice of its grid points:
/// the same estimate within centimetres at a fraction of the cost.
///
/// The log-posterior is evaluated exactly (``PosteriorGrid``'s terms) only at every ``stride``-th grid column and row
/// (and the last ones); every other grid point's weight is taken as the bilinear interpolation of the weights of the
/// four lattice points around it. The grid's sums (the weight, its first and second moments) are then linear in the
/// lattice points' weights, with factors computed once, so a fix costs the lattice points' likelihoods and a few sums
/// over them instead of a likelihood, a logarithm and an exponential at every grid point. The answer is taken as
/// ``PosteriorGrid`` takes it: the floor holding most of the posterior, the weighted mean there, the RMS spread as
/// accuracy.
///
/// Applies to maps whose RSSI variance is the same everywhere and weightings that ignore unheard nodes
/// (``PosteriorGrid/Configuration/missingWeight`` 0): the path-loss model of `auto` without a survey, whose posterior
/// is broad and smooth. Elsewhere (and where the weights over- or underflow) ``estimate(from:)`` is the exhaustive
/// ``PosteriorGrid/estimate(from:)``. docs/notes/posterior-lattice.md compares the two and the choice of stride.
struct PosteriorLattice: PositioningMethod {
    /// The posterior whose mean is taken.
    let posterior: PosteriorGrid
    /// Grid points between lattice points along a row or a column (1: every grid point, the exhaustive sums).
    let stride: Int
    /// Per axis, the lattice's indices into the grid's columns and rows.
    private let columnKnots: [Int]
    private let rowKnots: [Int]
    /// Per axis and lattice index: the sum over grid indices of the interpolation factor (`mass`), times the grid
    /// index (`first`), times its square (`second`), in grid units from the grid's corner.
    private let columnMoments: Moments
    private let rowMoments: Moments
    /// The map's mean RSSI on the lattice, node-major: node column `j` at lattice point `p` is at
    /// `j × latticeCount + p` (dBm); lattice points floor by floor, row by row. Empty when the lattice does not apply.
    private let means: [Double]
    /// The map's 1 / variance (1/dB²) and ½ ln variance, the same at every entry.
    private let precision: Double
    private let halfLogVariance: Double

    var name: String { posterior.name }

    /// The mean of `posterior` weighed on every `stride`-th grid column and row.
    /// - Parameters:
    ///   - posterior: The exhaustive method, whose answers this one reproduces.
    ///   - stride: Grid points between lattice points (at least 1; default: the most that keeps the lattice's points
    ///     at most ``defaultSpacing`` apart, so 2 on a 0.5 m grid and 1, every point, on a grid of 1 m or coarser).
    init(posterior: PosteriorGrid, stride: Int? = nil) {
        self.posterior = posterior
        let map = posterior.map
        let grid = map.grid
        let stride = min(max(stride ?? Self.stride(spacing: Self.defaultSpacing, grid: grid), 1), 1000)
        self.stride = stride
        columnKnots = Self.knots(stride: stride, count: grid.columns)
        rowKnots = Self.knots(stride: stride, count: grid.rows)
        columnMoments = Moments(knots: columnKnots)
        rowMoments = Moments(knots: rowKnots)
        let uniform =
            posterior.configuration.missingWeight == 0 && !map.cells.isEmpty && map.nodeCount > 0
            && map.cells.count == grid.columns * grid.rows * grid.floors.count
            && map.inverseVariance.allSatisfy { $0 == map.inverseVariance[0] }
            && map.halfLogVariance.allSatisfy { $0 == map.halfLogVariance[0] }
        guard uniform else {
            means = []
            precision = 0
            halfLogVariance = 0
            return
        }
        precision = map.inverseVariance[0]
        halfLogVariance = map.halfLogVariance[0]
        let nodes = map.nodeCount
        var cells: [Int] = []
        for floor in 0..<grid.floors.count {
            for row in rowKnots {
                for column in columnKnots { cells.append((floor * grid.rows + row) * grid.columns + column) }
            }
        }
        var means: [Double] = []
        means.reserveCapacity(cells.count * nodes)
        for node in 0..<nodes {
            for cell in cells { means.append(map.mean[cell * nodes + node]) }
        }
        self.means = means
    }

    /// The widest spacing of the lattice by default, metres (1: every second point of `auto`'s 0.5 m grid).
    ///
    /// Chosen on the positioning benchmark's workload against the exhaustive posterior (docs/notes/posterior-lattice.md):
    /// 1 m answered within 3 mm at the median (2 cm at the 95th percentile), 1.5 m within 1 cm (5 cm).
    static let defaultSpacing = 1.0

    /// The most grid points between lattice points that keeps them at most `spacing` metres apart on `grid` (at
    /// least 1).
    static func stride(spacing: Double, grid: RadioMap.Grid) -> Int {
        let ratio = spacing / grid.spacing
        return ratio.isFinite && ratio >= 2 ? Int(min((ratio + 1e-9).rounded(.down), 1000)) : 1
    }

    /// Whether the lattice applies to the posterior (else ``estimate(from:)`` is the exhaustive one).
    var applies: Bool { !means.isEmpty }

    /// The indices 0, `stride`, 2 × `stride`, … below `count`, and `count − 1`.
    static func knots(stride: Int, count: Int) -> [Int] {
        var result = Array(Swift.stride(from: 0, to: max(count, 1), by: stride))
        if result.last != count - 1, count > 0 { result.append(count - 1) }
        return result
    }

    func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        guard applies else { return posterior.estimate(from: readings) }
        let map = posterior.map
        let (columns, values) = map.heard(readings)
        guard !columns.isEmpty else {
            return .failure(NoFix(.notHeard, "none of the nodes heard is in the radio map"))
        }
        let perFloor = columnKnots.count * rowKnots.count
        let count = perFloor * map.grid.floors.count
        let answer = withUnsafeTemporaryAllocation(of: Double.self, capacity: count) { logs -> Estimate? in
            let peak = logPosteriors(columns: columns, values: values, into: logs)
            guard peak.isFinite else { return nil }
            return mean(logs: logs, peak: peak)
        }
        // Readings that fit nowhere (absurd RSSI) or weights that over- or underflow: as the exhaustive method.
        guard let answer else { return posterior.estimate(from: readings) }
        return .success(answer)
    }

    /// The tempered log-posterior (``PosteriorGrid``'s terms) at every lattice point, into `logs`; answers the
    /// highest.
    ///
    /// Four lattice points at a time, one per lane (the same arithmetic as one at a time): the offset is the
    /// precision-weighted mean of the residuals under the prior, the Student-t terms one ln Π(1 + u) (the sum of
    /// ln(1 + u) should the product overflow).
    private func logPosteriors(columns: [Int], values: [Double], into logs: UnsafeMutableBufferPointer<Double>)
        -> Double
    {
        let configuration = posterior.configuration
        let count = logs.count
        let heard = columns.count
        let tau2 = configuration.offsetSigma * configuration.offsetSigma
        let priorPrecision = tau2 > 0 ? 1 / tau2 : .infinity
        let offsetFactor = priorPrecision.isFinite ? precision / (priorPrecision + Double(heard) * precision) : 0
        let scale = precision / configuration.degreesOfFreedom
        let tail = 0.5 * (configuration.degreesOfFreedom + 1)
        let temperature = configuration.temperature
        let halfLogs = Double(heard) * halfLogVariance
        let starts = columns.map { $0 * count }
        var peak = -Double.infinity
        means.withUnsafeBufferPointer { means in
            starts.withUnsafeBufferPointer { starts in
                values.withUnsafeBufferPointer { values in
                    var first = 0
                    while first < count {
                        let last = count - 1
                        let lanes = SIMD4<Int>(first, min(first + 1, last), min(first + 2, last), min(first + 3, last))
                        @inline(__always)
                        func mean(_ k: Int) -> SIMD4<Double> {
                            let plane = starts[k]
                            return SIMD4(
                                means[plane &+ lanes[0]], means[plane &+ lanes[1]], means[plane &+ lanes[2]],
                                means[plane &+ lanes[3]])
                        }
                        var sum = SIMD4<Double>.zero
                        for k in 0..<heard { sum += SIMD4(repeating: values[k]) - mean(k) }
                        let offset = offsetFactor * sum
                        var product = SIMD4<Double>(repeating: 1)
                        for k in 0..<heard {
                            let e = SIMD4(repeating: values[k]) - mean(k) - offset
                            product *= 1 + e * e * scale
                        }
                        for lane in 0..<min(4, count - first) {
                            var studentT = Foundation.log(product[lane])
                            if studentT == .infinity {
                                studentT = 0
                                for k in 0..<heard {
                                    let e = values[k] - means[starts[k] + lanes[lane]] - offset[lane]
                                    studentT += Foundation.log1p(e * e * scale)
                                }
                            }
                            let prior =
                                priorPrecision.isFinite ? -0.5 * offset[lane] * offset[lane] * priorPrecision : 0
                            let log = temperature * (prior - tail * studentT - halfLogs)
                            logs[first + lane] = log
                            if log > peak { peak = log }
                        }
                        first += 4
                    }
                }
            }
        }
        return peak
    }

    /// The estimate from the lattice's log-posteriors (`peak` the highest), as ``PosteriorGrid`` states it over the
    /// interpolated grid; `nil` when the weights do not sum to a positive finite number.
    private func mean(logs: UnsafeMutableBufferPointer<Double>, peak: Double) -> Estimate? {
        let grid = posterior.map.grid
        let width = columnKnots.count
        let height = rowKnots.count
        let perFloor = width * height
        // Per floor and lattice row: the row's interpolated sums over the grid's columns (mass, first and second
        // moments), then over the grid's rows.
        var best: (floor: Int, mass: Double, first: SIMD2<Double>, second: Double)?
        columnMoments.mass.withUnsafeBufferPointer { columnMass in
            columnMoments.first.withUnsafeBufferPointer { columnFirst in
                columnMoments.second.withUnsafeBufferPointer { columnSecond in
                    for floor in 0..<grid.floors.count {
                        var mass = 0.0
                        var first = SIMD2<Double>.zero
                        var second = 0.0
                        for row in 0..<height {
                            var rowMass = 0.0
                            var rowFirst = 0.0
                            var rowSecond = 0.0
                            let start = floor * perFloor + row * width
                            for column in 0..<width {
                                let w = Foundation.exp(logs[start + column] - peak)
                                rowMass += w * columnMass[column]
                                rowFirst += w * columnFirst[column]
                                rowSecond += w * columnSecond[column]
                            }
                            let a = rowMoments.mass[row]
                            mass += a * rowMass
                            first += SIMD2(a * rowFirst, rowMoments.first[row] * rowMass)
                            second += a * rowSecond + rowMoments.second[row] * rowMass
                        }
                        // The floor holding most of the posterior (the first of equals).
                        if mass > best?.mass ?? -1 {
                            best = (floor, mass, first, second)
                        }
                    }
                }
            }
        }
        guard let best, best.mass > 0, best.mass.isFinite, best.second.isFinite else { return nil }
        let center = best.first / best.mass
        let spread = max(best.second / best.mass - (center * center).sum(), 0)
        let accuracy = max(grid.spacing / 2, grid.spacing * spread.squareRoot())
        return Estimate(
            position: Point3D(
                x: grid.minimum.x + center.x * grid.spacing, y: grid.minimum.y + center.y * grid.spacing,
                z: grid.height ?? 0),
            floor: grid.floors[best.floor], accuracy: accuracy, confidence: 1 / (1 + accuracy / 2))
    }

    /// One axis's interpolation sums per lattice index.
    struct Moments: Sendable {
        /// Σ over grid indices i of φ(i), of φ(i) × i and of φ(i) × i², φ the lattice index's hat function.
        var mass: [Double]
        var first: [Double]
        var second: [Double]

        /// The sums of the hat functions of `knots` (increasing grid indices from 0 to the last).
        init(knots: [Int]) {
            var mass = [Double](repeating: 0, count: knots.count)
            var first = mass
            var second = mass
            func add(_ slot: Int, _ share: Double, at index: Int) {
                let i = Double(index)
                mass[slot] += share
                first[slot] += share * i
                second[slot] += share * i * i
            }
            if let last = knots.last {
                var interval = 0
                for index in 0...last {
                    guard knots.count > 1 else {
                        add(0, 1, at: index)
                        continue
                    }
                    while interval + 1 < knots.count - 1, knots[interval + 1] <= index { interval += 1 }
                    let low = knots[interval]
                    let high = knots[interval + 1]
                    let share = Double(index - low) / Double(high - low)
                    add(interval, 1 - share, at: index)
                    add(interval + 1, share, at: index)
                }
            }
            self.mass = mass
            self.first = first
            self.second = second
        }
    }
}
