import IndoorModel

/// What the engine knows about one node for one device when it asks a method for a position.
public struct NodeReading: Hashable, Sendable {
    /// The node heard; its position is in metres in the venue frame.
    public var node: Node
    /// Filtered received signal strength, dBm.
    public var rssi: Double
    /// Estimated distance from the node, metres (from the node's calibration and the distance model).
    public var distance: Double
    /// Variance of ``distance``, square metres.
    public var distanceVariance: Double
    /// When the node was last heard, seconds.
    public var lastHeard: Double

    /// A reading: `rssi` in dBm, `distance` in metres, `distanceVariance` in m², `lastHeard` in seconds.
    public init(node: Node, rssi: Double, distance: Double, distanceVariance: Double, lastHeard: Double) {
        self.node = node
        self.rssi = rssi
        self.distance = distance
        self.distanceVariance = distanceVariance
        self.lastHeard = lastHeard
    }
}

extension Collection where Element == NodeReading {
    /// Why these readings cannot be weighed (a non-finite or negative distance, or a non-finite node position), or
    /// `nil` when every one can.
    func invalidReading() -> NoFix? {
        for reading in self {
            let p = reading.node.position
            guard reading.distance.isFinite, reading.distance >= 0, p.x.isFinite, p.y.isFinite, p.z.isFinite else {
                return NoFix(
                    .invalidInput, "node '\(reading.node.id)' has a non-finite or negative distance or position")
            }
        }
        return nil
    }

    /// The mean of the nodes' positions, each weighted by `weight` of its reading (positive), metres.
    func weightedCentre(_ weight: (NodeReading) -> Double) -> Point3D {
        var x = 0.0
        var y = 0.0
        var z = 0.0
        var total = 0.0
        for reading in self {
            let w = weight(reading)
            x += w * reading.node.position.x
            y += w * reading.node.position.y
            z += w * reading.node.position.z
            total += w
        }
        return Point3D(x: x / total, y: y / total, z: z / total)
    }
}
