import Foundation
import IndoorModel

/// The readings of one estimate as horizontal range circles: the common input of the range-based solvers.
///
/// Internal: validates once (finite values, at least three nodes, not all on one line) so every solver
/// answers degenerate input with the same clear ``NoFix``.
struct RangeCircles {
    var x: [Double] = []
    var y: [Double] = []
    var z: [Double] = []
    /// 3-D range, metres.
    var range: [Double] = []
    /// Horizontal range at the assumed device height, metres.
    var radius: [Double] = []
    /// Variance of the 3-D range, m².
    var variance: [Double] = []
    /// The floor the circles are on (``FloorSelection/sameFloor(_:minimum:)``), `nil` without floors.
    var floor: Int?
    /// The device's height in the venue frame, metres; `nil` treats ranges as horizontal (height 0 in estimates).
    var deviceHeight: Double?
    var count: Int { x.count }

    /// The circles of the readings on the device's floor (see ``FloorSelection``), validated.
    ///
    /// - Parameters:
    ///   - all: The readings, strongest first, on any floors.
    ///   - deviceHeight: The device's height in the venue frame, metres; `nil` treats ranges as horizontal.
    ///   - minimum: The fewest nodes the solver needs.
    static func make(_ all: [NodeReading], deviceHeight: Double?, minimum: Int = 3) -> Result<RangeCircles, NoFix> {
        let (readings, floor) = FloorSelection.sameFloor(all)
        if let error = validate(readings, minimum: minimum) { return .failure(error) }
        var circles = RangeCircles(floor: floor, deviceHeight: deviceHeight)
        circles.x.reserveCapacity(readings.count)
        circles.y.reserveCapacity(readings.count)
        circles.z.reserveCapacity(readings.count)
        circles.range.reserveCapacity(readings.count)
        circles.radius.reserveCapacity(readings.count)
        circles.variance.reserveCapacity(readings.count)
        for reading in readings {
            let p = reading.node.position
            circles.x.append(p.x)
            circles.y.append(p.y)
            circles.z.append(p.z)
            circles.range.append(reading.distance)
            var radius = reading.distance
            if let deviceHeight {
                let dz = p.z - deviceHeight
                radius = max(reading.distance * reading.distance - dz * dz, 0).squareRoot()
            }
            circles.radius.append(radius)
            circles.variance.append(max(reading.distanceVariance, 1e-6))
        }
        return .success(circles)
    }

    /// The estimate of a closed-form solver on the circles of `all` (see ``make(_:deviceHeight:minimum:)``).
    ///
    /// - Parameters:
    ///   - all: The readings, strongest first, on any floors.
    ///   - deviceHeight: The device's height in the venue frame, metres; `nil` treats ranges as horizontal.
    ///   - singular: Why there is no fix when `solver` finds none (a `degenerateGeometry` ``NoFix``).
    ///   - solver: The horizontal position (x, y) in metres, venue frame, or `nil` when the system is singular.
    static func estimate(
        _ all: [NodeReading], deviceHeight: Double?, singular: String, solver: (RangeCircles) -> (Double, Double)?
    ) -> Result<Estimate, NoFix> {
        make(all, deviceHeight: deviceHeight).flatMap { circles in
            guard let (px, py) = solver(circles) else { return .failure(NoFix(.degenerateGeometry, singular)) }
            return circles.estimate(x: px, y: py)
        }
    }

    /// A clear reason why `readings` cannot give a horizontal fix, or `nil` when they can.
    static func validate(_ readings: [NodeReading], minimum: Int = 3) -> NoFix? {
        for reading in readings {
            guard reading.rssi.isFinite, reading.distance.isFinite, reading.distance >= 0,
                reading.distanceVariance.isFinite, reading.node.position.x.isFinite,
                reading.node.position.y.isFinite, reading.node.position.z.isFinite
            else {
                return NoFix(
                    .invalidInput,
                    "node '\(reading.node.id)' has a non-finite or negative value (rssi \(reading.rssi) dBm, distance \(reading.distance) m)"
                )
            }
        }
        guard readings.count >= minimum else {
            return NoFix(.tooFewNodes, "\(readings.count) node(s) heard; this method needs at least \(minimum)")
        }
        guard !areCollinear(readings) else {
            return NoFix(
                .degenerateGeometry, "the \(readings.count) nodes heard lie on one line; the position is ambiguous")
        }
        return nil
    }

