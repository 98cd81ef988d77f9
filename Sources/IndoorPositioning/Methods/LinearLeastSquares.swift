import IndoorModel

/// Linearised trilateration: subtract the reference (strongest) node's circle equation from each other's
/// and solve the linear system by weighted least squares.
///
/// Row i: `2 (cᵢ − c₀) · p = r₀² − rᵢ² + |cᵢ|² − |c₀|²`, weighted by the inverse variance of rᵢ².
/// Exact for consistent ranges. Ranges are made horizontal at ``deviceHeight`` when it is given.
public struct LinearLeastSquares: PositioningMethod {
    public let name = "linear-least-squares"
    /// The device's height in the venue frame, metres; `nil` treats ranges as horizontal (a non-finite height given
    /// to `init` counts as `nil`).
    public var deviceHeight: Double?

    public init(deviceHeight meters: Double? = nil) {
        self.deviceHeight = meters.flatMap { $0.isFinite ? $0 : nil }
    }

    /// The weighted linear least-squares position (metres, venue frame), subtracting the strongest node's equation.
    public func estimate(from all: [NodeReading]) -> Result<Estimate, NoFix> {
        RangeCircles.estimate(
            all, deviceHeight: deviceHeight, singular: "the linearised system is singular", solver: Self.solve)
    }

    /// The weighted linear least-squares position of `circles`, or `nil` when singular.
    static func solve(_ circles: RangeCircles) -> (Double, Double)? {
        let ox = circles.x[0]
        let oy = circles.y[0]
        let r0 = circles.radius[0]
        var a = 0.0
        var b = 0.0
        var d = 0.0
        var e = 0.0
        var f = 0.0
        for i in 1..<circles.count {
            let xi = circles.x[i] - ox
            let yi = circles.y[i] - oy
            let ri = circles.radius[i]
            let u = 2 * xi
            let v = 2 * yi
            let w = r0 * r0 - ri * ri + xi * xi + yi * yi
            // Var(rᵢ²) ≈ 4 rᵢ² Var(rᵢ); the reference's own noise is shared by every row and ignored.
            let weight = 1 / max(4 * ri * ri * circles.variance[i], 1e-6)
            a += weight * u * u
            b += weight * u * v
            d += weight * v * v
            e += weight * u * w
            f += weight * v * w
        }
        guard let (px, py) = solveSymmetric2(a, b, d, e, f) else { return nil }
        return (px + ox, py + oy)
    }
}
