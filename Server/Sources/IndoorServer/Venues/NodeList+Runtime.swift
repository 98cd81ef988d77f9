extension NodeList {
    /// `GET /v1/venues/{id}/nodes` of `runtime`'s venue: each node's health as `health` has it at `now` (Unix seconds;
    /// ``NodeHealthBook/health(venue:nodes:at:)``), in the venue's order, and what the session's self-calibration
    /// fitted, read from the session at one moment (`LocationSession.selfCalibration`, `selfCalibrationTime` and its
    /// node-link counts). A node with a calibration of its own in the venue keeps it: the fit is not its level.
    init(runtime: VenueRuntime, health: NodeHealthBook, at now: Double) {
        let venue = runtime.venue.id
        let (fit, time, statistics) = runtime.locked { state in
            (state.session.selfCalibration, state.session.selfCalibrationTime, state.session.statistics)
        }
        var nodes = health.health(venue: venue, nodes: runtime.venue.nodes.map(\.id), at: now)
        let venueFit = fit.flatMap { fit in time.flatMap { VenueSelfCalibration(fit, at: $0) } }
        if let fit, venueFit != nil {
            let own = Set(runtime.venue.nodes.filter { $0.calibration != nil }.map(\.id))
            let fitted = Dictionary(
                fit.nodes.filter { !own.contains($0.id) }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for index in nodes.indices {
                nodes[index].selfCalibration = fitted[nodes[index].id].flatMap(NodeSelfCalibration.init)
            }
        }
        self.init(
            venue: venue, silentAfter: health.silentAfter, nodes: nodes,
            nodeLinks: NodeList.NodeLinks(used: statistics.nodeLinks, ignored: statistics.ignoredNodeLinks),
            selfCalibration: venueFit)
    }
}
