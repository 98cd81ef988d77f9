import Foundation

/// The radio map's per-(cell, node) terms of the particle filter's likelihood at the points of its lattice, laid out
/// for its inner loop.
///
/// The lattice is the map's grid points whose column and row are multiples of a stride (every point for stride 1); its
/// cells are numbered as the map's are, floor by floor, row by row, with ``columns`` per row and ``rows`` per floor.
/// Node-major planes of compact entries: the entry of node column `j` and lattice cell `c` is at `j × cellCount + c`.
/// A cloud covers a few hundred neighbouring lattice points and hears a handful of nodes, so weighing it reads a few
/// short runs of each heard node's plane instead of every node's entries of every cell (the map's own tables are
/// cell-major), neighbours in a row of the lattice are neighbours in memory, and the map's four tables become one of
/// 16 bytes per entry.
struct ParticleLikelihood: Sendable {
    /// One (cell, node) of the map.
    struct Entry: Sendable {
        /// Mean RSSI, dBm.
        var mean: Double
        /// 1 / variance of the RSSI, 1/dB².
        var precision: Float
        /// ½ ln(variance) + missingWeight × ln P(not heard): what hearing the node costs at the cell, apart from the
        /// Student-t fit (nats).
        var constant: Float
    }

    /// The entries, node-major.
    let entries: [Entry]
    /// The number of lattice cells (the length of each node's plane).
    let cellCount: Int
    /// The lattice's stride: every how many grid columns and rows it has a point (1 or more).
    let stride: Int
    /// Lattice columns per row and rows per floor.
    let columns: Int
    let rows: Int
    /// Per lattice cell: missingWeight × Σ over nodes of ln P(not heard) (nats), the unheard-nodes term before the heard
    /// nodes' share is taken back (in ``Entry/constant``).
    let missing: [Double]
    /// 1 / ν, ν the Student-t's degrees of freedom.
    let inverseNu: Double
    /// (ν + 1) / 2: the factor on ln(1 + e² / (ν σ²)) in the Student-t's negative log density.
    let tail: Double

    /// The planes of `map` on the lattice of every `stride`-th grid column and row, with the unheard-nodes term
    /// weighted by `missingWeight`, for a Student-t of `degreesOfFreedom`.
    init(map: RadioMap, stride: Int, missingWeight: Double, degreesOfFreedom: Double) {
        let grid = map.grid
        let stride = max(1, stride)
        let columns = (grid.columns - 1) / stride + 1
        let rows = (grid.rows - 1) / stride + 1
        // The map's cell of each lattice cell (a map's tables hold every grid point of every floor).
        let perFloor = grid.rows * grid.columns
        let floors = perFloor > 0 ? map.cells.count / perFloor : 0
        var cells: [Int] = []
        cells.reserveCapacity(floors * rows * columns)
        for floor in 0..<floors {
            for row in 0..<rows {
                for column in 0..<columns { cells.append(floor * perFloor + (row * grid.columns + column) * stride) }
            }
        }
        let nodes = map.nodeCount
        var entries: [Entry] = []
        entries.reserveCapacity(cells.count * nodes)
        for node in 0..<nodes {
            for cell in cells {
                let index = cell * nodes + node
                entries.append(
                    Entry(
                        mean: map.mean[index], precision: Float(map.inverseVariance[index]),
                        constant: Float(map.halfLogVariance[index] + missingWeight * map.missLog[index])))
            }
        }
        self.entries = entries
        self.cellCount = cells.count
        self.stride = stride
        self.columns = columns
        self.rows = rows
        self.missing = cells.map { missingWeight * map.missSum[$0] }
        self.inverseNu = 1 / degreesOfFreedom
        self.tail = 0.5 * (degreesOfFreedom + 1)
    }

