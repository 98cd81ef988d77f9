import IndoorModel

/// Something that happened between a device and a zone: a check-in, a check-out or a dwell.
///
/// In JSON (keys sorted, absent fields left out):
/// `{"event":"checkIn","t":12,"zone":"lobby","zoneName":"Lobby","device":"phone-1","trigger":"fence",
/// "willCheckOut":true,"zoneEnabled":true,"data":{"floorManager":"Ana"},"fence":"desk-3"}`.
///
/// Every event names what checked the device in, as established beacon and geofencing SDKs do: a fence visit's
/// check-in, dwell and check-out carry ``fence``; a beacon visit's carry ``beacon`` and ``proximity`` (the
/// beacon that checked the device in and how near it was then); a geoline check-in carries ``geoline`` and
/// ``direction``.
public struct ZoneEvent: Hashable, Sendable, Codable {
    /// The kind of event.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The device checked in (a fence entered, a beacon close enough, a geoline crossed).
        case checkIn
        /// The device checked out; carries ``ZoneEvent/dwell``.
        case checkOut
        /// The open visit reached the zone's dwell threshold (once per visit).
        case dwell
    }

    /// Why a visit checked out.
    public enum Reason: String, Hashable, Sendable, Codable {
        /// The device left: confidently outside every fence for the check-out time, or none of the zone's
        /// beacons heard for the exit delay.
        case left
        /// The device inside a fence had no fix at all for the zone's ``Zone/lostTimeout``.
        case lost
        /// The venue was replaced by one without a zone of this id: the visit ends with the zone
        /// (``ZoneEngine/carryVisits(from:)``).
        case zoneRemoved
    }

    /// What checked the device in.
    public enum Trigger: String, Hashable, Sendable, Codable {
        case fence, beacon, geoline
    }

    /// Check-in, check-out or dwell.
    public var kind: Kind
    /// When the event happened, seconds on the sightings' clock. A check-out's time is when it was decided
    /// (the confident-outside time or exit delay ran out); its ``departure`` is the best estimate of when
    /// the device left.
    public var time: Double
    /// The zone's id.
    public var zone: String
    /// The zone's name.
    public var zoneName: String
    /// The device's id.
    public var device: String
    /// What checked the device in (for a check-out or dwell: what opened the visit).
    public var trigger: Trigger
    /// For visits checked in by a fence (check-in, dwell, check-out): the fence that checked the device in, by
    /// its ``ZoneFence/id`` or, without one, its index in the zone's fences as text (`"0"`).
    public var fence: String?
    /// For visits checked in by a beacon (check-in, dwell, check-out): the beacon that checked the device in,
    /// by its node id when the venue knows the radio, else its identity text `UUID/major/minor`.
    public var beacon: String?
    /// For visits checked in by a beacon: the proximity at which ``beacon`` was ranged at check-in.
    public var proximity: Proximity?
    /// The crossed geoline's id (or its index in the zone, as text), for geoline check-ins.
    public var geoline: String?
    /// The crossing direction, for geoline check-ins.
    public var direction: ZoneGeoline.Direction?
    /// On check-ins: whether a check-out will follow (false for zones without check-out and for geolines).
    public var willCheckOut: Bool?
    /// On check-outs and dwells: when the visit checked in, seconds.
    public var checkIn: Double?
    /// On check-outs: the last time the device was known to be in the zone, seconds.
    public var departure: Double?
    /// On check-outs: why the visit ended.
    public var reason: Reason?
    /// On check-outs: `departure − checkIn`; on dwells: the threshold reached. Seconds.
    public var dwell: Double?
    /// The zone's custom data.
    public var data: [String: String]
    /// Whether the zone was enabled when the event happened.
    public var zoneEnabled: Bool

    /// An event at `time` seconds; `checkIn`, `departure` and `dwell` are seconds too.
    public init(
        kind: Kind, time: Double, zone: String, zoneName: String, device: String, trigger: Trigger,
        fence: String? = nil, beacon: String? = nil, proximity: Proximity? = nil, geoline: String? = nil,
        direction: ZoneGeoline.Direction? = nil, willCheckOut: Bool? = nil,
        checkIn: Double? = nil, departure: Double? = nil, reason: Reason? = nil, dwell seconds: Double? = nil,
        data: [String: String] = [:], zoneEnabled: Bool = true
    ) {
        self.kind = kind
        self.time = time
        self.zone = zone
        self.zoneName = zoneName
        self.device = device
        self.trigger = trigger
        self.fence = fence
        self.beacon = beacon
        self.proximity = proximity
        self.geoline = geoline
        self.direction = direction
        self.willCheckOut = willCheckOut
        self.checkIn = checkIn
        self.departure = departure
        self.reason = reason
        self.dwell = seconds
        self.data = data
        self.zoneEnabled = zoneEnabled
    }

    enum CodingKeys: String, CodingKey {
        case kind = "event"
        case time = "t"
        case zone, zoneName, device, trigger, fence, beacon, proximity, geoline, direction, willCheckOut, checkIn,
            departure, reason, dwell
        case data, zoneEnabled
    }
}
