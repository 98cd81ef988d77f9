/// How long the store keeps what it holds, in seconds after it was stored (by the wall clock); infinity keeps
/// everything of that kind.
///
/// Sightings are the bulk (about 141 bytes each, docs/SERVER.md); events (every fix and zone event, for the live
/// stream's resumption and the log) come next; visits (the activity log, one row per check-in) are small and kept
/// longest. An open visit is never deleted: a visit's time starts when it is checked out. A device's latest fix goes
/// with the events: once its venue's stored events are all newer than it. A visit left open for longer than
/// ``openVisits`` seconds of data time, that no running session holds open, is closed as `lost`.
public struct Retention: Hashable, Sendable {
    /// Seconds a sighting is kept after it was received.
    public var sightings: Double
    /// Seconds a stored fix or zone event is kept after it was stored.
    public var events: Double
    /// Seconds a closed visit is kept after its check-out was stored.
    public var visits: Double
    /// Seconds an audit log entry is kept after it was recorded.
    public var audit: Double
    /// Seconds of data time after its check-in that a visit no session holds open any more (its venue deleted, its
    /// server stopped while the device was inside and it was never heard again) is closed as `lost`.
    public var openVisits: Double

    /// Sightings 7 days, events 30 days, visits 400 days (a year's reports and then some), audit entries 90 days,
    /// open visits a day, unless given.
    public init(
        sightings: Double = 7 * 86400, events: Double = 30 * 86400, visits: Double = 400 * 86400,
        audit: Double = 90 * 86400, openVisits: Double = 86400
    ) {
        self.sightings = sightings
        self.events = events
        self.visits = visits
        self.audit = audit
        self.openVisits = openVisits
    }

    /// How many rows of each kind one round of retention deleted.
    public struct Pruned: Hashable, Sendable {
        public var sightings: Int
        public var events: Int
        public var visits: Int
        public var audit: Int
        /// Devices' latest fixes deleted with their venue's events.
        public var latestFixes: Int { expiredDevices.count }
        /// The devices whose latest fix was deleted: their data expired (observers clear what they published of them).
        public var expiredDevices: [ExpiredDevice]
        /// Open visits closed as `lost` (``Retention/openVisits``).
        public var closedVisits: Int

        /// Counts of deleted rows; nothing by default.
        public init(
            sightings: Int = 0, events: Int = 0, visits: Int = 0, audit: Int = 0, expiredDevices: [ExpiredDevice] = [],
            closedVisits: Int = 0
        ) {
            self.sightings = sightings
            self.events = events
            self.visits = visits
            self.audit = audit
            self.expiredDevices = expiredDevices
            self.closedVisits = closedVisits
        }

        /// Whether nothing was deleted or closed.
        public var isEmpty: Bool {
            sightings == 0 && events == 0 && visits == 0 && audit == 0 && latestFixes == 0 && closedVisits == 0
        }
    }
}

/// A device of a venue whose latest fix retention deleted (``LocationStore/pruneLatestFixes()``).
public struct ExpiredDevice: Hashable, Sendable {
    public var venue: String
    public var device: String

    public init(venue: String, device: String) {
        self.venue = venue
        self.device = device
    }
}
