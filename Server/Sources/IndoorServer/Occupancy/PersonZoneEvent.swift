import IndoorGeofencing

/// A person came into a zone or left it: the first of their devices checked in, or the last of them checked out
/// (``IndoorGeofencing/ZoneOccupancy/follow(_:)``). Stored and streamed as event `person`, right after the device's
/// zone event that caused it, in the same transaction; delivered to webhooks as `personCheckIn` and `personCheckOut`.
///
/// It names the person (enrolled by the operator in the venue's `persons`) and the device whose zone event it was, so
/// an erasure of that device takes it too.
public struct PersonZoneEvent: Hashable, Sendable, Codable {
    /// `personCheckIn` or `personCheckOut`.
    public enum Kind: String, Hashable, Sendable, Codable {
        case personCheckIn, personCheckOut
    }

    /// In or out.
    public var kind: Kind
    /// When, seconds of the venue's data time: the device's zone event's time.
    public var time: Double
    /// The venue's id.
    public var venue: String
    /// The person's id.
    public var person: String
    /// The person's name.
    public var personName: String
    /// The zone's id.
    public var zone: String
    /// The zone's name.
    public var zoneName: String
    /// The device whose check-in (the person's first in) or check-out (their last out) it was.
    public var device: String
    /// On a check-out: when the person came in (their first device's check-in), seconds.
    public var checkIn: Double?
    /// On a check-out: how long the person was in the zone, seconds (from their first device in to their last out).
    public var dwell: Double?

    /// The event of `presence` in `venue`, the person named `personName` and the zone named `zoneName`.
    public init(_ presence: PersonPresence, venue: String, personName: String, zoneName: String) {
        kind = presence.kind == .checkIn ? .personCheckIn : .personCheckOut
        time = presence.time
        self.venue = venue
        person = presence.person
        self.personName = personName
        zone = presence.zone
        self.zoneName = zoneName
        device = presence.device
        checkIn = presence.kind == .checkOut ? presence.since : nil
        dwell = presence.dwell
    }

    enum CodingKeys: String, CodingKey {
        case kind = "event"
        case time = "t"
        case venue, person, personName, zone, zoneName, device, checkIn, dwell
    }
}
