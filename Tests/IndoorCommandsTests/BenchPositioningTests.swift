import Foundation
import IndoorModel
import IndoorPositioning
import Testing

@testable import IndoorCommands

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
        // σ 4 dB over 8 nodes: the bound is metres; the solver is within a modest factor of it.
        #expect(report.crbRMSMeters > 1 && report.crbRMSMeters < 5)
        #expect(report.nonlinearToCRBRatio > 0.8 && report.nonlinearToCRBRatio < 1.3)
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(json.contains("\"nonlinearToCRBRatio\""))
        #expect(report.text.contains("Cramér–Rao: bound RMS"))
    }
}
