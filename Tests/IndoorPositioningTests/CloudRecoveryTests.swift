import Foundation
import IndoorModel
import Testing

@testable import IndoorPositioning

/// ``CloudRecovery``: the share of a cloud drawn afresh is the posterior weight of "the device could be anywhere",
/// and its reference cells spread over every floor of the map.
@Suite struct CloudRecoveryTests {
    /// The share for a cloud of evidence `cloud` against `count` reference cells of log-likelihood `level`, and the
    /// reference weights after it.
    func share(cloud: Double, level: Double = -7, count: Int = 8, lostChance: Double = 0.01) -> (Double, [Double]) {
        var logs = [Double](repeating: level, count: count)
        let share = logs.withUnsafeMutableBufferPointer {
            CloudRecovery.share(cloudEvidence: cloud, logs: $0, lostChance: lostChance)
        }
        return (share, logs)
    }

    @Test func theShareIsThePosteriorWeightOfAnywhere() {
        // As likely under the cloud as anywhere: the prior chance itself.
        let (even, weights) = share(cloud: -7)
        #expect(abs(even - 0.01) < 1e-12)
        #expect(weights.allSatisfy { abs($0 - 1.0 / 8) < 1e-12 })
        // 99 times likelier anywhere than under the cloud: even odds.
        #expect(abs(share(cloud: -7 - log(99.0)).0 - 0.5) < 1e-12)
        // Far likelier anywhere: nearly all of it; far likelier under the cloud: nearly none.
        #expect(share(cloud: -200).0 > 1 - 1e-12)
        #expect(share(cloud: 200).0 < 1e-80)
        // Also with reference log-likelihoods far from 0 (no underflow).
        #expect(abs(share(cloud: -1e4, level: -1e4).0 - 0.01) < 1e-12)
    }

    @Test func noChanceOrNoEvidenceGivesNothingAway() {
        #expect(share(cloud: -200, lostChance: 0).0 == 0)
        #expect(share(cloud: -.infinity).0 == 0)
        #expect(share(cloud: .nan).0 == 0)
        #expect(share(cloud: -7, level: -.infinity).0 == 0)
        #expect(share(cloud: -7, count: 0).0 == 0)
        #expect(share(cloud: 200, lostChance: 1).0 == 1)
    }

    @Test func theReferenceCellsSpreadOverEveryFloor() throws {
        let nodes = ParticleFilterTests.nodes(floors: 2)
        let engine = try MethodCatalog.engine(method: "particle-filter", nodes: nodes)
        let filter = try #require(engine.method as? ParticleFilter)
        let recovery = filter.recovery
        let grid = filter.posterior.map.grid
        #expect(recovery.cells.count == recovery.x.count && recovery.x.count == recovery.y.count)
        #expect(recovery.floor.count == recovery.cells.count)
        #expect(Set(recovery.floor) == [0, 1])
        for level in 0..<2 {
            let count = recovery.floor.filter { $0 == level }.count
            #expect(count > 16 && count <= CloudRecovery.cellsPerFloor, "floor \(level): \(count) cells")
        }
        #expect(recovery.x.allSatisfy { $0 >= grid.minimum.x && $0 <= grid.maximum.x })
        #expect(recovery.y.allSatisfy { $0 >= grid.minimum.y && $0 <= grid.maximum.y })
        // Their places span the grid's box, less the spacing between them.
        let spacing = 2 * recovery.halfSpacing
        #expect(spacing > 0)
        #expect((recovery.x.min() ?? .infinity) - grid.minimum.x < 1e-9)
        #expect(grid.maximum.x - (recovery.x.max() ?? -.infinity) < spacing + 1e-9)
        #expect(grid.maximum.y - (recovery.y.max() ?? -.infinity) < spacing + 1e-9)
        // Each is the lattice cell whose place it records.
        for (index, cell) in recovery.cells.enumerated() {
            let lattice = filter.likelihood
            let perFloor = lattice.columns * lattice.rows
            let row = (Int(cell) % perFloor) / lattice.columns
            let column = Int(cell) % lattice.columns
            let mapCell =
                Int(cell) / perFloor * grid.rows * grid.columns + (row * grid.columns + column) * lattice.stride
            #expect(filter.posterior.map.cells[mapCell].x == recovery.x[index])
            #expect(filter.posterior.map.cells[mapCell].y == recovery.y[index])
        }
    }
}
