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
    /// For each zone with someone in it: when each member came in (their first device's check-in), seconds.
    private var since: [String: [String: Double]] = [:]

    /// Occupancy with nobody in any zone.
    public init(persons: [String: String] = [:]) {
        self.persons = persons
    }

    /// Occupancy as `openVisits` (a ``ZoneEngine/openVisits`` or a session's) say it is now.
    public init(openVisits: [ZoneVisit], persons: [String: String] = [:]) {
        self.persons = persons
        for visit in openVisits {
            let member = member(of: visit.device)
            members[visit.zone, default: [:]][member, default: []].insert(visit.device)
            since[visit.zone, default: [:]][member] = min(since[visit.zone]?[member] ?? visit.checkIn, visit.checkIn)
        }
    }

    /// This occupancy with the devices grouped by `persons` instead (the venue's persons changed): the same devices
    /// in the same zones, each person in since the first of their devices in it.
    public func regrouped(persons: [String: String]) -> ZoneOccupancy {
        var regrouped = ZoneOccupancy(persons: persons)
        for (zone, byMember) in members {
            for (member, devices) in byMember {
                let entered = since[zone]?[member]
                for device in devices {
                    let owner = regrouped.member(of: device)
                    regrouped.members[zone, default: [:]][owner, default: []].insert(device)
                    if let entered {
                        regrouped.since[zone, default: [:]][owner] = min(
                            regrouped.since[zone]?[owner] ?? entered, entered)
                    }
                }
            }
        }
        return regrouped
    }

    /// Who (persons, or devices of no person) is in `zone` now, sorted.
    public func members(of zone: String) -> [String] { (members[zone]?.keys).map { $0.sorted() } ?? [] }

    /// The zones `member` (a person's id, or a device's of no person) is in now.
    public func zones(of member: String) -> Set<String> {
        Set(members.compactMap { zone, byMember in byMember[member] == nil ? nil : zone })
    }

    /// How many (persons, or devices of no person) are in `zone` now.
    public func count(of zone: String) -> Int { members[zone]?.count ?? 0 }

    /// The zones with someone in them, by id, with their counts.
    public var counts: [String: Int] { members.mapValues(\.count) }

    /// The person `device` belongs to, or the device itself.
    public func member(of device: String) -> String { persons[device] ?? device }

    /// Follows `event` (in time order); the zone's change when its count changed, else `nil` (a dwell, a check-in
    /// that opens no visit, a second device of a person already in, a check-out of a visit not followed).
    public mutating func apply(_ event: ZoneEvent) -> Change? { follow(event).change }

    /// Follows `event` (in time order): the zone's change when its count changed (as ``apply(_:)``), and, for a device
    /// of a person (``persons``), the person's check-in when it is the first of their devices in the zone or their
    /// check-out when it is the last to leave.
    public mutating func follow(_ event: ZoneEvent) -> (change: Change?, person: PersonPresence?) {
        let before = count(of: event.zone)
        let member = member(of: event.device)
        var presence: PersonPresence?
        switch event.kind {
        case .checkIn:
            guard event.willCheckOut != false else { return (nil, nil) }
            let first = members[event.zone]?[member] == nil
            members[event.zone, default: [:]][member, default: []].insert(event.device)
            if first {
                since[event.zone, default: [:]][member] = event.time
                if persons[event.device] != nil {
                    presence = PersonPresence(
                        kind: .checkIn, person: member, zone: event.zone, time: event.time, since: event.time,
                        device: event.device)
                }
            }
        case .checkOut:
            guard var devices = members[event.zone]?[member], devices.remove(event.device) != nil else {
                return (nil, nil)
            }
            if devices.isEmpty, persons[event.device] != nil {
                presence = PersonPresence(
                    kind: .checkOut, person: member, zone: event.zone, time: event.time,
                    since: since[event.zone]?[member] ?? event.checkIn ?? event.time, device: event.device)
            }
            remove(member: member, devices: devices, zone: event.zone)
        case .dwell:
            return (nil, nil)
        }
        let after = count(of: event.zone)
        guard after != before else { return (nil, presence) }
        let kind: Change.Kind = before == 0 ? .occupied : after == 0 ? .empty : .changed
        return (Change(zone: event.zone, time: event.time, kind: kind, count: after, previousCount: before), presence)
    }

    /// Leaves `devices` of `member` in `zone`, or takes the member out when none are left.
    private mutating func remove(member: String, devices: Set<String>, zone: String) {
        members[zone]?[member] = devices.isEmpty ? nil : devices
        if devices.isEmpty { since[zone]?[member] = nil }
        if members[zone]?.isEmpty == true {
            members[zone] = nil
            since[zone] = nil
        }
    }

    /// Takes `device` out of every zone (it was erased, or forgotten without check-outs), with the changes that makes,
    /// at `time`, in zone order.
    public mutating func remove(device: String, at time: Double) -> [Change] {
        let member = member(of: device)
        var changes: [Change] = []
        for zone in members.keys.sorted() {
            guard var devices = members[zone]?[member], devices.remove(device) != nil else { continue }
            let before = count(of: zone)
            remove(member: member, devices: devices, zone: zone)
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

/// A person came into a zone (the first of their devices checked in) or left it (the last checked out), as
/// ``ZoneOccupancy/follow(_:)`` finds it.
public struct PersonPresence: Hashable, Sendable {
    /// In or out.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The first of the person's devices checked in.
        case checkIn
        /// The last of the person's devices in the zone checked out.
        case checkOut
    }

    /// In or out.
    public var kind: Kind
    /// The person's id.
    public var person: String
    /// The zone's id.
    public var zone: String
    /// When, seconds on the sightings' clock: the device's zone event's time.
    public var time: Double
    /// When the person came into the zone, seconds: ``time`` for a check-in; for a check-out, so that the person's
    /// dwell is `time - since` (from their first device in to their last out).
    public var since: Double
    /// The device whose zone event it was.
    public var device: String

    /// The person's dwell in the zone, seconds: `nil` for a check-in.
    public var dwell: Double? { kind == .checkOut ? time - since : nil }

    /// A person's check-in or check-out.
    public init(kind: Kind, person: String, zone: String, time: Double, since: Double, device: String) {
        self.kind = kind
        self.person = person
        self.zone = zone
        self.time = time
        self.since = since
        self.device = device
    }
}
