/// The visits that have happened, in the order they were logged (a check-in without check-out is logged
/// at check-in, a visit with check-out when it closes). The server persists it.
public struct ActivityLog: Hashable, Sendable, Codable {
    public var visits: [ZoneVisit]

    package init(visits: [ZoneVisit] = []) {
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
    func totalDwell(device: String, zone: String) -> Double {
        visits.filter { $0.device == device && $0.zone == zone }.compactMap(\.dwell).reduce(0, +)
    }
}
