import Foundation
import IndoorModel
import IndoorPositioning
import Testing

@testable import IndoorBenchmarks

@Suite("indoor bench positioning")
struct BenchPositioningTests {
    @Test func theWorkloadFollowsTheStandardGeometry() {
        let workload = PositioningWorkload(devices: 100, seed: 3)
        #expect(workload.nodes.count == 24)
        #expect(workload.nodes.allSatisfy { $0.position.z == 2.5 })
        #expect(workload.nodes.map(\.position.x).max() == 40)
        #expect(workload.nodes.map(\.position.y).max() == 30)
        #expect(workload.heard.allSatisfy { $0.count == 8 })
        #expect(workload.devices.allSatisfy { $0.z == 1.2 && (0...40).contains($0.x) && (0...30).contains($0.y) })
        // Seeded: the same seed gives the same draws.
        #expect(
            PositioningWorkload(devices: 100, seed: 3).heard.map { $0.map(\.rssi) }
                == workload.heard.map { $0.map(\.rssi) })
    }

    @Test func theReportCoversEverySolverAndTheBound() throws {
        let report = PositioningBenchReport.measure(devices: 200, seed: 1, seconds: 0.001)
        #expect(
            report.solvers.map(\.name) == [
                "weighted-centroid", "power-center", "epta", "sphere-intersection", "linear-least-squares", "nonlinear",
                "knn", "blend",
            ])
        #expect(report.solvers.allSatisfy { $0.fixesPerSecond > 0 })
        #expect(report.engineSightingsPerSecond > 0)
        #expect(report.nonlinearMisses == 0)
        // The seeded workload (σ 4 dB, 8 nodes heard) gives exactly these: the bound's RMS, and `nonlinear`'s RMSE
        // 1.107 times it.
        #expect(abs(report.crbRMSMeters - 2.803027724525156) < 1e-9)
        #expect(abs(report.nonlinearToCRBRatio - 1.1067800886505237) < 1e-9)
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(json.contains("\"nonlinearToCRBRatio\""))
        #expect(report.text.contains("Cramér–Rao: bound RMS"))
        // The C reference was measured beside `nonlinear`, and the ratio is the two rates'.
        #expect(report.gaussNewtonCFixesPerSecond > 0)
        let nonlinear = try #require(report.solvers.first { $0.name == "nonlinear" })
        #expect(
            abs(report.nonlinearToGaussNewtonC - nonlinear.fixesPerSecond / report.gaussNewtonCFixesPerSecond) < 1e-9)
        #expect(json.contains("\"nonlinearToGaussNewtonC\""))
        #expect(report.text.contains("plain Gauss–Newton in C"))
        // The particle filter's C reference and the default's exhaustive posterior were measured beside them.
        let filter = report.particleFilter
        #expect(filter.updatesPerSecond > 0 && filter.uncheckedUpdatesPerSecond > 0 && filter.cUpdatesPerSecond > 0)
        #expect(abs(filter.updatesToC - filter.uncheckedUpdatesPerSecond / filter.cUpdatesPerSecond) < 1e-9)
        #expect(filter.defaultFixesPerSecond > 0 && filter.exhaustiveFixesPerSecond > 0)
        #expect(json.contains("\"updatesToC\"") && json.contains("\"exhaustiveFixesPerSecond\""))
        #expect(report.text.contains("without the lost-cloud check") && report.text.contains("without it in plain C"))
    }

    /// The C reference solves the same problem: its fixes land where `nonlinear`'s do (which differ only by the robust
    /// loss and the damping), as close to the truth, and it refuses fewer than three nodes.
    @Test func theCReferenceSolvesTheSameProblem() throws {
        let workload = PositioningWorkload(devices: 300, seed: 2)
        let readings = workload.readings()
        let baseline = GaussNewtonBaseline(readings: readings, deviceHeight: PositioningWorkload.deviceHeight)
        let fixes = baseline.fixes()
        #expect(fixes.count == 300)
        let solver = NonlinearLeastSquares(deviceHeight: PositioningWorkload.deviceHeight)
        var apart: [Double] = []
        var referenceSquares = 0.0
        var solverSquares = 0.0
        for (index, fix) in fixes.enumerated() {
            let c = try #require(fix)
            let reference = Point2D(x: c.x, y: c.y)
            let swift = try solver.estimate(from: readings[index]).get().position.horizontal
            apart.append(reference.distance(to: swift))
            let truth = workload.devices[index].horizontal
            referenceSquares += reference.distance(to: truth) * reference.distance(to: truth)
            solverSquares += swift.distance(to: truth) * swift.distance(to: truth)
        }
        apart.sort()
        #expect(apart[apart.count / 2] < 0.1, "median \(apart[apart.count / 2]) m apart")
        let referenceRMSE = (referenceSquares / 300).squareRoot()
        let solverRMSE = (solverSquares / 300).squareRoot()
        #expect(referenceRMSE < 1.25 * solverRMSE, "C \(referenceRMSE) m, nonlinear \(solverRMSE) m")
        // Two nodes are too few.
        let two = GaussNewtonBaseline(
            readings: [Array(readings[0].prefix(2))], deviceHeight: PositioningWorkload.deviceHeight)
        #expect(two.fixes().count == 1 && two.fixes()[0] == nil)
    }
}
