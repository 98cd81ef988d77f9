import IndoorModel

/// A batch of sightings through its venue's session, before its commit: what the venue took and refused, and the
/// events the session made of it.
struct PreparedBatch {
    /// The sightings taken, in the order given.
    var taken: [Sighting]
    /// The fixes and zone events the session made of them, in order, each zone event that changed its zone's count
    /// followed by its occupancy event.
    var events: [ServerEvent]
    /// The sightings refused: their index in the batch given, the field that was wrong (`t`, `node`, `device`) and why.
    var refused: [(index: Int, field: String, message: String)]
    /// Node-to-node sightings the session took: used, ignored.
    var links: (used: Int, ignored: Int)
    /// The room, right after this batch, of each device with a fix or a zone event in it
    /// (``VenueRuntime/room(of:session:)``).
    var rooms: [String: DeviceRoom]
}

extension PreparedBatch {
    /// `sightings` through `runtime`'s session, under its lock: each sighting the venue can take
    /// (``VenueRuntime/problem(with:)``) at a time inside `window` (the venue's present moved on by each sighting
    /// taken) goes through the session; the venue's time base, latest data time, arrival, recent sightings and devices
    /// move on with them. `nil` when the runtime is retired (nothing is done then).
    /// - Parameter now: The wall clock at the batch's arrival, Unix seconds.
    init?(_ sightings: [Sighting], runtime: VenueRuntime, window: SightingTimeWindow, now: Double) {
        let prepared = runtime.locked { state -> PreparedBatch? in
            guard !state.retired else { return nil }
            var refused: [(index: Int, field: String, message: String)] = []
            let base = state.timeBase ?? SightingTimeWindow.base(of: sightings.first?.time ?? 0)
            // The venue's present in its own time, moved on by each sighting taken.
            var present = state.lastDataTime.map { $0 + max(0, now - (state.lastArrival ?? now)) }
            var taken: [Sighting] = []
            taken.reserveCapacity(sightings.count)
            for (index, sighting) in sightings.enumerated() {
                if let problem = runtime.problem(with: sighting) {
                    refused.append((index, problem.field, problem.message))
                    continue
                }
                let range = window.range(base: base, present: present, wallClock: now)
                if range.contains(sighting.time) {
                    taken.append(sighting)
                    present = max(present ?? sighting.time, sighting.time)
                } else {
                    refused.append((index, "t", SightingTimeWindow.refusal(sighting.time, base: base, range: range)))
                }
            }
            guard !taken.isEmpty else {
                return PreparedBatch(taken: [], events: [], refused: refused, links: (0, 0), rooms: [:])
            }
            state.timeBase = base
            let linksBefore = (state.session.statistics.nodeLinks, state.session.statistics.ignoredNodeLinks)
            let events = state.occupancy.interleave(
                ServerEvent.stored(from: state.session.ingest(taken)), runtime: runtime)
            let links = (
                state.session.statistics.nodeLinks - linksBefore.0,
                state.session.statistics.ignoredNodeLinks - linksBefore.1
            )
            state.recent?.append(contentsOf: taken)
            if let last = taken.map(\.time).max() {
                state.lastDataTime = max(state.lastDataTime ?? last, last)
                state.lastArrival = now
            }
            let rooms = IngestPipeline.rooms(of: events, runtime: runtime, session: state.session)
            return PreparedBatch(taken: taken, events: events, refused: refused, links: links, rooms: rooms)
        }
        guard let prepared else { return nil }
        self = prepared
    }
}
