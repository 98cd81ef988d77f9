import IndoorModel

/// A stored sighting and when the server received it.
public struct ReceivedSighting: Sendable, Equatable {
    /// The sighting as it was taken.
    public var sighting: Sighting
    /// When the server received it, Unix seconds.
    public var receivedAt: Double

    public init(sighting: Sighting, receivedAt: Double) {
        self.sighting = sighting
        self.receivedAt = receivedAt
    }

    /// A sighting from a stored row: exactly one of `node` and `beacon` names its source.
    /// - Throws: ``StoreError`` when neither or both do, or the beacon does not parse.
    init(
        time: Double, device: String, node: String?, beacon: String?, rssi: Double, txPower: Double?,
        receivedAt: Double
    ) throws {
        let source: SightingSource
        switch (node, beacon) {
        case (let node?, nil): source = .node(node)
        case (nil, let beacon?): source = .beacon(try BeaconID(parsing: beacon))
        default:
            throw StoreError(
                "a stored sighting of device '\(device)' at t = \(time) names \(node == nil ? "neither a node nor a beacon" : "both a node and a beacon")"
            )
        }
        self.init(
            sighting: Sighting(time: time, device: device, source: source, rssi: rssi, txPower: txPower),
            receivedAt: receivedAt)
    }
}
