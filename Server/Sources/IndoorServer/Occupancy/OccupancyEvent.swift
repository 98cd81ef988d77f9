import IndoorGeofencing

/// A zone's occupancy changed: it became occupied, became empty, or how many are in it changed. Stored and streamed
/// as event `occupancy`, committed in the transaction of the zone events that caused it (right after the one that
/// changed the count), or of the erasure or closing of visits that did.
///
/// Pseudonymous: a zone and a count, never a device. The count is the zone's members as ``ZoneOccupancy`` counts
/// them: the devices with a visit open in it in the store (`GET /v1/venues/{id}/occupancy`), so the latest
/// `occupancy` event of a zone always says what that route answers.
public struct OccupancyEvent: Hashable, Sendable, Codable {
    /// How the count changed: `occupied` (from 0), `empty` (to 0) or `changed`.
    public var kind: ZoneOccupancy.Change.Kind
    /// When, seconds of the venue's data time: the zone event's time, or the venue's present for an erasure or a
    /// stale visit closed.
    public var time: Double
    /// The venue's id.
    public var venue: String
    /// The zone's id.
    public var zone: String
    /// The zone's name.
    public var zoneName: String
    /// How many are in the zone now.
    public var count: Int
    /// How many were in it before.
    public var previousCount: Int
    /// Whether anyone is in the zone now (`count > 0`).
    public var occupied: Bool

    /// The event of `change` in `venue`'s zone named `zoneName`.
    public init(_ change: ZoneOccupancy.Change, venue: String, zoneName: String) {
        kind = change.kind
        time = change.time
        self.venue = venue
        zone = change.zone
        self.zoneName = zoneName
        count = change.count
        previousCount = change.previousCount
        occupied = change.count > 0
    }

    enum CodingKeys: String, CodingKey {
        case kind = "event"
        case time = "t"
        case venue, zone, zoneName, count, previousCount, occupied
    }
}

extension ZoneOccupancy {
    /// `events` of `runtime`'s venue (in order) followed by this occupancy: each zone event of a device of a person
    /// that brings the person in or out is followed by the ``PersonZoneEvent``, and each zone event that changes its
    /// zone's count by the ``OccupancyEvent`` of that change, so all are stored in one transaction, in that order.
    mutating func interleave(_ events: [ServerEvent], runtime: VenueRuntime) -> [ServerEvent] {
        var out: [ServerEvent] = []
        out.reserveCapacity(events.count)
        let venue = runtime.venue.id
        for event in events {
            out.append(event)
            guard case .zone(let zone) = event else { continue }
            let (change, presence) = follow(zone)
            if let presence {
                out.append(
                    .person(
                        PersonZoneEvent(
                            presence, venue: venue, personName: runtime.personNames[presence.person] ?? presence.person,
                            zoneName: zone.zoneName)))
            }
            if let change { out.append(.occupancy(OccupancyEvent(change, venue: venue, zoneName: zone.zoneName))) }
        }
        return out
    }

    /// The changes that make this occupancy `target`'s, at `time` (seconds), in zone order: what an erasure or the
    /// closing of stale visits did to the counts.
    func changes(to target: ZoneOccupancy, at time: Double) -> [Change] {
        let zones = Set(counts.keys).union(target.counts.keys).sorted()
        return zones.compactMap { zone in
            let before = count(of: zone)
            let after = target.count(of: zone)
            guard before != after else { return nil }
            let kind: Change.Kind = before == 0 ? .occupied : after == 0 ? .empty : .changed
            return Change(zone: zone, time: time, kind: kind, count: after, previousCount: before)
        }
    }
}

/// A zone of a venue and how many are in it now (``ZoneOccupancy/count(of:)``).
public struct ZoneOccupancyState: Hashable, Sendable {
    /// The zone's id.
    public var zone: String
    /// The zone's name.
    public var name: String
    /// How many are in it.
    public var count: Int

    public init(zone: String, name: String, count: Int) {
        self.zone = zone
        self.name = name
        self.count = count
    }
}
