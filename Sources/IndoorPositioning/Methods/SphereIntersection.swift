import IndoorModel

/// Three-sphere trilateration in 3-D (the textbook construction).
///
/// Takes the strongest three nodes that form a proper triangle, builds the frame
/// `ex` (node 1 → node 2), `ey` (in the nodes' plane), `ez = ex × ey`, and solves
/// `x = (r₁² − r₂² + d²) / 2d`, `y = (r₁² − r₃² + i² + j²) / 2j − (i / j) x`, `z = ±√(r₁² − x² − y²)`
/// (0 when the spheres miss each other). Of the two roots it keeps the one on the device's side of the
/// nodes' plane: the one that better fits further nodes when there are any, else the one nearer
/// ``deviceHeight``, else the lower one (nodes usually hang above the devices).
public struct SphereIntersection: PositioningMethod {
    public let name = "sphere-intersection"
    /// The device's height in the venue frame, metres, when known.
    public var deviceHeight: Double?

    public init(deviceHeight meters: Double? = nil) {
        self.deviceHeight = meters.flatMap { $0.isFinite ? $0 : nil }
    }

    /// The 3-D trilateration (metres, venue frame) of the strongest three nodes that span a triangle.
    public func estimate(from all: [NodeReading]) -> Result<Estimate, NoFix> {
        let (readings, floor) = FloorSelection.sameFloor(all)
        if let error = RangeCircles.validate(readings) { return .failure(error) }
        guard let (a, b, c) = strongestTriangle(readings) else {
            return .failure(NoFix(.degenerateGeometry, "no three of the nodes heard span a triangle"))
        }
        let p1 = vector(readings[a].node.position)
        let p2 = vector(readings[b].node.position)
        let p3 = vector(readings[c].node.position)
        let r1 = readings[a].distance
        let r2 = readings[b].distance
        let r3 = readings[c].distance
        let d = norm(p2 - p1)
        let ex = (p2 - p1) / d
        let i = dot(ex, p3 - p1)
        let along = p3 - p1 - ex * i
        let j = norm(along)
        let ey = along / j
        let ez = cross(ex, ey)
        let x = (r1 * r1 - r2 * r2 + d * d) / (2 * d)
        let y = (r1 * r1 - r3 * r3 + i * i + j * j) / (2 * j) - (i / j) * x
        let z = max(r1 * r1 - x * x - y * y, 0).squareRoot()
        let base = p1 + ex * x + ey * y
        let up = base + ez * z
        let down = base - ez * z
        let chosen = choose(up, down, readings: readings, excluding: [a, b, c])
        guard chosen.x.isFinite, chosen.y.isFinite, chosen.z.isFinite else {
            return .failure(NoFix(.noSolution, "the trilateration did not reach a finite position"))
        }
        var total = 0.0
        for reading in readings {
            let r = norm(vector(reading.node.position) - chosen) - reading.distance
            total += r * r
        }
        let accuracy = max(0.5, (total / Double(readings.count)).squareRoot())
        return .success(
            Estimate(
                position: Point3D(x: chosen.x, y: chosen.y, z: chosen.z), floor: floor,
                accuracy: accuracy, confidence: 1 / (1 + accuracy / 2)))
    }

    private func choose(_ up: Vector, _ down: Vector, readings: [NodeReading], excluding: Set<Int>) -> Vector {
        if readings.count > 3 {
            var costUp = 0.0
            var costDown = 0.0
            for (index, reading) in readings.enumerated() where !excluding.contains(index) {
                let p = vector(reading.node.position)
                let ru = norm(p - up) - reading.distance
                let rd = norm(p - down) - reading.distance
                costUp += ru * ru
                costDown += rd * rd
            }
            if abs(costUp - costDown) > 1e-9 * max(1, costUp + costDown) { return costUp < costDown ? up : down }
        }
        if let deviceHeight { return abs(up.z - deviceHeight) <= abs(down.z - deviceHeight) ? up : down }
        return up.z <= down.z ? up : down
    }

    /// Indices of the strongest three readings (in order of strength) whose nodes span a triangle.
    private func strongestTriangle(_ readings: [NodeReading]) -> (Int, Int, Int)? {
        let n = min(readings.count, 8)
        for c in 2..<n {
            for b in 1..<c {
                for a in 0..<b {
                    let p1 = vector(readings[a].node.position)
                    let p2 = vector(readings[b].node.position)
                    let p3 = vector(readings[c].node.position)
                    let area = norm(cross(p2 - p1, p3 - p1))
                    let scale = max(norm(p2 - p1) * norm(p3 - p1), 1e-12)
                    if norm(p2 - p1) > 1e-6, area / scale > 1e-3 { return (a, b, c) }
                }
            }
        }
        // The strongest eight lie on one line (a corridor): the strongest node, the next one apart from it, and the
        // strongest one off their line, in one linear pass.
        let p1 = vector(readings[0].node.position)
        guard
            let b = readings.indices.dropFirst().first(where: { norm(vector(readings[$0].node.position) - p1) > 1e-6 })
        else { return nil }
        let p2 = vector(readings[b].node.position)
        for c in readings.indices.dropFirst() where c != b {
            let p3 = vector(readings[c].node.position)
            let area = norm(cross(p2 - p1, p3 - p1))
            if area / max(norm(p2 - p1) * norm(p3 - p1), 1e-12) > 1e-3 { return b < c ? (0, b, c) : (0, c, b) }
        }
        return nil
    }
}
