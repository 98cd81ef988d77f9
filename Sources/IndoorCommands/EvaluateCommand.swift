import ArgumentParser
import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorPositioning

/// `indoor evaluate DATASET`: scores positioning methods on a dataset.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score positioning methods on a dataset in the shared layout.")

    @Argument(help: "A dataset folder (nodes.csv, test/, optional train/).")
    var dataset: String

    @Option(name: .customLong("method"), help: "A method to score (repeatable).")
    var methods: [String] = [MethodCatalog.defaultName]

    func run() throws {
        let data = try DatasetReader.read(folder: URL(fileURLWithPath: dataset))
        print("\(data.name): \(data.test.sightings.count) sightings, \(data.test.truth.count) truth rows")
    }
}
