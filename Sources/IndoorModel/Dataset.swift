import Foundation

/// A dataset in the shared layout: nodes, an optional survey (`train/`) and what is scored (`test/`).
public struct Dataset: Hashable, Sendable {
    /// The folder name, for reports.
    public var name: String
    public var nodes: [Node]
    public var train: Recording?
    public var test: Recording

    public init(name: String, nodes: [Node], train: Recording? = nil, test: Recording) {
        self.name = name
        self.nodes = nodes
        self.train = train
        self.test = test
    }

    /// Whether floors are given (any truth row of the test split has one).
    public var hasFloors: Bool { test.truth.contains { $0.floor != nil } }
}
