import IndoorGateways

/// Home Assistant's ids and topics for one zone of one venue: a `binary_sensor` (device class `occupancy`, on while
/// anyone is in the zone) and a `sensor` (how many are in it, state class `measurement`), both under the Home
/// Assistant device of the venue (``venueDevice(name:)``), both reading the zone's retained topic
/// `<root>/<venue>/zones/<zone>` (``topic(root:)``, JSON `{"count", "occupied", …}`).
///
/// Object ids: `indoor_<venue>__zone__<zone>_occupancy` and `…_count`, each id a ``IndoorGateways/TopicLevel``
/// (letters, digits and `-` stay, every other byte is `_` and two upper-case hex digits), so they match Home
/// Assistant's `[a-zA-Z0-9_-]+`. An escaped id never holds `__`, so a zone's object ids (two `__`) are never a
/// device's (`indoor_<venue>__<device>`, one), and `_occupancy` and `_count` can end no escaped id (`_oc`, `_co` are
/// no escape): two zones never share an object id.
struct HomeAssistantZone: Hashable, Sendable {
    var venue: String
    var zone: String

    /// `indoor_<venue>__zone__<zone>`: what both entities' object ids start with.
    var baseID: String { "indoor_\(TopicLevel.escape(venue))__zone__\(TopicLevel.escape(zone))" }

    /// The occupancy `binary_sensor`'s object id and unique id.
    var occupancyObjectID: String { "\(baseID)_occupancy" }

    /// The count `sensor`'s object id and unique id.
    var countObjectID: String { "\(baseID)_count" }

    /// Where the occupancy `binary_sensor`'s discovery config is published.
    func occupancyConfigTopic(prefix: String) -> String { "\(prefix)/binary_sensor/\(occupancyObjectID)/config" }

    /// Where the count `sensor`'s discovery config is published.
    func countConfigTopic(prefix: String) -> String { "\(prefix)/sensor/\(countObjectID)/config" }

    /// `<root>/<venue>/zones/<zone>`: the zone's retained state.
    func topic(root: String) -> String { "\(root)/\(TopicLevel.escape(venue))/zones/\(TopicLevel.escape(zone))" }

    /// The Home Assistant device of the venue, named `name` (the venue's name), identified by `indoor_<venue>`
    /// (never a tracked device's identifier, which holds `__`).
    func venueDevice(name: String) -> HomeAssistantDeviceBlock {
        HomeAssistantDeviceBlock(
            identifiers: ["indoor_\(TopicLevel.escape(venue))"], name: name, model: "Indoor venue")
    }
}

/// A zone's retained state on `<root>/<venue>/zones/<zone>`: how many are in it, whether anyone is, its name, and
/// the data time of the change (seconds; absent when it was published from a venue's state, not an event).
struct ZoneStatePayload: Encodable, Hashable {
    var count: Int
    var occupied: Bool
    var zoneName: String
    var time: Double?

    enum CodingKeys: String, CodingKey {
        case count, occupied, zoneName
        case time = "t"
    }
}

/// A Home Assistant `binary_sensor` discovery config for a zone's occupancy: device class `occupancy`, `ON` while
/// the zone's state says `occupied`.
struct ZoneOccupancyDiscovery: Encodable {
    var uniqueID: String
    var name: String
    var stateTopic: String
    var valueTemplate = "{{ 'ON' if value_json.occupied else 'OFF' }}"
    var payloadOn = "ON"
    var payloadOff = "OFF"
    var deviceClass = "occupancy"
    var device: HomeAssistantDeviceBlock
    var origin = HomeAssistantOrigin()

    enum CodingKeys: String, CodingKey {
        case uniqueID = "unique_id"
        case name
        case stateTopic = "state_topic"
        case valueTemplate = "value_template"
        case payloadOn = "payload_on"
        case payloadOff = "payload_off"
        case deviceClass = "device_class"
        case device, origin
    }
}

/// A Home Assistant `sensor` discovery config for how many are in a zone: state class `measurement`, so Home
/// Assistant keeps its statistics.
struct ZoneCountDiscovery: Encodable {
    var uniqueID: String
    var name: String
    var stateTopic: String
    var valueTemplate = "{{ value_json.count }}"
    var stateClass = "measurement"
    var icon = "mdi:account-group"
    var device: HomeAssistantDeviceBlock
    var origin = HomeAssistantOrigin()

    enum CodingKeys: String, CodingKey {
        case uniqueID = "unique_id"
        case name
        case stateTopic = "state_topic"
        case valueTemplate = "value_template"
        case stateClass = "state_class"
        case icon, device, origin
    }
}
