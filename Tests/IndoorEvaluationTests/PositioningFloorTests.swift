import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import Testing

/// On a small simulated office with two floors, every method that gives floors gets them right almost always.
@Suite("positioning floors on a simulated building")
struct PositioningFloorTests {
    static func dataset() throws -> Dataset {
        var options = SimulatorOptions()
        options.floors = 2
        options.devices = 3
        options.duration = 90
        options.seed = 2
        return try Simulator(options: options).run().dataset
    }

    @Test(arguments: ["weighted-centroid", "nonlinear", "knn", "blend"])
    func floorIsRight(method: String) throws {
        let dataset = try Self.dataset()
        let train = try #require(dataset.train)
        #expect(dataset.hasFloors)
        let engine = try MethodCatalog.engine(method: method, nodes: dataset.nodes, survey: train)
        let summary = Evaluator.score(engine, on: dataset.test).summary
        let floor = try #require(summary.floorAccuracy)
        #expect(floor > 0.95, "\(method): floor right \(floor * 100)% of the time")
    }
}
