import IndoorModel

/// Pairwise circle intersection ("EPTA"): intersect every pair of range circles, keep the intersection
/// points that lie inside all circles (within a tolerance), and answer their centroid.
///
/// When no point qualifies, every radius is inflated by ``inflation`` (10%) and the search repeated, at most
/// ``maximumInflations`` times. Ranges are made horizontal at ``deviceHeight`` when it is given.
public struct EPTA: PositioningMethod {
    public let name = "epta"
    /// The device's height in the venue frame, metres; `nil` treats ranges as horizontal (a non-finite height given
    /// to `init` counts as `nil`).
    public var deviceHeight: Double?
    /// Relative slack for "inside a circle" (0.05 = 5% of its radius; negative or NaN at `init`: 0.05).
    public var relativeTolerance: Double
    /// Absolute slack for "inside a circle", metres (negative or NaN at `init`: 0.1).
    public var absoluteTolerance: Double
    /// Factor by which radii grow each retry (0.1 = 10%; not positive or not finite at `init`: 0.1).
    public var inflation: Double
    /// The most retries.
    public var maximumInflations: Int
    /// The most nodes used, strongest first: the search is cubic in the number of circles, so a device heard by
    /// hundreds of nodes is answered from its strongest ``maximumNodes`` (default 32, the engine's per-device bound).
    public var maximumNodes: Int

    public init(
        deviceHeight meters: Double? = nil, relativeTolerance: Double = 0.05, absoluteTolerance: Double = 0.1,
        inflation: Double = 0.1, maximumInflations: Int = 10, maximumNodes: Int = 32
    ) {
        self.deviceHeight = meters.flatMap { $0.isFinite ? $0 : nil }
        // NaN slack would count every point as inside; a negative or NaN inflation would shrink or erase the radii.
        self.relativeTolerance = relativeTolerance.isFinite && relativeTolerance >= 0 ? relativeTolerance : 0.05
        self.absoluteTolerance = absoluteTolerance.isFinite && absoluteTolerance >= 0 ? absoluteTolerance : 0.1
        self.inflation = inflation.isFinite && inflation > 0 ? inflation : 0.1
        self.maximumInflations = max(0, maximumInflations)
        self.maximumNodes = max(3, maximumNodes)
    }

    /// The centroid (metres, venue frame) of the qualifying intersections of the strongest ``maximumNodes`` circles.
    public func estimate(from all: [NodeReading]) -> Result<Estimate, NoFix> {
        var circles: RangeCircles
        let strongest = all.count > maximumNodes ? Array(all.prefix(maximumNodes)) : all
        switch RangeCircles.make(strongest, deviceHeight: deviceHeight) {
        case .success(let made): circles = made
        case .failure(let error): return .failure(error)
        }
        let original = circles
        for _ in 0...maximumInflations {
            if let (px, py) = centroidOfCommonIntersections(circles) {
                return original.estimate(x: px, y: py)
            }
            for index in 0..<circles.count { circles.radius[index] *= 1 + inflation }
        }
        return .failure(
            NoFix(
                .noSolution,
                "no pairwise intersection lies inside all \(circles.count) circles, even with radii grown \(maximumInflations) times by \(inflation * 100)%"
            ))
    }

    private func centroidOfCommonIntersections(_ circles: RangeCircles) -> (Double, Double)? {
        var sx = 0.0
        var sy = 0.0
        var used = 0
        for i in 0..<circles.count {
            for j in (i + 1)..<circles.count {
                let x1 = circles.x[i]
                let y1 = circles.y[i]
                let r1 = circles.radius[i]
                let dx = circles.x[j] - x1
                let dy = circles.y[j] - y1
                let r2 = circles.radius[j]
                let d = (dx * dx + dy * dy).squareRoot()
                guard d > 1e-9, d <= r1 + r2, d >= abs(r1 - r2) else { continue }
                let a = (r1 * r1 - r2 * r2 + d * d) / (2 * d)
                let h = max(r1 * r1 - a * a, 0).squareRoot()
                let mx = x1 + a * dx / d
                let my = y1 + a * dy / d
                for sign in [-1.0, 1.0] {
                    let px = mx - sign * h * dy / d
                    let py = my + sign * h * dx / d
                    if isInsideAll(circles, px, py) {
                        sx += px
                        sy += py
                        used += 1
                    }
                    if h == 0 { break }
                }
            }
        }
        guard used > 0 else { return nil }
        return (sx / Double(used), sy / Double(used))
    }

    private func isInsideAll(_ circles: RangeCircles, _ px: Double, _ py: Double) -> Bool {
        for k in 0..<circles.count {
            let dx = px - circles.x[k]
            let dy = py - circles.y[k]
            let limit = circles.radius[k] * (1 + relativeTolerance) + absoluteTolerance
            if dx * dx + dy * dy > limit * limit { return false }
        }
        return true
    }
}
