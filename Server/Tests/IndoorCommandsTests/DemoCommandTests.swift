import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import Testing

@testable import IndoorCommands

@Suite("indoor demo")
struct DemoCommandTests {
    @Test func runsTheDefaultMethodUnlessAskedForOthers() throws {
        #expect(try DemoCommand.parse([]).methodNames == [MethodCatalog.defaultName])
        #expect(MethodCatalog.defaultName == "auto")
        #expect(try DemoCommand.parse(["--method", "knn", "--method", "blend"]).methodNames == ["knn", "blend"])
    }

    /// The demo scores as `indoor evaluate` does on the same office: the filter's walkers keep out of its walls.
    @Test func theDemosEnginesKnowTheOfficesWalls() throws {
        var options = SimulatorOptions()
        options.seed = 1
        let simulated = try Simulator(options: options).run()
        let plan = try #require(DemoCommand.factory(simulated).floorPlan)
        #expect(plan.hasWalls)
        let walls = simulated.venue.floors.flatMap(\.walls)
        #expect(!walls.isEmpty)
        #expect(plan.walls(onLevel: nil).count == walls.count)
    }

    /// With `nonlinear`: the default (`auto`) learns a radio map from the office's survey first, seconds in a release
    /// build but minutes in the tests' debug build (`indoor demo` prints its figures, README).
    @Test func printsTheErrorSummaryOfTheDefaultOffice() throws {
        let output = try DemoCommand.parse(["--method", "nonlinear"]).output()
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines.first == "Simulated office (seed 1): 1 floor of 40 m x 18.4 m, 16 rooms, 14 beacons on the walls.")
        let header = try #require(lines.firstIndex { $0.hasPrefix("method") })
        let row = lines[header + 1]
        #expect(row.hasPrefix("nonlinear "))
        // The simulation and the solver are deterministic: the same seed prints exactly this.
        #expect(row == "nonlinear   1204       4    1.85      1.55   3.53   8.64      -        -      75.4%")
        #expect(lines.contains("  walker-1: (14.9, 8.2) m = 52.520032, 13.405202, 2.7 m from the truth"))
        #expect(lines.contains("  walker-4: (0.9, 8.9) m = 52.520081, 13.405012, 4.8 m from the truth"))
        // Deterministic: the same seed prints the same text.
        #expect(try DemoCommand.parse(["--method", "nonlinear"]).output() == output)
    }
}
