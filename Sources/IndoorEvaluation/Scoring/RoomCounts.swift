/// What a ``MethodScore`` counts about rooms when the venue has them (zones with polygon fences).
///
/// A row's room is the zone whose fence holds the point on the row's floor (see ``MethodScore/rooms``); "no
/// room" is a room of its own for the changes.
public struct RoomCounts: Hashable, Sendable {
    /// Located rows whose truth lies in a room.
    public var rows: Int
    /// Of ``rows``, those whose fix lies in another room, or in none.
    var wrongRows: Int
    /// Times a device's fix room changed from one located row to its next (into or out of no room included).
    public var changes: Int
    /// Times a device's truth room changed from one located row to its next: the changes a perfect method makes.
    var truthChanges: Int
    /// Of ``rows``, those where the device's ``RoomHold`` answered another room, or no room.
    var heldWrongRows: Int
    /// Of ``rows``, those where the device's ``RoomHold`` answered unknown.
    var unknownRows: Int
    /// Times the ``RoomHold`` answer changed from one known answer (a room or no room) to another.
    var heldChanges: Int

    /// Counts of rooms; all zero by default.
    init(
        rows: Int = 0, wrongRows: Int = 0, changes: Int = 0, truthChanges: Int = 0, heldWrongRows: Int = 0,
        unknownRows: Int = 0, heldChanges: Int = 0
    ) {
        self.rows = rows
        self.wrongRows = wrongRows
        self.changes = changes
        self.truthChanges = truthChanges
        self.heldWrongRows = heldWrongRows
        self.unknownRows = unknownRows
        self.heldChanges = heldChanges
    }
}
