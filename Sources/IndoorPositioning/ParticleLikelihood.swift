import Foundation

/// The radio map's per-(cell, node) terms of the particle filter's likelihood, laid out for its inner loop.
///
/// Node-major planes of compact entries: the entry of node column `j` and cell `c` is at
/// `j × cellCount + c`. A cloud covers a few hundred neighbouring cells and hears a handful of nodes, so weighing it
/// reads a few short runs of each heard node's plane instead of every node's entries of every cell (the map's own
/// tables are cell-major), and the map's four tables become one of 16 bytes per entry.
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
    /// The number of grid cells (the length of each node's plane).
    let cellCount: Int

    /// The planes of `map`, with the unheard-nodes term weighted by `missingWeight`.
    init(map: RadioMap, missingWeight: Double) {
        let cellCount = map.cells.count
        let nodes = map.nodeCount
        var entries: [Entry] = []
        entries.reserveCapacity(cellCount * nodes)
        for column in 0..<nodes {
            for cell in 0..<cellCount {
                let index = cell * nodes + column
                entries.append(
                    Entry(
                        mean: map.mean[index], precision: Float(map.inverseVariance[index]),
                        constant: Float(map.halfLogVariance[index] + missingWeight * map.missLog[index])))
            }
        }
        self.entries = entries
        self.cellCount = cellCount
    }

    /// Table steps per unit of the argument of ``log1p(_:table:)``.
    static let log1pSteps = 256.0
    /// The largest argument ``log1p(_:table:)`` interpolates; beyond it, it calls `Foundation.log1p`.
    static let log1pLimit = 16.0

    /// `log1p` at 0, 1/256, 2/256, … 16 (4097 values).
    static let log1pTable: [Double] = (0...Int(log1pLimit * log1pSteps)).map {
        Foundation.log1p(Double($0) / log1pSteps)
    }

    /// `log1p(u)` for `u ≥ 0` by quadratic interpolation (Newton's form through three table points) in `table`
    /// (``log1pTable``) up to ``log1pLimit``, exact beyond (and for NaN). The error is at most
    /// step³ / (9√3) × max |log1p‴| = 7.7 × 10⁻⁹ (at u = 0, shrinking as 1 / (1 + u)³).
    @inline(__always)
    static func log1p(_ u: Double, table: UnsafeBufferPointer<Double>) -> Double {
        let scaled = u * log1pSteps
        // The last interval uses the two points before it as well.
        guard scaled >= 0, scaled < log1pLimit * log1pSteps - 1 else { return Foundation.log1p(u) }
        let index = Int(scaled)
        let f = scaled - Double(index)
        let low = table[index]
        let middle = table[index + 1]
        let first = middle - low
        let second = table[index + 2] - 2 * middle + low
        return low + f * (first + 0.5 * (f - 1) * second)
    }
}
