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
}