    /// Whether the nodes' horizontal positions lie (within a centimetre) on one line.
    static func areCollinear(_ readings: [NodeReading]) -> Bool {
        pointsAreCollinear(
            count: readings.count, x: { readings[$0].node.position.x }, y: { readings[$0].node.position.y })
    }

    /// Root-mean-square of the horizontal range residuals at (`px`, `py`), metres.
    func residualRMS(x px: Double, y py: Double) -> Double {
        var total = 0.0
        for index in 0..<count {
            let dx = px - x[index]
            let dy = py - y[index]
            let r = (dx * dx + dy * dy).squareRoot() - radius[index]
            total += r * r
        }
        return (total / Double(count)).squareRoot()
    }

    /// An estimate at (`px`, `py`) on ``floor`` at height ``deviceHeight`` (0 when `nil`), with accuracy from the
    /// range residuals; `noSolution` when not finite.
    func estimate(x px: Double, y py: Double, spreadFloor: Double = 0.5) -> Result<Estimate, NoFix> {
        let pz = deviceHeight ?? 0
        guard px.isFinite, py.isFinite, pz.isFinite else {
            return .failure(NoFix(.noSolution, "the solver did not reach a finite position"))
        }
        let rms = residualRMS(x: px, y: py)
        let accuracy = max(spreadFloor, rms)
        return .success(
            Estimate(
                position: Point3D(x: px, y: py, z: pz), floor: floor, accuracy: accuracy,
                confidence: 1 / (1 + accuracy / 2)))
    }
}

/// Solves the 2 × 2 system [a b; b d]·[x y]ᵀ = [e f]ᵀ, or `nil` when it is (nearly) singular.
@inline(__always)
func solveSymmetric2(_ a: Double, _ b: Double, _ d: Double, _ e: Double, _ f: Double) -> (Double, Double)? {
    let determinant = a * d - b * b
    guard determinant.isFinite, abs(determinant) > 1e-12 * max(1, abs(a * d)) else { return nil }
    return ((d * e - b * f) / determinant, (a * f - b * e) / determinant)
}

/// Whether `count` points (x(i), y(i)) lie (within a centimetre) on one line: the smallest eigenvalue of their
/// covariance is below 1e-4 m², or below 1e-6 of its trace. Non-finite coordinates count as not collinear.
@inline(__always)
func pointsAreCollinear(count: Int, x: (Int) -> Double, y: (Int) -> Double) -> Bool {
    var sumX = 0.0
    var sumY = 0.0
    for index in 0..<count {
        sumX += x(index)
        sumY += y(index)
    }
    return pointsAreCollinear(count: count, sumX: sumX, sumY: sumY, x: x, y: y)
}

/// ``pointsAreCollinear(count:x:y:)`` for a caller that has already summed the coordinates (metres), adding them
/// in index order starting from 0 (so that the answer is the same to the last bit).
@inline(__always)
func pointsAreCollinear(count: Int, sumX: Double, sumY: Double, x: (Int) -> Double, y: (Int) -> Double) -> Bool {
    let n = Double(count)
    let mx = sumX / n
    let my = sumY / n
    var sxx = 0.0
    var sxy = 0.0
    var syy = 0.0
    for index in 0..<count {
        let dx = x(index) - mx
        let dy = y(index) - my
        sxx += dx * dx
        sxy += dx * dy
        syy += dy * dy
    }
    sxx /= n
    sxy /= n
    syy /= n
    let trace = sxx + syy
    let determinant = sxx * syy - sxy * sxy
    let smallest = trace / 2 - max(trace * trace / 4 - determinant, 0).squareRoot()
    return smallest < 1e-4 || smallest < 1e-6 * trace
}
