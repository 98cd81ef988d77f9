import Foundation
import IndoorModel

/// The posterior mean of a ``PosteriorGrid`` over a path-loss map, weighed on a coarser lattice of its grid points:
/// the same estimate within centimetres at a fraction of the cost.
///
/// The posterior is evaluated exactly (``PosteriorGrid``'s terms) only at every ``stride``-th grid column and row
/// (and the last ones); every other grid point's weight is taken as the bilinear interpolation of the weights of the
/// four lattice points around it. The grid's sums (the weight, its first and second moments) are then linear in the
/// lattice points' weights, with factors computed once, so a fix costs the lattice points' likelihoods and a few sums
/// over them instead of a likelihood, a logarithm and an exponential at every grid point. The answer is taken as
/// ``PosteriorGrid`` takes it: the floor holding most of the posterior, the weighted mean there, the RMS spread as
/// accuracy.
///
/// Each lattice point's weight is taken as a product, not through its logarithm: the Student-t terms' product
/// Π(1 + u) raised to the power −temperature × (ν + 1) / 2 (a square root and a few products where that power is a
/// whole number of halves, as with ``AutoMethod``'s weightings), times e to the tempered offset prior
/// (``VectorExponential``). Its constant factors (the map's variance, the peak) are left out; they cancel in the mean.
///
/// Applies to maps whose RSSI variance is the same everywhere and weightings that ignore unheard nodes
/// (``PosteriorGrid/Configuration/missingWeight`` 0): the path-loss model of `auto` without a survey, whose posterior
/// is broad and smooth. Elsewhere (and where the weights over- or underflow) ``estimate(from:)`` is the exhaustive
/// ``PosteriorGrid/estimate(from:)``. docs/notes/posterior-lattice.md compares the two and the choice of stride;
/// docs/notes/auto-no-survey-speed.md how a lattice point's weight is taken.
struct PosteriorLattice: PositioningMethod {
    /// The posterior whose mean is taken.
    let posterior: PosteriorGrid
    /// Grid points between lattice points along a row or a column (1: every grid point, the exhaustive sums).
    let stride: Int
    /// Per axis, the lattice's indices into the grid's columns and rows.
    private let columnKnots: [Int]
    private let rowKnots: [Int]
    /// Per row axis lattice index: the sum over grid indices of the interpolation factor (`mass`), times the grid
    /// index (`first`), times its square (`second`), in grid units from the grid's corner.
    private let rowMoments: Moments
    /// The same sums along a row, four lattice columns to a group of lanes (the last group padded with zeros): group
    /// `g`'s mass at `3g`, first moment at `3g + 1`, second at `3g + 2`.
    private let columnSums: [SIMD4<Double>]
    /// Groups of four lattice columns per lattice row.
    private let rowGroups: Int
    /// Groups of four lattice points per node: floors × lattice rows × ``rowGroups``.
    private let groups: Int
    /// The map's mean RSSI on the lattice in units of ``unit`` dB, four lattice points of a row per group,
    /// node-major: node column `j`'s group `g` is at `j × groups + g`; groups floor by floor, row by row. A row's last
    /// group is padded with its last point's means. Empty when the lattice does not apply.
    private let means: [SIMD4<Double>]
    /// The map's 1 / variance (1/dB²), the same at every entry.
    private let precision: Double
    /// The unit of ``means``, dB: the map's standard deviation times √ν, so that a Student-t term's u is the square
    /// of a residual in this unit.
    private let unit: Double

