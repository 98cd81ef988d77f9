import Foundation

extension VenueHub {
    /// Erases everything the server keeps of `device`, in `venue` only or (`nil`) in every venue (docs/PRIVACY.md),
    /// its site survey recordings too (the venues that learned from them relearn): first from the sessions running here (``IndoorSession/LocationSession/erase(device:)``, as one of each venue's
    /// jobs, so no batch is halfway through), then every stored row that names it (``LocationStore/eraseDevice(_:venue:)``);
    /// then the observers are told (the MQTT publisher clears its retained topics and Home Assistant discovery), and in
    /// a cluster the other instances erase it from the sessions they run; the live streams (`GET /v1/stream`) of every
    /// instance are sent `event: device-erased` when there was something of the device.
    ///
    /// A device heard again afterwards is a new device: erasure does not block it.
    /// - Returns: How many stored rows of each kind were deleted.
    ///
    /// A `venue` that no longer exists is no error: its rows stay in the log after it is deleted, and are erased.
    /// - Throws: The store's error.
    public func eraseDevice(_ device: String, venue: String?) async throws -> DataCounts {
        let held = await eraseFromSessions(device, venue: venue)
        let counts = try await store.eraseDevice(device, venue: venue)
        // Its visits went with it: the zones it was in count one fewer.
        await reconcileOccupancy(venue: venue)
        if counts.surveyRecordings > 0 {
            // Its survey recordings went too: the venues that learned from them learn from what is left.
            openSurveys.forgetAll()
            for id in venue.map({ [$0] }) ?? ownedVenueIDs where learning.hasSurvey(venue: id) {
                try await relearnSurvey(venue: id)
            }
        }
        for id in venue.map({ [$0] }) ?? venueIDs {
            // A person it belonged to is no longer placed by it.
            let persons = registry.runtime(id)?.followPersons([], forgotten: [device]) ?? []
            observers.publish(VenueLiveEvents(venue: id, events: [], erased: [device], persons: persons))
        }
        // The streams are told only of a device there was something of: an id never stored (a raw address when ids
        // are pseudonymous) is never sent to them.
        // In a cluster every instance, this one too, tells its streams when the message comes back.
        let known = held > 0 || counts.total > 0
        var told = false
        if let clusterStore {
            told =
                (try? await clusterStore.notifyCluster(
                    ClusterErasure(device: device, venue: venue, toStreams: known).message)) != nil
        }
        if known && !told { erasures.publish(DeviceErasure(device: device, venue: venue)) }
        return counts
    }

    /// Erases `device` from the sessions of the venues running here (all of them, or `venue` only), each as one of
    /// its venue's jobs; the recent sightings kept for a survey's learning lose it too.
    /// - Returns: How many sessions held something of it.
    @discardableResult
    func eraseFromSessions(_ device: String, venue: String?) async -> Int {
        let runtimes = registry.all.filter { venue == nil || $0.venue.id == venue }
        var held = 0
        for runtime in runtimes {
            let erased = try? await runtime.jobs.run { () async throws -> Bool in
                runtime.locked { state in
                    let recent = state.recent?.erase(device: device) ?? 0
                    return state.session.erase(device: device) || recent > 0
                }
            }
            if erased == true { held += 1 }
            metrics.recordDevicesHeld(venue: runtime.venue.id, count: runtime.deviceCount)
        }
        metrics.devicesTracked.record(registry.deviceCount)
        return held
    }
}

/// A device erased, as the streams are told (`event: device-erased`): in `venue` only, or in every venue (`nil`).
struct DeviceErasure: Hashable, Sendable {
    var device: String
    var venue: String?

    /// Whether a stream of `streamed` is told.
    func concerns(_ streamed: String) -> Bool {
        venue == nil || venue == streamed
    }
}

/// The cluster message that asks every instance to erase a device from the sessions it runs: `erase:` (or `erase+:`
/// when the instances' streams are told too, ``DeviceErasure``) then the venue (empty for every venue), a line feed,
/// and the device.
struct ClusterErasure: Hashable, Sendable {
    var device: String
    var venue: String?
    /// Whether each instance tells its streams (the device was known where it was erased).
    var toStreams: Bool

    /// The message's text.
    var message: String { "\(toStreams ? "erase+:" : "erase:")\(venue ?? "")\n\(device)" }

    init(device: String, venue: String?, toStreams: Bool = false) {
        self.device = device
        self.venue = venue
        self.toStreams = toStreams
    }