    /// The log-likelihood (nats, times `scale`), the receiver offset estimated (dB) and that estimate's variance
    /// (dB²) at each of `cells` (indices of lattice cells) for the readings `values` (dBm) of the nodes in map
    /// columns `columns`, into `logs`, `offsets` and `variances` (each at least as long as `cells`).
    ///
    /// The offset at a cell is the precision-weighted mean of the readings' residuals and the prior (`priorMean` dB
    /// with `priorPrecision` 1/dB²), its variance the inverse of the summed precisions; with no prior precision the
    /// offset is `priorMean` and its variance 0. The Student-t terms
    /// Σ ln(1 + u) become one ln Π(1 + u) per cell (the product of a handful of factors ≥ 1 stays finite; should it
    /// overflow, the sum is taken instead). Four cells at a time, one per lane (the same arithmetic as one at a time,
    /// so the same results, but four independent chains of dependent sums for the processor to overlap; the last
    /// group repeats its last cell in the lanes past the end): their heard nodes' entries are read from their planes
    /// (in the order of `cells`, so each plane is read forwards), then read again from the cache for the second pass.
    func evaluate(
        cells: UnsafeBufferPointer<Int32>, columns: [Int], values: [Double], priorPrecision: Double, priorMean: Double,
        scale: Double, logs: UnsafeMutableBufferPointer<Double>, offsets: UnsafeMutableBufferPointer<Double>,
        variances: UnsafeMutableBufferPointer<Double>
    ) {
        let n = cells.count
        let heard = min(columns.count, values.count)
        guard n > 0, logs.count >= n, offsets.count >= n, variances.count >= n else { return }
        let inverseNu = self.inverseNu
        let tail = self.tail
        let cellCount = self.cellCount
        // Per heard node: where its plane starts among the entries.
        let starts = columns.prefix(heard).map { $0 * cellCount }
        entries.withUnsafeBufferPointer { entries in
            starts.withUnsafeBufferPointer { starts in
                values.withUnsafeBufferPointer { values in
                    missing.withUnsafeBufferPointer { missing in
                        var first = 0
                        while first < n {
                            let last = n - 1
                            let lanes = SIMD4<Int>(
                                Int(cells[first]), Int(cells[min(first + 1, last)]),
                                Int(cells[min(first + 2, last)]), Int(cells[min(first + 3, last)]))
                            // Heard node k's entries of the four cells: mean (dBm), precision (1/dB²), constant.
                            @inline(__always)
                            func terms(_ k: Int) -> (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>) {
                                let plane = starts[k]
                                let e = (
                                    entries[plane &+ lanes[0]], entries[plane &+ lanes[1]], entries[plane &+ lanes[2]],
                                    entries[plane &+ lanes[3]]
                                )
                                return (
                                    SIMD4(e.0.mean, e.1.mean, e.2.mean, e.3.mean),
                                    SIMD4(
                                        Double(e.0.precision), Double(e.1.precision), Double(e.2.precision),
                                        Double(e.3.precision)),
                                    SIMD4(
                                        Double(e.0.constant), Double(e.1.constant), Double(e.2.constant),
                                        Double(e.3.constant))
                                )
                            }
                            var precisionSum = SIMD4<Double>(repeating: priorPrecision)
                            var weighted = SIMD4<Double>(repeating: priorPrecision * priorMean)
                            var constant = SIMD4<Double>.zero
                            for k in 0..<heard {
                                let (mean, precision, cost) = terms(k)
                                precisionSum += precision
                                weighted += precision * (SIMD4<Double>(repeating: values[k]) - mean)
                                constant += cost
                            }
                            let offset =
                                priorPrecision > 0 ? weighted / precisionSum : SIMD4<Double>(repeating: priorMean)
                            var product = SIMD4<Double>(repeating: 1)
                            for k in 0..<heard {
                                let (mean, precision, _) = terms(k)
                                let e = SIMD4<Double>(repeating: values[k]) - mean - offset
                                product *= 1 + e * e * precision * inverseNu
                            }
                            for lane in 0..<min(4, n - first) {
                                let cell = lanes[lane]
                                var fit = Foundation.log(product[lane])
                                if fit == .infinity {
                                    fit = 0
                                    for k in 0..<heard {
                                        let entry = entries[starts[k] + cell]
                                        let e = values[k] - entry.mean - offset[lane]
                                        fit += Foundation.log1p(e * e * Double(entry.precision) * inverseNu)
                                    }
                                }
                                let shift = offset[lane] - priorMean
                                offsets[first + lane] = offset[lane]
                                variances[first + lane] = priorPrecision > 0 ? 1 / precisionSum[lane] : 0
                                logs[first + lane] =
                                    scale
                                    * (-0.5 * shift * shift * priorPrecision + missing[cell] - tail * fit
                                        - constant[lane])
                            }
                            first += 4
                        }
                    }
                }
            }
        }
    }
}
