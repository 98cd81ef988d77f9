import IndoorModel

/// One visit of a device to a zone: a row of the activity log.
///
/// A visit to a zone with check-out has a check-out time and a dwell once it closes; a check-in to a zone
/// without check-out, or a geoline crossing, is a visit without them.
public struct ZoneVisit: Hashable, Sendable, Codable {
    /// The zone's id.
    public var zone: String
    public var device: String
    /// What checked the device in.
    public var trigger: ZoneEvent.Trigger
    /// Seconds.
    public var checkIn: Double
    /// The last time the device was known to be in the zone, seconds; `nil` while open or without check-out.
    public var checkOut: Double?
    /// `checkOut − checkIn`, seconds; `nil` when there is no check-out.
    public var dwell: Double?
    /// Why the visit checked out; `nil` while open or without check-out.
    public var reason: ZoneEvent.Reason?

    public init(
        zone: String, device: String, trigger: ZoneEvent.Trigger, checkIn: Double, checkOut: Double? = nil,
        reason: ZoneEvent.Reason? = nil
    ) {
        self.zone = zone
        self.device = device
        self.trigger = trigger
        self.checkIn = checkIn
        self.checkOut = checkOut
        self.dwell = checkOut.map { $0 - checkIn }
        self.reason = reason
    }
}

/// The visits that have happened, in the order they were logged (a check-in without check-out is logged
/// at check-in, a visit with check-out when it closes). The server persists it.
public struct ActivityLog: Hashable, Sendable, Codable {
    public var visits: [ZoneVisit]

    public init(visits: [ZoneVisit] = []) {
        self.visits = visits
    }

    public mutating func append(_ visit: ZoneVisit) {
        visits.append(visit)
    }

    /// The visits of `device`, in log order.
    public func visits(device: String) -> [ZoneVisit] {
        visits.filter { $0.device == device }
    }

    /// The visits to the zone with id `zone`, in log order.
    public func visits(zone: String) -> [ZoneVisit] {
        visits.filter { $0.zone == zone }
    }

    /// Total dwell of `device` in `zone`, seconds, over closed visits.
    public func totalDwell(device: String, zone: String) -> Double {
        visits.filter { $0.device == device && $0.zone == zone }.compactMap(\.dwell).reduce(0, +)
    }
}
