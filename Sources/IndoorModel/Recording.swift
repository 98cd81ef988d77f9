import Foundation

/// Sightings with the ground truth recorded alongside them: a dataset's `train/` or `test/` folder.
public struct Recording: Hashable, Sendable {
    public var sightings: [Sighting]
    public var truth: [TruthPoint]

    public init(sightings: [Sighting], truth: [TruthPoint]) {
        self.sightings = sightings
        self.truth = truth
    }
}
