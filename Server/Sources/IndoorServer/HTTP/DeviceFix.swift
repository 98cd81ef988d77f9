import IndoorModel

/// A device's fix as `GET /v1/venues/{venue}/devices` and `…/devices/{device}` write it: the fix's fields, and
/// `room` (``DeviceRoom``) when the venue's session holds a room for the device.
struct DeviceFix: Encodable {
    var fix: Fix
    var room: DeviceRoom?

    enum CodingKeys: String, CodingKey {
        case room
    }

    /// The fix's own keys, then `room` beside them (left out when `nil`).
    func encode(to encoder: any Encoder) throws {
        try fix.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(room, forKey: .room)
    }
}