    /// The smallest sum of the weights trusted (the weights are at most 1): below it some may have underflowed, and
    /// the exhaustive posterior (which weighs relative to its peak) answers.
    static let smallestMass = 1e-200

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
        rowMoments = Moments(knots: rowKnots)
        let columnMoments = Moments(knots: columnKnots)
        let mass = Self.lanes(columnMoments.mass)
        let first = Self.lanes(columnMoments.first)
        let second = Self.lanes(columnMoments.second)
        var columnSums: [SIMD4<Double>] = []
        columnSums.reserveCapacity(3 * mass.count)
        for group in mass.indices {
            columnSums.append(mass[group])
            columnSums.append(first[group])
            columnSums.append(second[group])
        }
        self.columnSums = columnSums
        let rowGroups = mass.count
        self.rowGroups = rowGroups
        groups = grid.floors.count * rowKnots.count * rowGroups
        let uniform =
            posterior.configuration.missingWeight == 0 && !map.cells.isEmpty && map.nodeCount > 0
            && map.cells.count == grid.columns * grid.rows * grid.floors.count
        // A map without nodes or cells (a venue of phones only) has no variance to weigh by: no lattice, as when
        // the variances differ.
        let precision = map.inverseVariance.first ?? 0
        let unit = (posterior.configuration.degreesOfFreedom / precision).squareRoot()
        guard uniform, map.inverseVariance.allSatisfy({ $0 == precision }), unit.isFinite, unit > 0 else {
            means = []
            self.precision = 0
            self.unit = 1
            return
        }
        self.precision = precision
        self.unit = unit
        let nodes = map.nodeCount
        let last = columnKnots.count - 1
        var means: [SIMD4<Double>] = []
        means.reserveCapacity(groups * nodes)
        for node in 0..<nodes {
            for floor in 0..<grid.floors.count {
                for row in rowKnots {
                    for group in 0..<rowGroups {
                        var lanes = SIMD4<Double>()
                        for lane in 0..<4 {
                            let column = columnKnots[min(group * 4 + lane, last)]
                            lanes[lane] =
                                map.mean[((floor * grid.rows + row) * grid.columns + column) * nodes + node] / unit
                        }
                        means.append(lanes)
                    }
                }
            }
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

    /// `values` four to a group, the last group padded with zeros.
    static func lanes(_ values: [Double]) -> [SIMD4<Double>] {
        Swift.stride(from: 0, to: values.count, by: 4).map { start in
            var lanes = SIMD4<Double>()
            for lane in 0..<min(4, values.count - start) { lanes[lane] = values[start + lane] }
            return lanes
        }
    }

    func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        guard applies else { return posterior.estimate(from: readings) }
        return estimate(heard: posterior.map.heard(readings), readings: readings)
    }

    /// ``estimate(from:)`` with the map columns and RSSI of `readings` already taken (`RadioMap.heard`).
    /// - Parameter prior: A horizontal Gaussian each lattice point's weight is multiplied by (``CentroidPrior``), or
    ///   `nil`. Where the weights with it underflow (the prior far from everywhere the readings fit), the posterior
    ///   answers without it.
    func estimate(
        heard: (columns: [Int], values: [Double]), readings: [NodeReading], prior: CentroidPrior.Gaussian? = nil
    ) -> Result<Estimate, NoFix> {
        guard applies else { return posterior.estimate(from: readings) }
        guard !heard.columns.isEmpty else {
            return .failure(NoFix(.notHeard, "none of the nodes heard is in the radio map"))
        }
        if let prior, let answer = mean(columns: heard.columns, values: heard.values, prior: prior) {
            return .success(answer)
        }
        // Readings that fit nowhere (absurd RSSI) or weights that over- or underflow: as the exhaustive method.
        guard let answer = mean(columns: heard.columns, values: heard.values, prior: nil) else {
            return posterior.estimate(from: readings)
        }
        return .success(answer)
    }

    /// Per lattice column (four to a group, as ``columnSums``) and per lattice row, `prior`'s factor there where it
    /// is separable (all ones without a prior); `nil` where it is not (its axes turned from the grid's).
    private func priorFactors(_ prior: CentroidPrior.Gaussian?) -> (columns: [SIMD4<Double>], rows: [Double])? {
        let grid = posterior.map.grid
        guard let prior else {
            return (
                [SIMD4<Double>](repeating: SIMD4(repeating: 1), count: rowGroups),
                [Double](repeating: 1, count: rowKnots.count)
            )
        }
        guard prior.xy == 0 else { return nil }
        let columns = Self.lanes(columnKnots.map { prior.factor(x: grid.minimum.x + Double($0) * grid.spacing) })
        let rows = rowKnots.map { prior.factor(y: grid.minimum.y + Double($0) * grid.spacing) }
        return (columns, rows)
    }

