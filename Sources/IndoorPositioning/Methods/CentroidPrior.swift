import Foundation
import IndoorModel

/// Where the simple locators put a device, as a prior for `auto`'s path-loss posterior without a survey.
///
/// Each reading weighs e^((RSSI − strongest RSSI) / ``temperature``): the peers' inverse-square weighting of
/// path-loss distances is this weighting with a temperature of 10 n / (2 ln 10) dB (5.9 dB for their exponent 2.7),
/// whatever the power at 1 m, so it needs no calibration. On the floor holding most of that weight, the weighted
/// mean of the nodes' horizontal positions is the prior's centre; its standard deviation is ``width`` times the
/// nodes' weighted RMS distance from the centre (at least 1 m), and where it ``followsLayout`` it is narrower across
/// the nodes' main axis: there ``width`` times √2 × their RMS distance across that axis (at least 1 m). A horizontal
/// Gaussian the posterior is multiplied by: round where the nodes heard surround the device, narrow across a row of
/// nodes.
///
/// Where the posterior is sharp (nodes all around, readings that agree with the path-loss model) it outweighs the
/// prior; where it is broad (a large floor, few or distant nodes, a corridor) its mean drifts towards the middle of
/// its grid and away from every node, and the prior holds it where the strongest nodes are, and along a corridor's
/// nodes. Chosen without a test split (docs/notes/auto-no-survey-centroid-prior.md,
/// docs/notes/auto-no-survey-prior-shape.md).
struct CentroidPrior: Hashable, Sendable {
    /// The softmax temperature on RSSI, dB (more than 0).
    var temperature: Double
    /// The prior's standard deviation per metre of the centroid's spread (more than 0).
    var width: Double
    /// Whether the prior is narrowed across the weighted nodes' main axis to their spread across it (their weighted
    /// covariance's smaller eigenvalue, doubled: the circle where the nodes are spread alike every way), instead of a
    /// circle. Chosen with each real dataset held out (docs/notes/auto-no-survey-prior-shape.md).
    var followsLayout: Bool = true

    /// The default without a survey: 10 dB, three quarters of the spread, narrowed across a row of nodes.
    ///
    /// Chosen with each real dataset held out in turn (docs/notes/auto-no-survey-centroid-prior.md): on the `train/`
    /// splits of the other real datasets and four unscored simulated offices, among temperatures 6, 8 and 10 dB and
    /// widths 0.35, 0.5, 0.75 and 1, every fold chose these.
    static let standard = CentroidPrior(temperature: 10, width: 0.75)

    /// The prior for one fix: a horizontal Gaussian about `center` (metres, venue frame) with the precision matrix
    /// [[`xx`, `xy`], [`xy`, `yy`]] (1/m², positive definite): its factor at an offset (dx, dy) from the centre is
    /// e^(−½ (xx dx² + 2 xy dx dy + yy dy²)), at most 1.
    struct Gaussian: Hashable, Sendable {
        var center: Point2D
        var xx: Double
        var xy: Double
        var yy: Double

        /// A round Gaussian: standard deviation `sigma` metres along every direction.
        init(center: Point2D, sigma: Double) {
            self.center = center
            xx = 1 / (sigma * sigma)
            xy = 0
            yy = xx
        }

        /// Standard deviations `major` and `minor` metres along the direction at `angle` radians from the x axis and
        /// across it.
        init(center: Point2D, major: Double, minor: Double, angle: Double) {
            self.center = center
            let c = Foundation.cos(angle)
            let s = Foundation.sin(angle)
            let along = 1 / (major * major)
            let across = 1 / (minor * minor)
            xx = c * c * along + s * s * across
            yy = s * s * along + c * c * across
            xy = c * s * (along - across)
        }

        /// The factor along x alone, at `x` metres (the whole factor where ``xy`` is 0, times ``factor(y:)``).
        func factor(x: Double) -> Double {
            let d = x - center.x
            return Foundation.exp(-0.5 * xx * d * d)
        }

        /// The factor along y alone, at `y` metres.
        func factor(y: Double) -> Double {
            let d = y - center.y
            return Foundation.exp(-0.5 * yy * d * d)
        }

        /// The whole factor at (`x`, `y`) metres.
        func factor(x: Double, y: Double) -> Double {
            let dx = x - center.x
            let dy = y - center.y
            return Foundation.exp(-0.5 * (xx * dx * dx + 2 * xy * dx * dy + yy * dy * dy))
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
        var sxx = 0.0
        var sxy = 0.0
        var syy = 0.0
        for (reading, weight) in onFloor {
            let dx = reading.node.position.x - center.x
            let dy = reading.node.position.y - center.y
            sxx += weight * dx * dx
            sxy += weight * dx * dy
            syy += weight * dy * dy
        }
        sxx /= total
        sxy /= total
        syy /= total
        guard followsLayout else {
            return Gaussian(center: center, sigma: width * max(1, (sxx + syy).squareRoot()))
        }
        // The covariance's smaller eigenvalue (the spread across the nodes' main axis) and that axis's direction.
        let half = (sxx - syy) / 2
        let across = max(0, (sxx + syy) / 2 - (half * half + sxy * sxy).squareRoot())
        let major = max(1, (sxx + syy).squareRoot())
        let minor = max(1, (2 * across).squareRoot())
        let angle = 0.5 * Foundation.atan2(2 * sxy, sxx - syy)
        return Gaussian(center: center, major: width * major, minor: width * minor, angle: angle)
    }
}
