import IndoorPositioning

/// What a venue's self-calibration fitted from its nodes' sightings of each other, as `GET /v1/venues/{id}/nodes`
/// writes it beside the nodes: `{"pathLossExponent": 2.51, "rssiAtOneMeter": -61.2, "linksUsed": 56,
/// "nodesFitted": 8, "residualSigma": 2.1, "fittedAt": 1764230400}`.
///
/// The server only translates the session's fit (`LocationSession.selfCalibration`,
/// ``IndoorPositioning/NodeLinkCalibration/Fit``); each node's part is ``NodeSelfCalibration``. There is none (the
/// field is absent) while the venue's positioning does not calibrate itself (a survey, or a calibration that knows
/// the path loss, is in use) and before a fit from enough links.
public struct VenueSelfCalibration: Hashable, Sendable, Encodable {
    /// The path-loss exponent the venue's nodes share.
    public var pathLossExponent: Double
    /// The median of the nodes' fitted RSSI at 1 m, dBm: what positioning takes for a node without a level of its own.
    public var rssiAtOneMeter: Double
    /// The node-to-node links (ordered pairs of nodes) the fit used.
    public var linksUsed: Int
    /// The nodes with a fitted RSSI at 1 m (those that heard enough other nodes).
    public var nodesFitted: Int
    /// The robust standard deviation of the links' levels about the fitted model, dB.
    public var residualSigma: Double
    /// When the fit was made and positioning rebuilt over it: the data time of the link sighting that triggered it,
    /// seconds, on the same time line as a fix's `t`. Refits that moved nothing noticeable keep the fit and its time.
    public var fittedAt: Double

    /// The API's form of `fit`, made at `time`; `nil` when a value is not a finite number (nothing to show).
    public init?(_ fit: NodeLinkCalibration.Fit, at time: Double) {
        guard fit.pathLossExponent.isFinite, fit.rssiAtOneMeter.isFinite, fit.residualSigma.isFinite, time.isFinite
        else { return nil }
        pathLossExponent = fit.pathLossExponent
        rssiAtOneMeter = fit.rssiAtOneMeter
        linksUsed = fit.linksUsed
        nodesFitted = fit.nodes.filter { $0.rssiAtOneMeter != nil }.count
        residualSigma = fit.residualSigma
        fittedAt = time
    }
}
