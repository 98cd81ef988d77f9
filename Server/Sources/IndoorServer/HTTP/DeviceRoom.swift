import IndoorGeofencing
import IndoorModel

/// The room a device is in as its venue's `LocationSession` holds it (``IndoorGeofencing/RoomHold``), as the API
/// writes it: `{"state": "room", "zone": "room-0-s1", "zoneName": "Room S1"}`, `{"state": "noRoom"}` or
/// `{"state": "unknown"}`.
///
/// The server only translates the session's answer (`LocationSession.room(of:)`): a zone index becomes the zone's
/// id and name. The state is a field of its own, so a zone whose id happens to be `unknown` is never mistaken
/// for the unknown answer.
public struct DeviceRoom: Hashable, Sendable, Encodable {
    /// What the session answers for the device.
    public enum State: String, Hashable, Sendable, Encodable, CaseIterable {
        /// In the room ``DeviceRoom/zone``.
        case room
        /// In no room (outside every polygon fence of the venue's zones).
        case noRoom
        /// Its fixes left the room held and have not settled in another.
        case unknown
    }

    /// What the session answers.
    public var state: State
    /// The room's zone id, with ``State/room`` only.
    public var zone: String?
    /// The room's zone name, with ``State/room`` only.
    public var zoneName: String?

    /// The API's form of `answer`, with zone indices into `zones` (the venue's zones, as the session's).
    ///
    /// `nil` when `answer` names a zone index `zones` does not have (the session and the venue disagree, which a
    /// session made from the venue never does).
    public init?(_ answer: RoomHold.Answer, zones: [Zone]) {
        switch answer {
        case .room(let index):
            guard zones.indices.contains(index) else { return nil }
            state = .room
            zone = zones[index].id
            zoneName = zones[index].name
        case .noRoom:
            state = .noRoom
        case .unknown:
            state = .unknown
        }
    }
}
