import IndoorGateways
import IndoorModel

/// Home Assistant's ids and topics for one device of one venue, as MQTT discovery wants them.
///
/// The object id is `indoor_<venue>__<device>`, each id a ``IndoorGateways/TopicLevel`` (letters, digits and `-`
/// stay, every other byte is `_` and two upper-case hex digits): it matches Home Assistant's `[a-zA-Z0-9_-]+`, and
/// since an escaped id never holds `__` nor ends with `_` (an escape is `_` and two hex digits), the first `__` after
/// `indoor_` splits it back into the two ids: two devices (`tab:1`, `tab_1`, or one id in two venues)
/// never share an object id or a unique id. A person's (``isPerson``) is `indoor_<venue>__person__<person>`: what
/// follows the first `__` holds `__`, which no escaped device id does, so a person never shares one with a device.
struct HomeAssistantDevice: Hashable, Sendable {
    var venue: String
    /// The device's id, or the person's (``isPerson``).
    var device: String
    /// Whether this is a person's tracker (``IndoorModel/Person``: the freshest confident fix of their devices), not
    /// one device's.
    var isPerson = false

    /// `indoor_<venue>__<device>` (a person's: `indoor_<venue>__person__<person>`): the device tracker's object id and
    /// unique id, and the Home Assistant device's identifier.
    var objectID: String {
        let middle = isPerson ? "person__" : ""
        return "indoor_\(TopicLevel.escape(venue))__\(middle)\(TopicLevel.escape(device))"
    }

    /// The room sensor's object id and unique id: ``objectID`` and `_room`.
    var roomObjectID: String { "\(objectID)_room" }

    /// Where the device tracker's discovery config is published.
    func trackerConfigTopic(prefix: String) -> String {
        "\(prefix)/device_tracker/\(objectID)/config"
    }

    /// Where the room sensor's discovery config is published.
    func roomConfigTopic(prefix: String) -> String {
        "\(prefix)/sensor/\(roomObjectID)/config"
    }

    /// The config topic of the tracker an earlier release made (`indoor_<venue>_<device>`, one `_`), emptied when the
    /// device is announced so that Home Assistant drops the old entity; `nil` when the device's escaped id starts
    /// with `_`, where that topic could be another device's config of today (`indoor_v_` + `_2Ex` is
    /// `indoor_v__2Ex`, the device `2Ex`).
    func legacyConfigTopic(prefix: String) -> String? {
        let device = TopicLevel.escape(device)
        guard !isPerson, !device.hasPrefix("_") else { return nil }
        return "\(prefix)/device_tracker/indoor_\(TopicLevel.escape(venue))_\(device)/config"
    }

    /// `<root>/<venue>/devices/<device>` (a person's: `<root>/<venue>/persons/<person>`): the fix's (the person's)
    /// topic, and the base of the entities' state topics.
    func base(root: String) -> String {
        "\(root)/\(TopicLevel.escape(venue))/\(isPerson ? "persons" : "devices")/\(TopicLevel.escape(device))"
    }
}

/// The Home Assistant device every entity of one tracked device belongs to (named by the device's id).
struct HomeAssistantDeviceBlock: Encodable, Hashable {
    var identifiers: [String]
    var name: String
    var manufacturer = "Indoor"
    var model = "Indoor location"

    enum CodingKeys: String, CodingKey {
        case identifiers, name, manufacturer, model
    }
}

/// Who made a discovery config (Home Assistant logs it).
struct HomeAssistantOrigin: Encodable, Hashable {
    var name = "Indoor"
}

/// A Home Assistant `device_tracker` discovery config: `name` is null, so the entity takes its device's name alone
/// (`device_tracker.<device>`, not the name twice).
struct TrackerDiscovery: Encodable {
    var uniqueID: String
    var stateTopic: String
    var attributesTopic: String
    var sourceType = "bluetooth_le"
    var payloadHome = "home"
    var payloadNotHome = "not_home"
    var device: HomeAssistantDeviceBlock
    var origin = HomeAssistantOrigin()

    enum CodingKeys: String, CodingKey {
        case uniqueID = "unique_id"
        case name
        case stateTopic = "state_topic"
        case attributesTopic = "json_attributes_topic"
        case sourceType = "source_type"
        case payloadHome = "payload_home"
        case payloadNotHome = "payload_not_home"
        case device
        case origin
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uniqueID, forKey: .uniqueID)
        try container.encodeNil(forKey: .name)
        try container.encode(stateTopic, forKey: .stateTopic)
        try container.encode(attributesTopic, forKey: .attributesTopic)
        try container.encode(sourceType, forKey: .sourceType)
        try container.encode(payloadHome, forKey: .payloadHome)
        try container.encode(payloadNotHome, forKey: .payloadNotHome)
        try container.encode(device, forKey: .device)
        try container.encode(origin, forKey: .origin)
    }
}

