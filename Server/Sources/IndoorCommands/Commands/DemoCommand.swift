import ArgumentParser
import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorPositioning

/// `indoor demo`: simulates the default office in memory, locates the walkers and prints the error summary.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Simulate an office floor, locate the people walking in it, print the error summary.")

    @Option(help: "Random seed of the simulation.")
    var seed: UInt64 = 1

    @Option(
        name: .customLong("method"),
        help: "A method to run (repeatable; default: \(MethodCatalog.defaultName)).")
    var methods: [String] = []

    func validate() throws {
        for name in methods where !MethodCatalog.isKnown(name) {
            throw ValidationError(
                "unknown method '\(name)'; known methods: \(MethodCatalog.names.joined(separator: ", "))")
        }
    }

    func run() throws {
        print(try output(), terminator: "")
    }

    /// The methods the demo runs: those asked for, else the default (``MethodCatalog/defaultMethod``).
    var methodNames: [String] { methods.isEmpty ? [MethodCatalog.defaultName] : methods }

    /// The engines' factory for `simulated`: its nodes and survey, and the venue's walls, which keep the particle
    /// filter's walkers out of them as in `indoor evaluate` and a session.
    static func factory(_ simulated: SimulatedDataset) -> EngineFactory {
        EngineFactory(
            nodes: simulated.dataset.nodes, survey: simulated.dataset.train,
            floorPlan: FloorPlan(venue: simulated.venue))
    }

    /// Everything the demo prints.
    func output() throws -> String {
        var options = SimulatorOptions()
        options.seed = seed
        let simulated = try Simulator(options: options).run()
        let data = simulated.dataset
        let names = methodNames
        // One factory for the scores and the walkers' last positions: what `auto` learns is learned once.
        let factory = Self.factory(simulated)
        let scores = try names.map { name in
            Evaluator.score(try factory.engine(method: name), on: data.test, name: name)
        }

        let floor = simulated.venue.floors.first
        let size =
            floor.map { outline in
                let xs = outline.outline.vertices.map(\.x)
                let ys = outline.outline.vertices.map(\.y)
                return "\(DatasetCSV.number((xs.max() ?? 0) - (xs.min() ?? 0))) m x "
                    + "\(DatasetCSV.number((ys.max() ?? 0) - (ys.min() ?? 0))) m"
            } ?? ""
        let floors = simulated.venue.floors.count
        var text = "Simulated office (seed \(seed)): \(floors) floor\(floors == 1 ? "" : "s") of \(size), "
        text += "\(options.roomsPerSide * 2) rooms, \(data.nodes.count) beacons on the walls.\n"
        text += "\(options.devices) people walk for \(DatasetCSV.number(options.duration)) s; their phones heard "
        text +=
            "\(data.test.sightings.count) beacon packets (shadowing σ \(DatasetCSV.number(options.shadowingSigma)) dB per packet "
        text += "+ \(DatasetCSV.number(options.slowShadowingSigma)) dB slow, "
        text += "\(DatasetCSV.number(options.wallLoss)) dB per wall).\n"
        text += "Located online at each of \(data.test.truth.count) truth points (horizontal error, metres):\n\n"
        text += ScoreReport.table(scores)

        // Where each walker ended up, by the first method, on the map and on the Earth.
        if let name = names.first {
            var engine = try factory.engine(method: name)
            for sighting in data.test.sightings { engine.ingest(sighting) }
            text += "\nAt t = \(DatasetCSV.number(options.duration)) s (\(name)):\n"
            for device in simulated.trajectories.keys.sorted() {
                guard let path = simulated.trajectories[device] else { continue }
                let truth = path.state(at: options.duration).point
                switch engine.locate(device: device, at: options.duration) {
                case .success(let fix):
                    let position = fix.position.horizontal
                    let geo = Simulator.anchor.coordinate(of: position)
                    text += "  \(device): (\(ScoreReport.fixed(position.x, 1)), \(ScoreReport.fixed(position.y, 1))) m"
                    text += " = \(ScoreReport.fixed(geo.latitude, 6)), \(ScoreReport.fixed(geo.longitude, 6))"
                    text += ", \(ScoreReport.fixed(position.distance(to: truth), 1)) m from the truth\n"
                case .failure(let noFix):
                    text += "  \(device): no fix (\(noFix.message))\n"
                }
            }
        }
        text += "\nTry: indoor simulate -o /tmp/office && indoor evaluate /tmp/office --plot /tmp/office.svg\n"
        return text
    }
}
