import IndoorGeofencing

/// A zone event as the MQTT publisher sends it on `<root>/<venue>/events`: the zone event's own keys (docs/FORMATS.md),
/// and beside them the device's held `room` once the event's batch or tick went through the session (``LiveEvent/room``;
/// left out when the session holds none, or the venue has no rooms).
struct DeviceZoneEvent: Encodable {
    var zone: ZoneEvent
    var room: DeviceRoom?

    enum CodingKeys: String, CodingKey {
        case room
    }

    /// The zone event's own keys, then `room` beside them (left out when `nil`).
    func encode(to encoder: any Encoder) throws {
        try zone.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(room, forKey: .room)
    }
}
