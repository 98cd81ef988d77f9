import IndoorGeofencing
import IndoorModel
import IndoorSession

/// The rooms of a venue's devices as an instance that does not run the venue sees them: one ``RoomHold`` per device,
/// fed the venue's stored fixes in the order they were committed, as the owner's session feeds its own.
///
/// A hold's answer depends only on the fixes it was given, so once a relay has seen a device's fixes for
/// ``RoomHold/Configuration/settleTime`` seconds (or from a fix deep inside a room) it answers what the owner
/// answers. A device without a fix for ``memory`` seconds of data time is forgotten, as the owner's session lets a
/// silent device go.
struct RelayedRooms {
    /// Seconds of data time after which a device without a fix is forgotten: the venue's session's device memory
    /// (`SessionConfiguration.deviceMemory`), so a relay holds no more devices than the owner does.
    let memory: Double

    /// The venue whose zones the holds answer with.
    let venue: Venue
    private let map: RoomMap
    private var holds: [String: RoomHold] = [:]
    private var latest = -Double.infinity
    private var lastPrune = -Double.infinity

    /// `nil` when the venue has no rooms (no zone with a polygon fence).
    init?(venue: Venue) {
        guard let map = RoomMap(zones: venue.zones) else { return nil }
        self.venue = venue
        self.map = map
        memory = SessionConfiguration(venue: venue).deviceMemory
    }

    /// How many devices' rooms are held.
    var count: Int { holds.count }

    /// Gives the hold of `fix`'s device the fix.
    /// - Returns: The device's room after it, in the API's form.
    mutating func update(with fix: Fix) -> DeviceRoom? {
        let answer = holds[fix.device, default: RoomHold()].update(
            point: fix.position.horizontal, floor: fix.floor, at: fix.time, in: map)
        latest = max(latest, fix.time)
        if latest >= lastPrune + min(memory, 60) {
            lastPrune = latest
            holds = holds.filter { $0.value.lastTime >= latest - memory }
        }
        return DeviceRoom(answer, zones: venue.zones)
    }

    /// The room `device`'s fixes so far hold, in the API's form; `nil` for a device without a fix held.
    func room(of device: String) -> DeviceRoom? {
        holds[device].flatMap { DeviceRoom($0.answer, zones: venue.zones) }
    }
}
