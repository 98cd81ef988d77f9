import IndoorModel
import IndoorSession

extension VenueHub {
    /// The most sightings a venue's session replays when the server starts.
    static let resumeLimit = 20_000

    /// Rebuilds a stored venue's session at start from its latest stored sightings (the positioning window, the
    /// first-fix delay and the fix interval before its latest one, at most ``resumeLimit``), so that the server
    /// carries on where it stopped, even after `kill -9`: each device's readings, track and rooms are as they were,
    /// and a device whose first fix was still waiting when the server stopped gets it (at its time, stored and
    /// streamed like any other). Of what the replay causes, only the events of devices that have no stored fix are
    /// committed: the others were stored before the stop. The venue's present is its latest sighting's data time
    /// plus the wall-clock time since that sighting was received, so a server that was down for a while checks out
    /// (`lost`) the devices it no longer hears at its next tick.
    func resume(_ runtime: VenueRuntime) async throws {
        let configuration = runtime.locked { $0.session.configuration }
        let seconds = configuration.positioning.window + configuration.firstFixDelay + configuration.fixInterval
        let recent = try await store.recentSightings(
            venue: runtime.venue.id, seconds: seconds, limit: Self.resumeLimit)
        guard let last = recent.last else { return }
        var unfixed: Set<String> = []
        // A node heard by another is no device: it has no fix to look up.
        let devices = runtime.locked { state in
            Set(recent.map(\.sighting.device)).filter { !state.session.isNodeLink($0) }
        }
        for device in devices.sorted()
        where try await store.latestFix(venue: runtime.venue.id, device: device) == nil {
            unfixed.insert(device)
        }
        let sightings = recent.map(\.sighting)
        let events = runtime.locked { state -> [ServerEvent] in
            state.timeBase = SightingTimeWindow.base(of: sightings[0].time)
            state.lastDataTime = last.sighting.time
            state.lastArrival = last.receivedAt
            state.recent?.append(contentsOf: sightings)
            for sighting in sightings where !state.session.isNodeLink(sighting.device) {
                state.devices.insert(sighting.device)
            }
            return Self.serverEvents(state.session.ingest(sightings)).filter { unfixed.contains($0.device) }
        }
        guard !events.isEmpty else { return }
        let stored = try await store.commit(
            IngestBatch(
                venue: runtime.venue.id, sightings: [], events: events, receivedAt: wallClock(), lease: runtime.lease))
        record(stored)
    }
}
