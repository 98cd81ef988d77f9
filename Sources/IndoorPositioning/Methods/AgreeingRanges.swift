import Foundation
import IndoorModel

/// Trilateration where the ranges agree, the weighted centroid where they do not: what ``AutoMethod`` answers without
/// a survey or a fitted path loss when few nodes are heard.
///
/// ``NonlinearLeastSquares`` answers when at least ``minimumNodes`` (four) nodes are heard on one floor and its
/// position, inside ``area``, explains every range to within ``tolerance``: the root mean square of the log-range
/// residuals `ln ‖p − cᵢ‖ − ln dᵢ` (0.1 is about 10 % of each range; ranges from RSSI with 4–6 dB of shadowing scatter
/// by 0.45–0.7). Elsewhere the ranges contradict each other (a body, a wall, a node's power), or they are too few to
/// tell, and ``WeightedCentroid``, which leans on them less, answers.
/// The estimate names the one that answered (``Estimate/method``).
struct AgreeingRanges: PositioningMethod {
    let name = "agreeing-ranges"
    /// The solver tried first.
    var trilateration: NonlinearLeastSquares
    /// What answers when the ranges disagree or the solver cannot.
    var centroid: WeightedCentroid
    /// The largest root mean square log-range residual taken as agreement (default 0.1).
    var tolerance: Double
    /// The fewest nodes on the solver's floor whose ranges are judged. A position in the plane fitted to three ranges
    /// leaves one degree of freedom, so three ranges scattered by shadowing often agree within ``tolerance`` by chance;
    /// four leave two.
    static let minimumNodes = 4
    /// Where a trilaterated position may lie (the engine's default area): three long ranges can agree on a point far
    /// outside the nodes, which the engine would refuse; the weighted centroid answers there instead.
    var area = PlausibleArea()

    /// - Parameters:
    ///   - deviceHeight: The device's height in the venue frame, metres (`nil`: ranges are horizontal).
    ///   - tolerance: The largest root mean square log-range residual taken as agreement (not positive or not finite:
    ///     0.1).
    init(deviceHeight: Double? = nil, tolerance: Double = 0.1) {
        trilateration = NonlinearLeastSquares(deviceHeight: deviceHeight)
        centroid = WeightedCentroid()
        self.tolerance = tolerance.isFinite && tolerance > 0 ? tolerance : 0.1
    }

    func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        if let estimate = agreeing(readings) { return .success(estimate) }
        return centroid.estimate(from: readings).map { estimate in
            var estimate = estimate
            estimate.method = centroid.name
            return estimate
        }
    }

    /// Trilateration's estimate, named so, where at least ``minimumNodes`` ranges on one floor agree (within
    /// ``tolerance``, inside ``area``); `nil` where they do not, are fewer, or the solver cannot answer.
    func agreeing(_ readings: [NodeReading]) -> Estimate? {
        // Fewer readings than that cannot hold enough on one floor: no solve. `residual` counts those of the floor.
        guard readings.count >= Self.minimumNodes else { return nil }
        guard case .success(var estimate) = trilateration.estimate(from: readings),
            let residual = residual(of: estimate.position, readings: readings), residual <= tolerance,
            area.check(estimate.position, readings: readings) == nil
        else { return nil }
        estimate.method = trilateration.name
        return estimate
    }

    /// The root mean square of `ln ‖position − node‖ − ln range` over the readings of the solver's floor; `nil` for
    /// fewer than ``minimumNodes`` of them or a range that is not positive.
    func residual(of position: Point3D, readings: [NodeReading]) -> Double? {
        let (used, _) = FloorSelection.sameFloor(readings)
        guard used.count >= Self.minimumNodes else { return nil }
        var sum = 0.0
        for reading in used {
            let node = reading.node.position
            let dz = (trilateration.deviceHeight ?? node.z) - node.z
            let dx = position.x - node.x
            let dy = position.y - node.y
            let modelled = (dx * dx + dy * dy + dz * dz).squareRoot()
            guard reading.distance > 0, modelled > 0 else { return nil }
            let difference = log(modelled) - log(reading.distance)
            sum += difference * difference
        }
        return (sum / Double(used.count)).squareRoot()
    }
}
