import IndoorPositioning

/// What self-calibration fitted for one node (``VenueSelfCalibration`` for the venue), as `GET /v1/venues/{id}/nodes`
/// writes it in the node's entry: `{"rssiAtOneMeter": -58.4, "pathLossExponent": 2.51, "links": 7, "heardBy": 7,
/// "gain": -1.2}`.
///
/// Only for a node whose level positioning takes from the fit: one that heard at least as many other nodes as the fit
/// needs (2 by default) and has no calibration of its own in the venue.
public struct NodeSelfCalibration: Hashable, Sendable, Encodable {
    /// The fitted RSSI at 1 m, dBm: the node's level in positioning's path-loss model.
    public var rssiAtOneMeter: Double
    /// The node's path-loss exponent (the venue's shared one).
    public var pathLossExponent: Double
    /// The links the level was fitted from: other nodes this node heard, each with enough sightings.
    public var links: Int
    /// Other nodes that heard this node, in links the fit used.
    public var heardBy: Int
    /// The node's gain as the heard end of a link, dB (the nodes' gains average 0); absent when no node heard it.
    public var gain: Double?

    /// The API's form of `node`'s fit; `nil` when it has no fitted level or a value is not a finite number.
    public init?(_ node: NodeLinkCalibration.Fit.NodeFit) {
        guard let level = node.rssiAtOneMeter, level.isFinite, node.pathLossExponent.isFinite else { return nil }
        rssiAtOneMeter = level
        pathLossExponent = node.pathLossExponent
        links = node.links
        heardBy = node.heardBy
        gain = node.gain.flatMap { $0.isFinite ? $0 : nil }
    }
}
