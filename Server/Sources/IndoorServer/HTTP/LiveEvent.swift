/// An event as a venue's live subscribers get it (``VenueHub/subscribe(venue:)``): the stored event, and the
/// device's held room once the event's batch (or tick) went through the session.
public struct LiveEvent: Hashable, Sendable {
    /// The event as stored.
    public var stored: StoredEvent
    /// The device's room as the session held it right after the batch (or the tick) that made this event
    /// (``DeviceRoom``): on a fix that is its device's latest of the batch (the room after that fix) and on a zone
    /// event (a check-out of a device the tick lets go at once, as lost, carries the room it was held in). `nil` for a
    /// fix followed by a later one of the same device in the same batch (the session takes a batch whole: the room
    /// right after that fix is not known), when the session holds no room for the device, and when the venue has no
    /// rooms.
    public var room: DeviceRoom?

    /// A live event.
    public init(stored: StoredEvent, room: DeviceRoom? = nil) {
        self.stored = stored
        self.room = room
    }

    /// Per device, the index in `events` of its last fix: the fix that carries the device's room in a stream.
    static func lastFixIndices(_ events: [StoredEvent]) -> [String: Int] {
        var last: [String: Int] = [:]
        for (index, event) in events.enumerated() {
            if case .fix(let fix) = event.event { last[fix.device] = index }
        }
        return last
    }

    /// `events` as live events, each that carries a room (``room``: a device's last fix of the batch, a zone event)
    /// with `room(device)`, the device's room right after the batch; an occupancy event carries none.
    static func withRooms(_ events: [StoredEvent], room: (String) -> DeviceRoom?) -> [LiveEvent] {
        let lastFix = lastFixIndices(events)
        return events.enumerated().map { index, event in
            switch event.event {
            case .fix(let fix):
                guard lastFix[fix.device] == index else { return LiveEvent(stored: event) }
                return LiveEvent(stored: event, room: room(fix.device))
            case .zone(let zone):
                return LiveEvent(stored: event, room: room(zone.device))
            case .occupancy, .person:
                // A zone's count, of no device, and a person's check-in or out: no device's room.
                return LiveEvent(stored: event)
            }
        }
    }
}

/// One venue's live events of one batch (``VenueHub/observeAll(buffer:)``).
public struct VenueLiveEvents: Hashable, Sendable {
    /// The venue's id.
    public var venue: String
    /// Its events, in the order stored.
    public var events: [LiveEvent]
    /// The devices the venue's session let go since the last such batch (silent for its device memory, or evicted
    /// beyond its cap): what an observer keeps of them can go too.
    public var forgotten: [String] = []
    /// The devices whose data was erased (``VenueHub/eraseDevice(_:venue:)``) or expired (their latest fix deleted by
    /// retention, ``VenueHub/prune(_:batch:)``): an observer clears what it published of them (the MQTT publisher
    /// empties their retained topics and Home Assistant discovery).
    public var erased: [String] = []
    /// The venue's zones with how many are in each now, when the venue was put or replaced (and at start,
    /// ``VenueHub/zoneStates(venue:)``): an observer announces them (the MQTT publisher, their retained states and
    /// Home Assistant entities).
    public var zones: [ZoneOccupancyState] = []
    /// The zones of the venue that are gone (the venue replaced without them, or deleted): an observer clears what it
    /// published of them.
    public var removedZones: [String] = []
    /// The venue's persons whose location changed in this batch (or all of them when the venue was put or
    /// replaced): an observer publishes where they are (``PersonUpdate``).
    public var persons: [PersonUpdate] = []
    /// The persons of the venue that are gone (the venue replaced without them, or deleted): an observer clears what
    /// it published of them.
    public var removedPersons: [String] = []
    /// The venue was deleted: an observer clears everything it published of it (``erased`` names its devices with a
    /// latest fix, ``removedZones`` its zones).
    public var venueDeleted = false
}
