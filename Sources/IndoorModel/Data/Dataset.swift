import Foundation

/// A dataset in the shared layout: nodes, an optional survey (`train/`) and what is scored (`test/`).
public struct Dataset: Hashable, Sendable {
    /// The folder name, for reports.
    public var name: String
    /// The fixed radios, positions in metres in the dataset's frame.
    public var nodes: [Node]
    /// The survey (`train/`), when the dataset has one.
    public var train: Recording?
    /// What is scored (`test/`).
    public var test: Recording

    /// A dataset named `name`.
    public init(name: String, nodes: [Node], train: Recording? = nil, test: Recording) {
        self.name = name
        self.nodes = nodes
        self.train = train
        self.test = test
    }

    /// Whether floors are given (any truth row of the test split has one).
    public var hasFloors: Bool { test.truth.contains { $0.floor != nil } }
}
