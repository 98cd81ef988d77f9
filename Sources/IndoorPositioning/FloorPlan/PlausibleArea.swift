import IndoorModel

/// The engine's sanity guard on every method's answer: a device is near the nodes it hears.
///
/// The area is the horizontal bounding box of the nodes heard, grown by the larger of an absolute margin and a
/// fraction of the box's diagonal. A position outside it (inconsistent ranges can drive the closed-form solvers
/// hundreds of metres away) is refused as ``NoFix/Code/noSolution`` with a message saying how far out it was:
/// a wrong position is worse than none.
public struct PlausibleArea: Hashable, Sendable {
    /// The smallest allowed distance beyond the box, metres.
    public var margin: Double
    /// The allowed distance beyond the box as a fraction of its diagonal (used when larger than ``margin``).
    public var fraction: Double

    /// - Parameters:
    ///   - margin: Metres beyond the heard nodes' box always allowed (default 10).
    ///   - fraction: Fraction of the box's diagonal allowed beyond it, when larger (default 0.5).
    public init(margin meters: Double = 10, fraction: Double = 0.5) {
        self.margin = meters.isNaN ? 10 : max(0, meters)
        self.fraction = fraction.isNaN ? 0.5 : max(0, fraction)
    }

    /// No limit: every finite position passes.
    static let unlimited = PlausibleArea(margin: .infinity)

    /// Why `position` is implausible for a device hearing `readings`, or `nil` when it is plausible (or there
    /// are no readings to judge by).
    public func check(_ position: Point3D, readings: [NodeReading]) -> NoFix? {
        guard margin.isFinite, fraction.isFinite, let first = readings.first else { return nil }
        var minX = first.node.position.x
        var maxX = minX
        var minY = first.node.position.y
        var maxY = minY
        for reading in readings.dropFirst() {
            let p = reading.node.position
            guard p.x.isFinite, p.y.isFinite else { continue }
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        let diagonal = ((maxX - minX) * (maxX - minX) + (maxY - minY) * (maxY - minY)).squareRoot()
        let limit = max(margin, fraction * diagonal)
        let dx = max(minX - position.x, 0, position.x - maxX)
        let dy = max(minY - position.y, 0, position.y - maxY)
        let outside = (dx * dx + dy * dy).squareRoot()
        guard outside > limit || !outside.isFinite else { return nil }
        return NoFix(
            .noSolution,
            "the estimate is \(rounded(outside)) m outside the area of the \(readings.count) node(s) heard "
                + "(at most \(rounded(limit)) m allowed); the ranges are inconsistent")
    }

    private func rounded(_ value: Double) -> String {
        value.isFinite ? String((value * 10).rounded() / 10) : "∞"
    }
}
