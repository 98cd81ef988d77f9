import IndoorModel

/// The radical centre of the range circles: the point of equal power with respect to every circle.
///
/// Subtracting circle j's equation from circle i's gives the radical axis
/// `2 (cⱼ − cᵢ) · p = rᵢ² − rⱼ² − |cᵢ|² + |cⱼ|²`. With three circles the axes meet in one point, exact for
/// consistent ranges; with more, every pair's axis enters a least-squares solution. Ranges are made
/// horizontal at ``deviceHeight`` when it is given.
public struct PowerCenter: PositioningMethod {
    public let name = "power-center"
    /// The device's height in the venue frame, metres; `nil` treats ranges as horizontal (a non-finite height given
    /// to `init` counts as `nil`).
    public var deviceHeight: Double?

    public init(deviceHeight meters: Double? = nil) {
        self.deviceHeight = meters.flatMap { $0.isFinite ? $0 : nil }
    }

    /// The radical centre (metres, venue frame) of the range circles; least squares over all pairs.
    public func estimate(from all: [NodeReading]) -> Result<Estimate, NoFix> {
        RangeCircles.estimate(
            all, deviceHeight: deviceHeight, singular: "the radical axes are parallel", solver: Self.solve)
    }

    /// The least-squares meeting point of every pair's radical axis, or `nil` when the axes are parallel.
    static func solve(_ circles: RangeCircles) -> (Double, Double)? {
        // Centre the frame on the first node to keep the squares small.
        let ox = circles.x[0]
        let oy = circles.y[0]
        var a = 0.0
        var b = 0.0
        var d = 0.0
        var e = 0.0
        var f = 0.0
        for i in 0..<circles.count {
            let xi = circles.x[i] - ox
            let yi = circles.y[i] - oy
            let ri = circles.radius[i]
            for j in (i + 1)..<circles.count {
                let xj = circles.x[j] - ox
                let yj = circles.y[j] - oy
                let rj = circles.radius[j]
                let u = 2 * (xj - xi)
                let v = 2 * (yj - yi)
                let w = ri * ri - rj * rj - xi * xi - yi * yi + xj * xj + yj * yj
                a += u * u
                b += u * v
                d += v * v
                e += u * w
                f += v * w
            }
        }
        guard let (px, py) = solveSymmetric2(a, b, d, e, f) else { return nil }
        return (px + ox, py + oy)
    }
}