    /// The posterior mean over the interpolated grid, as ``PosteriorGrid`` states it, from the lattice points'
    /// weights (times `prior`'s factors there); `nil` when the weights may have underflowed or do not sum to a
    /// positive finite number.
    private func mean(columns: [Int], values: [Double], prior: CentroidPrior.Gaussian?) -> Estimate? {
        let grid = posterior.map.grid
        let factors = priorFactors(prior)
        let columnPrior = factors?.columns ?? [SIMD4<Double>](repeating: SIMD4(repeating: 1), count: rowGroups)
        let rowPrior = factors?.rows ?? [Double](repeating: 1, count: rowKnots.count)
        let height = rowKnots.count
        let rowGroups = self.rowGroups
        // A prior whose axes are turned from the grid's is weighed point by point: its logarithm at every lattice
        // point of a floor (row by row, four to a group), taken into each weight's own exponential.
        var logPriors: [SIMD4<Double>] = []
        if factors == nil, let prior {
            let dxs = Self.lanes(columnKnots.map { grid.minimum.x + Double($0) * grid.spacing - prior.center.x })
            logPriors.reserveCapacity(height * rowGroups)
            for knot in rowKnots {
                let dy = grid.minimum.y + Double(knot) * grid.spacing - prior.center.y
                for dx in dxs {
                    logPriors.append(-0.5 * (prior.xx * dx * dx + (2 * prior.xy * dy) * dx + prior.yy * dy * dy))
                }
            }
        }
        let turned = !logPriors.isEmpty
        let weighing = Weighing(
            configuration: posterior.configuration, precision: precision, unit: unit, heard: columns.count,
            valueSum: values.reduce(0, +) / unit)
        let groups = self.groups
        // The floor holding most of the posterior (the first of equals): its sums.
        var best: (floor: Int, mass: Double, first: SIMD2<Double>, second: Double)?
        means.withUnsafeBufferPointer { means in
            columnSums.withUnsafeBufferPointer { columnSums in
                logPriors.withUnsafeBufferPointer { logPriors in
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: columns.count) { scaled in
                        withUnsafeTemporaryAllocation(of: Int.self, capacity: columns.count) { starts in
                            // Per reading: its RSSI in the means' unit, and where its node's means start.
                            for k in columns.indices {
                                scaled[k] = values[k] / unit
                                starts[k] = columns[k] &* groups
                            }
                            let values = UnsafeBufferPointer(scaled)
                            let starts = UnsafeBufferPointer(starts)
                            for floor in 0..<grid.floors.count {
                                var mass = 0.0
                                var first = SIMD2<Double>.zero
                                var second = 0.0
                                for row in 0..<height {
                                    var rowMass = SIMD4<Double>.zero
                                    var rowFirst = SIMD4<Double>.zero
                                    var rowSecond = SIMD4<Double>.zero
                                    let start = (floor &* height &+ row) &* rowGroups
                                    for column in 0..<rowGroups {
                                        let w =
                                            weighing.weights(
                                                group: start &+ column, means: means, starts: starts, values: values,
                                                logPrior: turned ? logPriors[row &* rowGroups &+ column] : .zero,
                                                hasLogPrior: turned)
                                            * columnPrior[column]
                                        rowMass += w * columnSums[3 &* column]
                                        rowFirst += w * columnSums[3 &* column &+ 1]
                                        rowSecond += w * columnSums[3 &* column &+ 2]
                                    }
                                    rowMass *= rowPrior[row]
                                    rowFirst *= rowPrior[row]
                                    rowSecond *= rowPrior[row]
                                    let a = rowMoments.mass[row]
                                    let sumMass = rowMass.sum()
                                    mass += a * sumMass
                                    first += SIMD2(a * rowFirst.sum(), rowMoments.first[row] * sumMass)
                                    second += a * rowSecond.sum() + rowMoments.second[row] * sumMass
                                }
                                if mass > best?.mass ?? -1 {
                                    best = (floor, mass, first, second)
                                }
                            }
                        }
                    }
                }
            }
        }
        // A mass this small may hold weights that underflowed: the exhaustive posterior weighs relative to its peak.
        guard let best, best.mass >= Self.smallestMass, best.mass.isFinite, best.second.isFinite else { return nil }
        let center = best.first / best.mass
        let spread = max(best.second / best.mass - (center * center).sum(), 0)
        let accuracy = max(grid.spacing / 2, grid.spacing * spread.squareRoot())
        return Estimate(
            position: Point3D(
                x: grid.minimum.x + center.x * grid.spacing, y: grid.minimum.y + center.y * grid.spacing,
                z: grid.height ?? 0),
            floor: grid.floors[best.floor], accuracy: accuracy, confidence: 1 / (1 + accuracy / 2))
    }

    /// How four lattice points' weights are taken from the means there, for one fix.
    ///
    /// The offset is the precision-weighted mean of the residuals under the prior; the weight
    /// Π(1 + u)^−(temperature × (ν + 1) / 2) × e^(temperature × prior): the exponential of ``PosteriorGrid``'s
    /// log-posterior without its constant term (the map's variance), at most 1. RSSI, means and offset are in the
    /// lattice's unit (σ √ν), so that u is a residual's square.
    struct Weighing {
        /// The offset's factor on the sum of the residuals.
        let offsetFactor: Double
        /// The power of Π(1 + u), negated, and the same in halves when it is a whole number of halves (1 to 64).
        let power: Double
        let halves: Int?
        /// The weight's logarithm per squared offset (0: no prior).
        let priorFactor: Double
        /// Nodes heard, and the sum of their RSSI.
        let heard: Int
        let valueSum: Double

        /// - Parameters:
        ///   - configuration: The posterior's weighting.
        ///   - precision: The map's 1 / variance, 1/dB².
        ///   - unit: The unit of RSSI, means and offsets, dB.
        ///   - heard: Nodes heard.
        ///   - valueSum: The sum of their RSSI, in `unit`.
        init(configuration: PosteriorGrid.Configuration, precision: Double, unit: Double, heard: Int, valueSum: Double)
        {
            let tau2 = configuration.offsetSigma * configuration.offsetSigma
            let priorPrecision = tau2 > 0 ? 1 / tau2 : .infinity
            offsetFactor = priorPrecision.isFinite ? precision / (priorPrecision + Double(heard) * precision) : 0
            power = configuration.temperature * 0.5 * (configuration.degreesOfFreedom + 1)
            priorFactor = priorPrecision.isFinite ? -0.5 * configuration.temperature * priorPrecision * unit * unit : 0
            let halves = (2 * power).rounded()
            self.halves = abs(2 * power - halves) <= 1e-12 && halves >= 1 && halves <= 64 ? Int(halves) : nil
            self.heard = heard
            self.valueSum = valueSum
        }

        /// The weights of the four lattice points of `group`: the `k`-th reading heard, `values[k]`, against its
        /// node's means at `starts[k] + group`, times e^`logPrior` where `hasLogPrior` (a prior's logarithm at the
        /// four points, taken into the same exponential as the offset's prior).
        @inline(__always)
        func weights(
            group: Int, means: UnsafeBufferPointer<SIMD4<Double>>, starts: UnsafeBufferPointer<Int>,
            values: UnsafeBufferPointer<Double>, logPrior: SIMD4<Double> = .zero, hasLogPrior: Bool = false
        ) -> SIMD4<Double> {
            var meanSum = SIMD4<Double>.zero
            for k in 0..<heard { meanSum += means[starts[k] &+ group] }
            let offset = offsetFactor * (valueSum - meanSum)
            var product = SIMD4<Double>(repeating: 1)
            for k in 0..<heard {
                let e = (values[k] - offset) - means[starts[k] &+ group]
                product *= 1 + e * e
            }
            let prior = priorFactor * offset * offset + logPrior
            guard let halves else {
                let logs = SIMD4(
                    Foundation.log(product[0]), Foundation.log(product[1]), Foundation.log(product[2]),
                    Foundation.log(product[3]))
                return VectorExponential.exp(prior - power * logs)
            }
            // Lane by lane: `Double.squareRoot()` is the processor's instruction (`SIMD4`'s goes through the C
            // library's).
            var raised =
                halves & 1 == 1
                ? SIMD4(
                    product[0].squareRoot(), product[1].squareRoot(), product[2].squareRoot(),
                    product[3].squareRoot()) : SIMD4(repeating: 1)
            var square = product
            var remaining = halves >> 1
            while remaining > 0 {
                if remaining & 1 == 1 { raised *= square }
                remaining >>= 1
                if remaining > 0 { square *= square }
            }
            return (priorFactor != 0 || hasLogPrior ? VectorExponential.exp(prior) : SIMD4(repeating: 1)) / raised
        }
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
