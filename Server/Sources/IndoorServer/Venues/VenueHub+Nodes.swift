import IndoorModel

extension VenueHub {
    /// The ids of the venues that have a node `node`, sorted.
    public func venues(withNode node: String) -> [String] {
        registry.venues(withNode: node)
    }

    /// The health of each node of `venue` (``NodeHealthBook/health(venue:nodes:at:)``), in the venue's order, with
    /// what the venue's self-calibration fitted for it; `nil` for an unknown venue.
    public func nodes(venue: String) -> [NodeHealth]? {
        nodeList(venue: venue)?.nodes
    }

    /// `GET /v1/venues/{id}/nodes` of `venue`: each node's health (``NodeHealthBook/health(venue:nodes:at:)``) and
    /// what the session's self-calibration fitted, read from the session at one moment (`LocationSession.selfCalibration`,
    /// `selfCalibrationTime` and its node-link counts); `nil` for an unknown venue.
    public func nodeList(venue: String) -> NodeList? {
        guard let runtime = registry.runtime(venue) else { return nil }
        let (fit, time, statistics) = runtime.locked { state in
            (state.session.selfCalibration, state.session.selfCalibrationTime, state.session.statistics)
        }
        var nodes = nodeHealth.health(venue: venue, nodes: runtime.venue.nodes.map(\.id), at: wallClock())
        let venueFit = fit.flatMap { fit in time.flatMap { VenueSelfCalibration(fit, at: $0) } }
        if let fit, venueFit != nil {
            // A node with a calibration of its own in the venue keeps it: the fit is not its level.
            let own = Set(runtime.venue.nodes.filter { $0.calibration != nil }.map(\.id))
            let fitted = Dictionary(
                fit.nodes.filter { !own.contains($0.id) }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for index in nodes.indices {
                nodes[index].selfCalibration = fitted[nodes[index].id].flatMap(NodeSelfCalibration.init)
            }
        }
        return NodeList(
            venue: venue, silentAfter: nodeHealth.silentAfter, nodes: nodes,
            nodeLinks: NodeList.NodeLinks(used: statistics.nodeLinks, ignored: statistics.ignoredNodeLinks),
            selfCalibration: venueFit)
    }
}