/// A Home Assistant `sensor` discovery config for a device's room: `Room` under the device
/// (`sensor.<device>_room`), its state the room's name or ``RoomSensor/none``.
struct RoomSensorDiscovery: Encodable {
    var uniqueID: String
    var name = "Room"
    var stateTopic: String
    var icon = "mdi:map-marker"
    var device: HomeAssistantDeviceBlock
    var origin = HomeAssistantOrigin()

    enum CodingKeys: String, CodingKey {
        case uniqueID = "unique_id"
        case name
        case stateTopic = "state_topic"
        case icon
        case device
        case origin
    }
}

/// The room sensor's states.
enum RoomSensor {
    /// The state when the device is in no room: in the venue outside every room, or lost.
    static let none = "none"
}

/// What Home Assistant shows beside a device tracker's state. `floor` and `room` are always there (null when the fix
/// has none); `latitude`, `longitude` and `gps_accuracy` (with the venue's anchor) place the tracker on Home
/// Assistant's map. A lost device's attributes (``lost(venue:)``) have no position at all, and `in_zones: []`, which
/// makes a recent Home Assistant forget the coordinates it had (an older one keeps none without `latitude`).
struct TrackerAttributes: Encodable, Hashable {
    var x: Double?
    var y: Double?
    var floor: Int?
    var latitude: Double?
    var longitude: Double?
    var gpsAccuracy: Double?
    var confidence: Double?
    var venue: String
    var room: String?
    /// `[]` for a lost device, else absent.
    var inZones: [String]?

    init(fix: Fix, venue: String, room: String?) {
        x = (fix.position.x * 1000).rounded() / 1000
        y = (fix.position.y * 1000).rounded() / 1000
        floor = fix.floor
        latitude = fix.coordinate?.latitude
        longitude = fix.coordinate?.longitude
        gpsAccuracy = (fix.accuracy * 1000).rounded() / 1000
        confidence = (fix.confidence * 1000).rounded() / 1000
        self.venue = venue
        self.room = room
    }

    private init(venue: String) {
        self.venue = venue
        inZones = []
    }

    /// A lost device's attributes: no position, no floor, no room.
    static func lost(venue: String) -> TrackerAttributes { TrackerAttributes(venue: venue) }

    /// Whether these are a lost device's.
    var isLost: Bool { inZones != nil }

    /// Whether `self`, a fix's attributes, differ enough from `last`, those published before, `seconds` earlier, to
    /// be published: at once when nothing was, when the device was lost, or when its floor or room changed; else when
    /// the position moved at least ``HomeAssistantThrottle/move`` metres and at least
    /// ``HomeAssistantThrottle/interval`` seconds of data time passed since.
    func worthPublishing(after last: TrackerAttributes?, seconds: Double) -> Bool {
        guard let last, !last.isLost, last.floor == floor, last.room == room, last.venue == venue else { return true }
        guard let x, let y, let lastX = last.x, let lastY = last.y else { return true }
        let moved = ((x - lastX) * (x - lastX) + (y - lastY) * (y - lastY)).squareRoot()
        return moved >= HomeAssistantThrottle.move && seconds >= HomeAssistantThrottle.interval
    }

    enum CodingKeys: String, CodingKey {
        case x, y, floor, latitude, longitude, confidence, venue, room
        case gpsAccuracy = "gps_accuracy"
        case inZones = "in_zones"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(venue, forKey: .venue)
        try container.encode(floor, forKey: .floor)
        try container.encode(room, forKey: .room)
        if let inZones {
            try container.encode(inZones, forKey: .inZones)
            return
        }
        try container.encode(x, forKey: .x)
        try container.encode(y, forKey: .y)
        try container.encodeIfPresent(latitude, forKey: .latitude)
        try container.encodeIfPresent(longitude, forKey: .longitude)
        try container.encodeIfPresent(gpsAccuracy, forKey: .gpsAccuracy)
        try container.encode(confidence, forKey: .confidence)
    }
}

/// When a tracker's attributes are published again for a mere move (a change of floor or room, or the device lost,
/// is published at once): so that Home Assistant's recorder gets a row when the device moved, not one a second.
enum HomeAssistantThrottle {
    /// Metres the position must have moved since the attributes last published.
    static let move = 1.0
    /// Seconds of data time (the fixes' times) since the attributes last published.
    static let interval = 5.0
}
