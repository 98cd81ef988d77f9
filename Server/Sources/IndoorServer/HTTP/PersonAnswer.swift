import IndoorModel

/// A person as `GET /v1/venues/{venue}/persons` and `…/persons/{person}` write it, and as the MQTT topic
/// `<root>/<venue>/persons/<person>` carries it: the person's id, name and devices, where they are (`location`: the
/// fix chosen among their devices', with the room held, ``IndoorGeofencing/PersonLocator``), which devices' fixes
/// counted (`locatedBy`), and the zones they are in now. `location` is `null` and `locatedBy` empty when none of the
/// person's devices is held now, or the venue runs on no instance.
struct PersonAnswer: Encodable {
    var id: String
    var name: String
    var devices: [String]
    var location: DeviceFix?
    var locatedBy: [String]
    var zones: [String]

    /// `person` of a venue, where `update` says they are (`nil`: nowhere known).
    init(_ person: Person, update: PersonUpdate?) {
        id = person.id
        name = person.name
        devices = person.devices
        location = update?.location.map { DeviceFix(fix: $0.fix, room: update?.room) }
        locatedBy = update?.location?.devices ?? []
        zones = update?.zones ?? []
    }

    /// A person as `update` says they are.
    init(_ update: PersonUpdate) {
        id = update.person
        name = update.name
        devices = update.devices
        location = update.location.map { DeviceFix(fix: $0.fix, room: update.room) }
        locatedBy = update.location?.devices ?? []
        zones = update.zones
    }

    enum CodingKeys: String, CodingKey {
        case id, name, devices, location, locatedBy, zones
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(devices, forKey: .devices)
        try container.encode(location, forKey: .location)
        try container.encode(locatedBy, forKey: .locatedBy)
        try container.encode(zones, forKey: .zones)
    }
}
