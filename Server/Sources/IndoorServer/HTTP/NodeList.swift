import IndoorModel

/// `GET /v1/venues/{id}/nodes`: each node's health and, where the venue calibrates itself from its nodes' sightings
/// of each other, what that fitted (``VenueSelfCalibration``, each node's ``NodeSelfCalibration``).
public struct NodeList: Sendable, Encodable {
    /// Sightings of one node by another that the venue's session took since it started (its latest `PUT`, or the
    /// server's start).
    public struct NodeLinks: Hashable, Sendable, Encodable {
        /// Links positioning took.
        public var used: Int
        /// Links it could not use: a node the venue does not have at either end, a node hearing itself, two floors.
        public var ignored: Int
    }

    /// The venue's id.
    public var venue: String
    /// Seconds without a sighting after which a node is `silent`.
    public var silentAfter: Double
    /// The venue's nodes, in its order.
    public var nodes: [NodeHealth]
    /// The node-to-node sightings taken so far.
    public var nodeLinks: NodeLinks
    /// The fit from those sightings that positioning works over; `nil` (absent) when there is none.
    public var selfCalibration: VenueSelfCalibration?
}
