import Foundation
import IndoorModel

/// Where the simple locators put a device, as a prior for `auto`'s path-loss posterior without a survey.
///
/// Each reading weighs e^((RSSI − strongest RSSI) / ``temperature``): the peers' inverse-square weighting of
/// path-loss distances is this weighting with a temperature of 10 n / (2 ln 10) dB (5.9 dB for their exponent 2.7),
/// whatever the power at 1 m, so it needs no calibration. On the floor holding most of that weight, the weighted
/// mean of the nodes' horizontal positions is the prior's centre and the weighted RMS distance of the nodes from it
/// (at least 1 m) times ``width`` its standard deviation: a horizontal Gaussian the posterior is multiplied by.
///
/// Where the posterior is sharp (nodes all around, readings that agree with the path-loss model) it outweighs the
/// prior; where it is broad (a large floor, few or distant nodes, a corridor) its mean drifts towards the middle of
/// its grid and away from every node, and the prior holds it where the strongest nodes are. Chosen without a test
/// split (docs/notes/auto-no-survey-centroid-prior.md).
struct CentroidPrior: Hashable, Sendable {
    /// The softmax temperature on RSSI, dB (more than 0).
    var temperature: Double
    /// The prior's standard deviation per metre of the centroid's spread (more than 0).
    var width: Double

    /// The default without a survey: 10 dB, three quarters of the spread.
    ///
    /// Chosen with each real dataset held out in turn (docs/notes/auto-no-survey-centroid-prior.md): on the `train/`
    /// splits of the other real datasets and four unscored simulated offices, among temperatures 6, 8 and 10 dB and
    /// widths 0.35, 0.5, 0.75 and 1, every fold chose these.
    static let standard = CentroidPrior(temperature: 10, width: 0.75)

    /// The prior for one fix: a horizontal Gaussian about `center` (metres, venue frame) with standard deviation
    /// `sigma` (metres) along each axis.
    struct Gaussian: Hashable, Sendable {
        var center: Point2D
        var sigma: Double

        /// The prior's factor at `coordinate` along one axis whose centre is `center` (at most 1).
        func factor(_ coordinate: Double, about center: Double) -> Double {
            let u = (coordinate - center) / sigma
            return Foundation.exp(-0.5 * u * u)
        }
    }

    /// The prior for `readings`; `nil` when none has a finite RSSI and position, or the parameters are not positive.
    func prior(for readings: [NodeReading]) -> Gaussian? {
        guard temperature > 0, width > 0, temperature.isFinite, width.isFinite else { return nil }
        let usable = readings.filter {
            $0.rssi.isFinite && $0.node.position.x.isFinite && $0.node.position.y.isFinite
        }
        guard let strongest = usable.map(\.rssi).max() else { return nil }
        let weights = usable.map { Foundation.exp(($0.rssi - strongest) / temperature) }
        // The floor holding most of the weight (the first of equals in the readings' order).
        var floors: [(floor: Int?, weight: Double)] = []
        for (reading, weight) in zip(usable, weights) {
            if let slot = floors.firstIndex(where: { $0.floor == reading.node.floor }) {
                floors[slot].weight += weight
            } else {
                floors.append((reading.node.floor, weight))
            }
        }
        guard var chosen = floors.first else { return nil }
        for candidate in floors.dropFirst() where candidate.weight > chosen.weight { chosen = candidate }
        let onFloor = zip(usable, weights).filter { $0.0.node.floor == chosen.floor }
        var total = 0.0
        var x = 0.0
        var y = 0.0
        for (reading, weight) in onFloor {
            total += weight
            x += weight * reading.node.position.x
            y += weight * reading.node.position.y
        }
        guard total > 0 else { return nil }
        let center = Point2D(x: x / total, y: y / total)
        var square = 0.0
        for (reading, weight) in onFloor {
            let dx = reading.node.position.x - center.x
            let dy = reading.node.position.y - center.y
            square += weight * (dx * dx + dy * dy)
        }
        let spread = max(1, (square / total).squareRoot())
        return Gaussian(center: center, sigma: width * spread)
    }
}
