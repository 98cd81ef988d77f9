import IndoorModel

/// Who is in each zone now, and how many, followed from the zone events of a ``ZoneEngine`` (or a session): what a
/// venue's occupancy sensors, counters and "room occupied" automations read.
///
/// A zone's members are the devices with a visit open in it (checked in, not yet checked out); check-ins that open
/// no visit (geolines, zones without check-out) do not count. Devices that belong to one person (``persons``) count
/// once: the person is in the zone from the first of their devices' check-ins to the last of their check-outs.
///
/// ``apply(_:)`` takes each zone event in the order they happened and answers the zone's change, if its count
/// changed: ``Change/Kind/occupied`` when it went from 0, ``Change/Kind/empty`` when it went to 0, else
/// ``Change/Kind/changed``. ``init(openVisits:persons:)`` starts from a session's open visits (after a restart, say).
///
/// Memory: one entry per open visit.
public struct ZoneOccupancy: Hashable, Sendable {
    /// A zone's count changed.
    public struct Change: Hashable, Sendable, Codable {
        /// How the count changed.
        public enum Kind: String, Hashable, Sendable, Codable {
            /// The zone was empty and now holds someone.
            case occupied
            /// The zone held someone and now holds nobody.
            case empty
            /// The zone still holds someone, and how many changed.
            case changed
        }

        /// The zone's id.
        public var zone: String
        /// When, seconds on the sightings' clock: the zone event's time.
        public var time: Double
        /// How the count changed.
        public var kind: Kind
        /// How many (persons, or devices of no person) are in the zone now.
        public var count: Int
        /// How many were in it before.
        public var previousCount: Int

        /// A change of `zone` at `time` from `previousCount` to `count`.
        public init(zone: String, time: Double, kind: Kind, count: Int, previousCount: Int) {
            self.zone = zone
            self.time = time
            self.kind = kind
            self.count = count
            self.previousCount = previousCount
        }
    }

    /// The person each device belongs to, by device id; a device not listed counts as itself.
    public var persons: [String: String]
    /// For each zone with someone in it: each member (a person's id, or a device's) and their devices in it.
    private var members: [String: [String: Set<String>]] = [:]

    /// Occupancy with nobody in any zone.
    public init(persons: [String: String] = [:]) {
        self.persons = persons
    }

    /// Occupancy as `openVisits` (a ``ZoneEngine/openVisits`` or a session's) say it is now.
    public init(openVisits: [ZoneVisit], persons: [String: String] = [:]) {
        self.persons = persons
        for visit in openVisits {
            members[visit.zone, default: [:]][member(of: visit.device), default: []].insert(visit.device)
        }
    }

    /// Who (persons, or devices of no person) is in `zone` now, sorted.
    public func members(of zone: String) -> [String] { (members[zone]?.keys).map { $0.sorted() } ?? [] }

    /// How many (persons, or devices of no person) are in `zone` now.
    public func count(of zone: String) -> Int { members[zone]?.count ?? 0 }

    /// The zones with someone in them, by id, with their counts.
    public var counts: [String: Int] { members.mapValues(\.count) }

    /// The person `device` belongs to, or the device itself.
    public func member(of device: String) -> String { persons[device] ?? device }

    /// Follows `event` (in time order); the zone's change when its count changed, else `nil` (a dwell, a check-in
    /// that opens no visit, a second device of a person already in, a check-out of a visit not followed).
    public mutating func apply(_ event: ZoneEvent) -> Change? {
        let before = count(of: event.zone)
        let member = member(of: event.device)
        switch event.kind {
        case .checkIn:
            guard event.willCheckOut != false else { return nil }
            members[event.zone, default: [:]][member, default: []].insert(event.device)
        case .checkOut:
            guard var devices = members[event.zone]?[member], devices.remove(event.device) != nil else { return nil }
            members[event.zone]?[member] = devices.isEmpty ? nil : devices
            if members[event.zone]?.isEmpty == true { members[event.zone] = nil }
        case .dwell:
            return nil
        }
        let after = count(of: event.zone)
        guard after != before else { return nil }
        let kind: Change.Kind = before == 0 ? .occupied : after == 0 ? .empty : .changed
        return Change(zone: event.zone, time: event.time, kind: kind, count: after, previousCount: before)
    }

    /// Takes `device` out of every zone (it was erased, or forgotten without check-outs), with the changes that makes,
    /// at `time`, in zone order.
    public mutating func remove(device: String, at time: Double) -> [Change] {
        let member = member(of: device)
        var changes: [Change] = []
        for zone in members.keys.sorted() {
            guard var devices = members[zone]?[member], devices.remove(device) != nil else { continue }
            let before = count(of: zone)
            members[zone]?[member] = devices.isEmpty ? nil : devices
            if members[zone]?.isEmpty == true { members[zone] = nil }
            let after = count(of: zone)
            if after != before {
                changes.append(
                    Change(
                        zone: zone, time: time, kind: after == 0 ? .empty : .changed, count: after,
                        previousCount: before))
            }
        }
        return changes
    }
}
