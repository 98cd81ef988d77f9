import IndoorModel

/// The weighted centroid of the strongest nodes heard: a simple, robust baseline.
///
/// Each of the `count` strongest nodes is weighted by 1 / distance (metres, floored at `minimumDistance`),
/// so nearer nodes pull harder. The floor is a power-weighted vote of the three strongest nodes' floors.
/// The accuracy (metres, at least 1) is the larger of the used nodes' farthest horizontal offset from the centroid
/// and the nearest used node's range: one node heard at 6 m gives 6 m, not 1 m at the node.
public struct WeightedCentroid: PositioningMethod {
    public let name = "weighted-centroid"
    /// How many of the strongest nodes to use.
    public var count: Int
    /// Distances below this many metres weigh as this (not positive or not finite at `init`: 0.5 m).
    public var minimumDistance: Double

    public init(count: Int = 3, minimumDistance: Double = 0.5) {
        self.count = max(1, count)
        self.minimumDistance = minimumDistance.isFinite && minimumDistance > 0 ? minimumDistance : 0.5
    }

    public func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        let used = readings.prefix(count)
        guard !used.isEmpty else { return .failure(NoFix(.notHeard, "no node heard")) }
        if let invalid = used.invalidReading() { return .failure(invalid) }
        // At least a micrometre, whatever minimumDistance was set to: a zero distance must not weigh infinity.
        let floor = minimumDistance > 1e-6 ? minimumDistance : 1e-6
        let centre = used.weightedCentre { 1 / Swift.max($0.distance, floor) }
        // How far off the centroid can be: the spread of the used nodes about it, or the nearest node's range where
        // that is more (one node heard, or nodes bunched together, put the device on a ring around them, not at them).
        var spread = 0.0
        var nearest = Double.infinity
        for reading in used {
            spread = max(spread, reading.node.position.horizontal.distance(to: centre.horizontal))
            nearest = min(nearest, reading.distance)
        }
        return .success(
            Estimate(
                position: centre, floor: FloorSelection.vote(readings), accuracy: max(1, spread, nearest),
                confidence: min(1, Double(used.count) / Double(count)) * 0.5))
    }
}
