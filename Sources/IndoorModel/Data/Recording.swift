import Foundation

/// Sightings with the ground truth recorded alongside them: a dataset's `train/` or `test/` folder.
public struct Recording: Hashable, Sendable {
    /// The sightings, in file order.
    public var sightings: [Sighting]
    /// Where the devices really were.
    public var truth: [TruthPoint]

    /// A recording of `sightings` with their `truth`.
    public init(sightings: [Sighting], truth: [TruthPoint]) {
        self.sightings = sightings
        self.truth = truth
    }

    /// Whether any sighting is of one of `nodes` (by id, or by beacon identity): a survey of those nodes' venue.
    public func hearsAny(of nodes: [Node]) -> Bool {
        let ids = Set(nodes.map(\.id))
        let beacons = Set(nodes.compactMap(\.beacon))
        return sightings.contains { sighting in
            switch sighting.source {
            case .node(let id): ids.contains(id)
            case .beacon(let beacon): beacons.contains(beacon)
            }
        }
    }
}
