import IndoorGeofencing
import IndoorModel
import IndoorSession

/// Resuming a venue after a restart (or when an instance of a cluster takes it over): its session rebuilt from the
/// store before any batch can reach it.
struct VenueResume: Sendable {
    /// The most sightings a venue's session replays when the server starts.
    static let limit = 20_000

    /// The store the venue's sightings, fixes and open visits are read from, and its replay's new events committed to.
    let store: any LocationStore
    let metrics: ServerMetrics
    /// Seconds since 1970: when the replay's events are received.
    let wallClock: @Sendable () -> Double

    /// Rebuilds a stored venue's session at start from its latest stored sightings (the positioning window, the
    /// first-fix delay and the fix interval before its latest one, at most ``limit``), so that the server
    /// carries on where it stopped, even after `kill -9`: each device's readings, track and rooms are as they were,
    /// and a device whose first fix was still waiting when the server stopped gets it (at its time, stored and
    /// streamed like any other). Of what the replay causes, only the events of devices that have no stored fix are
    /// committed: the others were stored before the stop. The store, not the replay, says which zone visits are open
    /// (`LocationSession.resumeVisits`): a visit the replay opens that the store closed before the stop stays closed,
    /// and a stored open visit goes on with its check-in time, so no restart adds, reopens or closes a visit twice.
    /// After the replay the session's clock is moved to the latest stored fix of the devices replayed, so what the
    /// venue's tick made before the stop (a first fix after the last sighting, with its check-in) is made there and
    /// dropped, not made again by the next tick: a restart stores and publishes nothing a second time.
    /// The venue's present is its latest sighting's data time plus the wall-clock time since that sighting was
    /// received, so a server that was down for a while checks out (`lost`) the devices it no longer hears at its
    /// next tick.
    func resume(_ runtime: VenueRuntime) async throws {
        let configuration = runtime.locked { $0.session.configuration }
        let seconds = configuration.positioning.window + configuration.firstFixDelay + configuration.fixInterval
        let recent = try await store.recentSightings(
            venue: runtime.venue.id, seconds: seconds, limit: Self.limit)
        // Occupancy goes on from the store's open visits, whatever the replay does.
        let open = try await Self.openVisits(venue: runtime.venue.id, store: store)
        runtime.locked { $0.occupancy = ZoneOccupancy(openVisits: open, persons: $0.occupancy.persons) }
        guard let last = recent.last else { return }
        var unfixed: Set<String> = []
        // A node heard by another is no device: it has no fix to look up.
        let devices = runtime.locked { state in
            Set(recent.map(\.sighting.device)).filter { !state.session.isNodeLink($0) }
        }
        // The data time up to which the venue's session had made and stored its events before the stop.
        var storedUntil: Double?
        for device in devices.sorted() {
            if let fix = try await store.latestFix(venue: runtime.venue.id, device: device) {
                storedUntil = max(storedUntil ?? fix.time, fix.time)
            } else {
                unfixed.insert(device)
            }
        }
        var lastSeen: [String: Double] = [:]
        for device in Set(open.map(\.device)).sorted() {
            lastSeen[device] = try await store.latestFix(venue: runtime.venue.id, device: device)?.time
        }
        let sightings = recent.map(\.sighting)
        let events = runtime.locked { state -> [ServerEvent] in
            state.timeBase = SightingTimeWindow.base(of: sightings[0].time)
            state.lastDataTime = last.sighting.time
            state.lastArrival = last.receivedAt
            state.recent?.append(contentsOf: sightings)
            let storedKeys = Set(open.map { VisitKey(zone: $0.zone, device: $0.device) })
            // Only devices without a stored fix had nothing stored before the stop; of their zone events, none about
            // a visit the store holds open (that one goes on as stored).
            // The replay, then the session's clock moved to the latest stored fix: a fix the venue's tick made after
            // the last sighting (a first fix, or one due when the venue went quiet) was stored before the stop, so
            // it is made again here, not by the next tick (stored and published a second time).
            var replayed = state.session.ingest(sightings)
            if let storedUntil { replayed += state.session.advance(to: storedUntil) }
            let events = ServerEvent.stored(from: replayed).filter { event in
                guard unfixed.contains(event.device) else { return false }
                guard case .zone(let zone) = event else { return true }
                return !storedKeys.contains(VisitKey(zone: zone.zone, device: zone.device))
            }
            let kept = state.session.openVisits.filter {
                unfixed.contains($0.device) && !storedKeys.contains(VisitKey(zone: $0.zone, device: $0.device))
            }
            state.session.resumeVisits(open + kept, lastSeen: lastSeen)
            return state.occupancy.interleave(events, runtime: runtime)
        }
        guard !events.isEmpty else { return }
        let stored = try await store.commit(
            IngestBatch(
                venue: runtime.venue.id, sightings: [], events: events, receivedAt: wallClock(), lease: runtime.lease))
        metrics.recordStored(stored)
    }

    /// Every visit `store` holds open for `venue`, as the session's zone engine takes them; a visit whose trigger
    /// this version does not know is left out.
    static func openVisits(venue: String, store: any LocationStore) async throws -> [ZoneVisit] {
        var visits: [ZoneVisit] = []
        var before: Int64?
        repeat {
            let page = try await store.visits(VisitQuery(venue: venue, limit: 1000, before: before, openOnly: true))
            for visit in page.visits {
                guard let trigger = ZoneEvent.Trigger(rawValue: visit.trigger) else { continue }
                visits.append(
                    ZoneVisit(zone: visit.zone, device: visit.device, trigger: trigger, checkIn: visit.checkIn))
            }
            before = page.nextBefore
        } while before != nil
        return visits
    }
}

/// A zone and a device: one visit's place in the store's rule of one open visit per device and zone.
private struct VisitKey: Hashable {
    var zone: String
    var device: String
}
