import Foundation

/// The particle filter's check that a cloud still explains what is heard, and its way back when it does not.
///
/// A cloud can lose its device: walls keep particles from following a walker through a door they lagged behind, a
/// burst of readings pulls the cloud into the wrong room, and a cloud that sits where the readings are unlikely but
/// equally unlikely at every particle keeps its weights even and never resamples away from there. So the filter's
/// prior at each update is a mixture: the cloud, and with the chance ε (``ParticleFilter/Configuration/lostChance``)
/// a device that could be anywhere on the map. The cloud's evidence is ln Σ wᵢ Lᵢ (its weights before the update
/// times each particle's likelihood of the readings), the other's ln (1/n Σ L) over ``cells``, a lattice spread evenly
/// over every floor of the map; with Δ the second less the first, the posterior weight of "anywhere" is
/// 1 / (1 + e^(ln((1 − ε)/ε) − Δ)), and that share of the particles is drawn afresh from the readings' own posterior
/// over these cells (the rest resampled from the cloud). A cloud that explains the readings about as well as
/// ignorance gives up almost nothing; one far worse (Δ well above ln(1/ε)) is replaced nearly whole. Both evidences
/// use the same tempered likelihood and receiver offset prior (docs/notes/particle-filter-lost-cloud.md).
struct CloudRecovery: Sendable {
    /// The most reference cells per floor: the check then adds about a tenth to an update's time, and found the lost
    /// clouds of the development sets as well as 256 did (docs/notes/particle-filter-lost-cloud.md).
    static let cellsPerFloor = 64

    /// The reference cells, as indices of the likelihood's lattice.
    let cells: [Int32]
    /// Per reference cell: its place, metres.
    let x: [Double]
    let y: [Double]
    /// Per reference cell: its floor index in the map's grid.
    let floor: [Int]
    /// Half the distance between neighbouring reference cells, metres: a particle drawn at a cell lands uniformly
    /// within this of it on each axis.
    let halfSpacing: Double

    /// Every `k`-th point of `likelihood`'s lattice in each direction on every floor, `k` the smallest that keeps a
    /// floor's points to ``cellsPerFloor``; their places from `map`.
    init(likelihood: ParticleLikelihood, map: RadioMap) {
        let grid = map.grid
        let latticePerFloor = likelihood.columns * likelihood.rows
        let mapPerFloor = grid.rows * grid.columns
        let floors =
            latticePerFloor > 0 && mapPerFloor > 0
            ? min(likelihood.cellCount / latticePerFloor, map.cells.count / mapPerFloor) : 0
        let step = max(1, Int((Double(latticePerFloor) / Double(Self.cellsPerFloor)).squareRoot().rounded(.up)))
        var cells: [Int32] = []
        var x: [Double] = []
        var y: [Double] = []
        var floor: [Int] = []
        for level in 0..<floors {
            for row in Swift.stride(from: 0, to: likelihood.rows, by: step) {
                for column in Swift.stride(from: 0, to: likelihood.columns, by: step) {
                    let mapCell = level * mapPerFloor + (row * grid.columns + column) * likelihood.stride
                    guard map.cells.indices.contains(mapCell) else { continue }
                    cells.append(Int32(truncatingIfNeeded: level * latticePerFloor + row * likelihood.columns + column))
                    x.append(map.cells[mapCell].x)
                    y.append(map.cells[mapCell].y)
                    floor.append(level)
                }
            }
        }
        self.cells = cells
        self.x = x
        self.y = y
        self.floor = floor
        self.halfSpacing = 0.5 * Double(step * likelihood.stride) * map.spacing
    }

    /// The share (0…1) of a cloud whose evidence is `cloudEvidence` (nats) to draw afresh, given the log-likelihoods
    /// `logs` of the readings at the reference cells (in the cloud's tempering, one per cell) and the prior chance
    /// `lostChance` that the cloud has lost its device: the posterior weight of that hypothesis, 0 when either
    /// evidence is not finite or the chance is 0. On return `logs` holds the reference cells' posterior weights
    /// (summing to 1).
    static func share(cloudEvidence: Double, logs: UnsafeMutableBufferPointer<Double>, lostChance: Double) -> Double {
        guard cloudEvidence.isFinite, !logs.isEmpty, lostChance > 0 else { return 0 }
        var peak = -Double.infinity
        for log in logs { peak = max(peak, log) }
        guard peak.isFinite else { return 0 }
        var total = 0.0
        for i in logs.indices {
            logs[i] = Foundation.exp(logs[i] - peak)
            total += logs[i]
        }
        let referenceEvidence = peak + Foundation.log(total / Double(logs.count))
        let deficit = referenceEvidence - cloudEvidence
        guard deficit.isFinite, total > 0 else { return 0 }
        for i in logs.indices { logs[i] /= total }
        guard lostChance < 1 else { return 1 }
        // ε e^Δ / (1 − ε + ε e^Δ), without overflow.
        return 1 / (1 + Foundation.exp(Foundation.log((1 - lostChance) / lostChance) - deficit))
    }
}
