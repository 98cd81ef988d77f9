/// The visits that have happened, in the order they were logged (a check-in without check-out is logged
/// at check-in, a visit with check-out when it closes). The server persists it.
public struct ActivityLog: Hashable, Sendable, Codable {
    /// The visits, in the order they were logged.
    public var visits: [ZoneVisit]

    /// A log of `visits`, in the order given (empty by default).
    public init(visits: [ZoneVisit] = []) {
        self.visits = visits
    }

    /// Logs `visit` after the others.
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

    /// Total dwell of `device` in the zone with id `zone`, seconds: the sum of ``ZoneVisit/dwell`` over its closed
    /// visits in this log (open visits, check-ins without check-out and geoline crossings add nothing); 0 when
    /// there are none. A log drained by ``ZoneEngine/drainActivity()`` counts only what it still holds.
    public func totalDwell(device: String, zone: String) -> Double {
        visits.filter { $0.device == device && $0.zone == zone }.compactMap(\.dwell).reduce(0, +)
    }
}
