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
        // The median error of the baseline in this office is a few metres.
        let columns = row.split(separator: " ")
        let median = try #require(Double(columns[4]))
        #expect(median > 0.5 && median < 5)
        #expect(lines.contains { $0.hasPrefix("  walker-1: (") })
        // Deterministic: the same seed prints the same text.
        #expect(try DemoCommand.parse(["--method", "nonlinear"]).output() == output)
    }
}
