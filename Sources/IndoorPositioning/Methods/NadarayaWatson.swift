import IndoorModel

/// The locator ESPresense-companion runs by default, over Indoor's ranges: a comparator, not a recommendation.
///
/// Every node heard is weighted by 1 / (d² + 10⁻⁶) (d its range, metres) and the position is the weighted mean of the
/// nodes' positions (a Nadaraya–Watson kernel estimate with an inverse-square kernel). Two nodes heard give the
/// midpoint of the two nearest; one node gives no position (``NoFix/Code/tooFewNodes``). The ranges are the engine's,
/// from the same calibration every other method reads (fitted on the survey when there is one), not the firmware's
/// default path loss: what is compared is the locator's weighting.
///
/// The accuracy (metres, at least 1) is the root of the weighted mean squared misfit between each node's distance
/// from the answer and its range; for two nodes, half their separation. The floor is ``FloorSelection/vote(_:)``.
public struct NadarayaWatson: PositioningMethod {
    public let name = "nadaraya-watson"

    public init() {}

    public func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        guard !readings.isEmpty else { return .failure(NoFix(.notHeard, "no node heard")) }
        if let invalid = readings.invalidReading() { return .failure(invalid) }
        guard readings.count >= 2 else {
            return .failure(NoFix(.tooFewNodes, "one node heard; the locator needs two"))
        }
        if readings.count == 2 {
            let nearest = readings.sorted { $0.distance < $1.distance }
            let a = nearest[0].node.position
            let b = nearest[1].node.position
            let middle = Point3D(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, z: (a.z + b.z) / 2)
            return .success(
                Estimate(
                    position: middle, floor: FloorSelection.vote(readings),
                    accuracy: max(1, a.horizontal.distance(to: b.horizontal) / 2), confidence: 0.25))
        }
        let centre = readings.weightedCentre(Self.weight)
        var misfit = 0.0
        var total = 0.0
        for reading in readings {
            let weight = Self.weight(reading)
            let difference = centre.distance(to: reading.node.position) - reading.distance
            misfit += weight * difference * difference
            total += weight
        }
        return .success(
            Estimate(
                position: centre, floor: FloorSelection.vote(readings), accuracy: max(1, (misfit / total).squareRoot()),
                confidence: min(1, Double(readings.count) / 6) * 0.5))
    }

    /// A reading's weight: 1 / (d² + 10⁻⁶), d its range in metres.
    private static func weight(_ reading: NodeReading) -> Double {
        1 / (reading.distance * reading.distance + 1e-6)
    }
}
