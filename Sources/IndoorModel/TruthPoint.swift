import Foundation

/// Where a device really was at a time: one row of a dataset's `truth.csv`.
public struct TruthPoint: Hashable, Sendable {
    /// Seconds, on the same clock as the device's sightings.
    public var time: Double
    public var device: String
    /// Horizontal position, metres in the dataset's frame.
    public var point: Point2D
    /// Height in metres, when known.
    public var z: Double?
    /// Floor level, when the dataset has floors.
    public var floor: Int?

    public init(time: Double, device: String, point: Point2D, z: Double? = nil, floor: Int? = nil) {
        self.time = time
        self.device = device
        self.point = point
        self.z = z
        self.floor = floor
    }
}

/// Sightings with the ground truth recorded alongside them: a dataset's `train/` or `test/` folder.
public struct Recording: Hashable, Sendable {
    public var sightings: [Sighting]
    public var truth: [TruthPoint]

    public init(sightings: [Sighting], truth: [TruthPoint]) {
        self.sightings = sightings
        self.truth = truth
    }
}

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
