import IndoorGeofencing
import IndoorModel

/// A visit still open when a replay's recording ends, as a JSON Lines record.
///
/// `{"type":"zone","event":"open","t":22,"zone":"east","zoneName":"East room","device":"p","trigger":"fence",
/// "checkIn":10,"dwell":12,"data":{…},"zoneEnabled":true}`: `t` is the last data time of the recording and
/// `dwell = t − checkIn` seconds, the dwell so far.
struct ReplayOpenVisit: Hashable, Sendable, Encodable {
    var time: Double
    var zone: String
    var zoneName: String
    var device: String
    var trigger: ZoneEvent.Trigger
    /// The fence, beacon (and its proximity at check-in) or geoline that opened the visit, as on its check-in.
    var fence: String?
    var beacon: String?
    var proximity: Proximity?
    var geoline: String?
    /// Seconds.
    var checkIn: Double
    /// Seconds from check-in to ``time``.
    var dwell: Double
    var data: [String: String]
    var zoneEnabled: Bool

    /// `visit` of a zone among `zones`, open at `time` seconds.
    init(_ visit: ZoneVisit, zones: [Zone], at time: Double) {
        let zone = zones.first { $0.id == visit.zone }
        self.time = time
        self.zone = visit.zone
        zoneName = zone?.name ?? visit.zone
        device = visit.device
        trigger = visit.trigger
        fence = visit.fence
        beacon = visit.beacon
        proximity = visit.proximity
        geoline = visit.geoline
        checkIn = visit.checkIn
        dwell = max(0, time - visit.checkIn)
        data = zone?.data ?? [:]
        zoneEnabled = zone?.isEnabled ?? true
    }

    enum CodingKeys: String, CodingKey {
        case event
        case time = "t"
        case zone, zoneName, device, trigger, fence, beacon, proximity, geoline, checkIn, dwell, data, zoneEnabled
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("open", forKey: .event)
        try container.encode(time, forKey: .time)
        try container.encode(zone, forKey: .zone)
        try container.encode(zoneName, forKey: .zoneName)
        try container.encode(device, forKey: .device)
        try container.encode(trigger, forKey: .trigger)
        try container.encodeIfPresent(fence, forKey: .fence)
        try container.encodeIfPresent(beacon, forKey: .beacon)
        try container.encodeIfPresent(proximity, forKey: .proximity)
        try container.encodeIfPresent(geoline, forKey: .geoline)
        try container.encode(checkIn, forKey: .checkIn)
        try container.encode(dwell, forKey: .dwell)
        try container.encode(data, forKey: .data)
        try container.encode(zoneEnabled, forKey: .zoneEnabled)
    }
}