    /// The erasure `message` asks for; `nil` for another message.
    init?(message: String) {
        let prefix: String
        if message.hasPrefix("erase:") {
            prefix = "erase:"
        } else if message.hasPrefix("erase+:") {
            prefix = "erase+:"
        } else {
            return nil
        }
        guard let newline = message.firstIndex(of: "\n") else { return nil }
        let venue = String(message[message.index(message.startIndex, offsetBy: prefix.count)..<newline])
        device = String(message[message.index(after: newline)...])
        self.venue = venue.isEmpty ? nil : venue
        toStreams = prefix == "erase+:"
        guard !device.isEmpty else { return nil }
    }

    /// What the streams are told, when they are.
    var streamed: DeviceErasure? {
        toStreams ? DeviceErasure(device: device, venue: venue) : nil
    }
}

/// What deleting a venue did to its data (`DELETE /v1/venues/{id}?purge=true`).
public struct VenueDeletion: Hashable, Sendable, Encodable {
    /// The venue.
    public var venue: String
    /// Its visits still open, closed as `lost`.
    public var closedVisits: Int
    /// With `purge`, how many of its stored rows of each kind were deleted.
    public var purged: DataCounts?
}

extension VenueHub {
    /// Deletes the venue `id` (``deleteVenue(id:)``), closes its visits still open as `lost` (at the venue's present,
    /// as its session last had it), tells the observers (the MQTT publisher clears what it published of its devices
    /// and zones: retained states and Home Assistant entities), and with `purge` deletes every stored row of it
    /// (``LocationStore/purgeVenueData(id:)``).
    /// - Returns: What was done; `nil` when there was no such venue.
    public func deleteVenue(id: String, purge: Bool) async throws -> VenueDeletion? {
        let present = registry.runtime(id).flatMap { runtime in
            runtime.locked { state in state.lastDataTime.map { $0 + max(0, wallClock() - (state.lastArrival ?? 0)) } }
        }
        // Read before the venue goes (its devices' latest fixes go with it): what the observers clear.
        let zones = registry.venue(id: id)?.zones.map(\.id) ?? []
        let persons = registry.venue(id: id)?.persons.map(\.id) ?? []
        let devices = try await store.devices(venue: id, since: -.infinity).map(\.device)
        guard try await deleteVenue(id: id) else { return nil }
        let closedVisits = try await closeOpenVisits(venue: id, checkOut: present)
        observers.publish(
            VenueLiveEvents(
                venue: id, events: [], erased: devices, removedZones: zones, removedPersons: persons,
                venueDeleted: true))
        guard purge else { return VenueDeletion(venue: id, closedVisits: closedVisits, purged: nil) }
        let purged = try await store.purgeVenueData(id: id)
        return VenueDeletion(venue: id, closedVisits: closedVisits, purged: purged)
    }

    /// Closes `venue`'s stored visits still open (all, or those `stale` keeps) as `lost`, at `checkOut` seconds of
    /// data time (each at its check-in when `nil`), a page at a time.
    /// - Returns: How many were closed.
    func closeOpenVisits(
        venue: String, checkOut: Double?, where stale: (Visit) -> Bool = { _ in true }
    ) async throws -> Int {
        var closed = 0
        var before: Int64?
        repeat {
            let page = try await store.visits(VisitQuery(venue: venue, limit: 1000, before: before, openOnly: true))
            let ids = page.visits.filter(stale).map(\.id)
            closed += try await store.closeVisits(ids: ids, checkOut: checkOut, closedAt: wallClock())
            before = page.nextBefore
        } while before != nil
        return closed
    }
}

extension VenueHub {
    /// Closes as `lost` the stored visits of the venues running here that are open more than `seconds` of data time
    /// after their check-in, at the venue's present, unless its session still holds them open (a device still in the
    /// zone); none for an infinite `seconds`.
    /// - Returns: How many were closed.
    func closeStaleVisits(after seconds: Double) async throws -> Int {
        guard seconds.isFinite else { return 0 }
        let now = wallClock()
        var closed = 0
        for runtime in registry.all {
            let (present, held) = runtime.locked { state -> (Double?, Set<String>) in
                let present = state.lastDataTime.map { $0 + max(0, now - (state.lastArrival ?? now)) }
                return (present, Set(state.session.openVisits.map { "\($0.zone)\n\($0.device)" }))
            }
            guard let present else { continue }
            let closedHere = try await closeOpenVisits(venue: runtime.venue.id, checkOut: present) { visit in
                visit.checkIn < present - seconds && !held.contains("\(visit.zone)\n\(visit.device)")
            }
            if closedHere > 0 { try await pipeline.reconcileOccupancy(runtime) }
            closed += closedHere
        }
        return closed
    }
}
