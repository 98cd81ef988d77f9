import IndoorModel

/// The Cramér–Rao bound on horizontal position from RSSI with log-normal shadowing.
///
/// Model: node i is heard at `P₁ − 10 n log10 ‖p − cᵢ‖ + ε`, ε ~ N(0, σ²) dB, independent per node, with the
/// device's height known. The Fisher information of the horizontal position p is
/// `J = (10 n / (σ ln 10))² Σᵢ (p − cᵢ)ₓᵧ (p − cᵢ)ₓᵧᵀ / ‖p − cᵢ‖⁴`, and any unbiased estimator's covariance
/// is at least `J⁻¹`.
public struct CramerRaoBound: Hashable, Sendable {
    /// The bound's covariance entries, m².
    public var xx: Double, xy: Double, yy: Double

    /// Root of the trace: the bound on the root-mean-square horizontal error, metres.
    public var rms: Double { (xx + yy).squareRoot() }

    /// The bound for a device at `device` hearing `nodes`, or `nil` when the information matrix is singular
    /// (fewer than two nodes, or all on one line through the device).
    /// - Parameters:
    ///   - device: The device's position, metres (its height counts in the distances).
    ///   - nodes: The positions of the nodes heard, metres.
    ///   - sigma: Shadowing standard deviation, dB.
    ///   - exponent: Path-loss exponent.
    public init?(device: Point3D, nodes: [Point3D], sigma dB: Double, exponent: Double) {
        guard dB > 0, dB.isFinite, exponent > 0, exponent.isFinite else { return nil }
        let b = 10 * exponent / (dB * 2.302585092994046)
        var jxx = 0.0
        var jxy = 0.0
        var jyy = 0.0
        for node in nodes {
            let dx = device.x - node.x
            let dy = device.y - node.y
            let dz = device.z - node.z
            let s = max(dx * dx + dy * dy + dz * dz, 1e-9)
            let scale = b * b / (s * s)
            jxx += scale * dx * dx
            jxy += scale * dx * dy
            jyy += scale * dy * dy
        }
        let determinant = jxx * jyy - jxy * jxy
        guard determinant > 1e-12 * max(1, jxx * jyy), determinant.isFinite else { return nil }
        xx = jyy / determinant
        xy = -jxy / determinant
        yy = jxx / determinant
    }
}
