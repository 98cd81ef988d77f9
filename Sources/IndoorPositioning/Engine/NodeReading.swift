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
