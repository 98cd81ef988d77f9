import IndoorModel

/// One visit of a device to a zone: a row of the activity log.
///
/// A visit to a zone with check-out has a check-out time and a dwell once it closes; a check-in to a zone
/// without check-out, or a geoline crossing, is a visit without them.
public struct ZoneVisit: Hashable, Sendable, Codable {
    /// The zone's id.
    public var zone: String
    /// The device's id.
    public var device: String
    /// What checked the device in.
    public var trigger: ZoneEvent.Trigger
    /// The fence that checked the device in (its id, or its index in the zone as text); fence visits only.
    public var fence: String?
    /// The beacon that checked the device in (its node id, else its identity text); beacon visits only.
    public var beacon: String?
    /// The proximity of ``beacon`` at check-in; beacon visits only.
    public var proximity: Proximity?
    /// The crossed geoline (its id, or its index in the zone as text); geoline crossings only.
    public var geoline: String?
    /// Seconds.
    public var checkIn: Double
    /// The last time the device was known to be in the zone, seconds; `nil` while open or without check-out.
    public var checkOut: Double?
    /// `checkOut − checkIn`, seconds; `nil` when there is no check-out.
    public var dwell: Double?
    /// Why the visit checked out; `nil` while open or without check-out.
    public var reason: ZoneEvent.Reason?

    /// A visit checked in at `checkIn` seconds (and out at `checkOut` seconds, when closed); the dwell is
    /// computed from them (`checkOut − checkIn`, `nil` without a check-out).
    public init(
        zone: String, device: String, trigger: ZoneEvent.Trigger, fence: String? = nil, beacon: String? = nil,
        proximity: Proximity? = nil, geoline: String? = nil, checkIn: Double, checkOut: Double? = nil,
        reason: ZoneEvent.Reason? = nil
    ) {
        self.zone = zone
        self.device = device
        self.trigger = trigger
        self.fence = fence
        self.beacon = beacon
        self.proximity = proximity
        self.geoline = geoline
        self.checkIn = checkIn
        self.checkOut = checkOut
        self.dwell = checkOut.map { $0 - checkIn }
        self.reason = reason
    }
}
