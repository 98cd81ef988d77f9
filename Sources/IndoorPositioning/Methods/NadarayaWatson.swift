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
        for reading in readings {
            let p = reading.node.position
            guard reading.distance.isFinite, reading.distance >= 0, p.x.isFinite, p.y.isFinite, p.z.isFinite else {
                return .failure(
                    NoFix(.invalidInput, "node '\(reading.node.id)' has a non-finite or negative distance or position"))
            }
        }
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
        var x = 0.0
        var y = 0.0
        var z = 0.0
        var total = 0.0
        for reading in readings {
            let weight = 1 / (reading.distance * reading.distance + 1e-6)
            x += weight * reading.node.position.x
            y += weight * reading.node.position.y
            z += weight * reading.node.position.z
            total += weight
        }
        let centre = Point3D(x: x / total, y: y / total, z: z / total)
        var misfit = 0.0
        for reading in readings {
            let weight = 1 / (reading.distance * reading.distance + 1e-6)
            let difference = centre.distance(to: reading.node.position) - reading.distance
            misfit += weight * difference * difference
        }
        return .success(
            Estimate(
                position: centre, floor: FloorSelection.vote(readings), accuracy: max(1, (misfit / total).squareRoot()),
                confidence: min(1, Double(readings.count) / 6) * 0.5))
    }
}
