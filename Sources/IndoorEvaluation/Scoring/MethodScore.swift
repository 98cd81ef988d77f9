import IndoorModel

/// How one positioning method did on one dataset: the error of every truth row, and its summary.
public struct MethodScore: Hashable, Sendable {
    /// The method's name, as in `indoor evaluate --method`.
    public var method: String
    /// The horizontal error of each located truth row, metres: device by device (ids in sorted order), each
    /// device's rows in time order. The one part of a score that grows with the recording (8 bytes a located row).
    public var errors: [Double]
    /// Truth rows without a position.
    public var misses: Int
    /// Located rows with a truth floor whose floor was right.
    var floorHits: Int
    /// Located rows whose truth has a floor.
    var floorRows: Int
    /// Located rows whose error is within the fix's accuracy radius.
    var coveredRows: Int
    /// Times a device's located floor changed from one located row to its next.
    var floorFlips: Int
    /// Times a device's truth floor changed from one located row to its next: the flips a perfect method makes.
    var truthFloorFlips: Int
    /// Seconds from each device's first located row to its last, summed over devices.
    var trackedSeconds: Double
    /// The room counts when the venue has rooms (zones with polygon fences), else `nil`.
    ///
    /// A row's room is the first zone, in venue order, with a polygon fence that holds the point (truth position
    /// or fix position, boundary included) on the floor (truth floor or fix floor; a missing floor on either side
    /// matches).
    public var rooms: RoomCounts?
    /// What the method learned from the survey beyond its map, in a sentence (``MethodCatalog/learnedNote(_:)``);
    /// `nil` when nothing. Not part of the score's table or JSON.
    public var learned: String?
    /// The estimator the default chose on the survey (``MethodCatalog/chosenEstimator(_:)``: `particle-filter`,
    /// `knn`, or a mix such as `particle-filter 0.75 + knn 0.25`); `nil` for other methods and without a survey.
    public var estimator: String?
    /// The chosen estimator's median error on the survey's held-out walks, metres; `nil` when nothing was chosen on
    /// them.
    public var validatedMedian: Double?

    /// A score: `errors` in metres, one per located truth row.
    init(
        method: String, errors: [Double], misses: Int, floorHits: Int = 0, floorRows: Int = 0, coveredRows: Int = 0,
        floorFlips: Int = 0, trackedSeconds: Double = 0, rooms: RoomCounts? = nil, truthFloorFlips: Int = 0
    ) {
        self.method = method
        self.errors = errors
        self.misses = misses
        self.floorHits = floorHits
        self.floorRows = floorRows
        self.coveredRows = coveredRows
        self.floorFlips = floorFlips
        self.truthFloorFlips = truthFloorFlips
        self.trackedSeconds = trackedSeconds
        self.rooms = rooms
    }

    /// The share (0…1) of located rows whose truth lies within the fix's accuracy radius: how honest the radius
    /// is. `nil` without located rows.
    var radiusCoverage: Double? {
        errors.isEmpty ? nil : Double(coveredRows) / Double(errors.count)
    }

    /// Floor changes per device-hour of located rows; `nil` when no device was located twice.
    var floorFlipsPerHour: Double? {
        trackedSeconds > 0 ? Double(floorFlips) / (trackedSeconds / 3600) : nil
    }

    /// Truth floor changes per device-hour over the same rows as ``floorFlipsPerHour``: the flips of a method that
    /// is never on the wrong floor. `nil` when no device was located twice.
    var truthFloorFlipsPerHour: Double? {
        trackedSeconds > 0 ? Double(truthFloorFlips) / (trackedSeconds / 3600) : nil
    }

    /// The share (0…1) of located rows whose truth lies in a room where the fix lies in another room, or in none;
    /// `nil` without rooms or without such rows.
    var wrongRoomRate: Double? {
        guard let rooms, rooms.rows > 0 else { return nil }
        return Double(rooms.wrongRows) / Double(rooms.rows)
    }

    /// Fix room changes (into or out of no room included) per device-hour of located rows; `nil` without rooms or
    /// when no device was located twice.
    var roomChangesPerHour: Double? {
        guard let rooms, trackedSeconds > 0 else { return nil }
        return Double(rooms.changes) / (trackedSeconds / 3600)
    }

    /// Truth room changes per device-hour over the same rows as ``roomChangesPerHour``: what a method that is
    /// never in the wrong room would score.
    var truthRoomChangesPerHour: Double? {
        guard let rooms, trackedSeconds > 0 else { return nil }
        return Double(rooms.truthChanges) / (trackedSeconds / 3600)
    }

    /// The share (0…1) of located rows whose truth lies in a room where the device's ``RoomHold`` answered another
    /// room or no room (an unknown answer is not counted here but in ``unknownRoomRate``); `nil` without rooms or
    /// without such rows.
    var heldWrongRoomRate: Double? {
        guard let rooms, rooms.rows > 0 else { return nil }
        return Double(rooms.heldWrongRows) / Double(rooms.rows)
    }

    /// The share (0…1) of located rows whose truth lies in a room where the device's ``RoomHold`` answered unknown;
    /// `nil` without rooms or without such rows.
    var unknownRoomRate: Double? {
        guard let rooms, rooms.rows > 0 else { return nil }
        return Double(rooms.unknownRows) / Double(rooms.rows)
    }

    /// Changes of the ``RoomHold`` answer from one known room (or no room) to another per device-hour; `nil` without
    /// rooms or when no device was located twice.
    var heldRoomChangesPerHour: Double? {
        guard let rooms, trackedSeconds > 0 else { return nil }
        return Double(rooms.heldChanges) / (trackedSeconds / 3600)
    }

    /// Count, misses, mean, median, p90, max and floor accuracy.
    public var summary: ErrorSummary {
        ErrorSummary(errors: errors, misses: misses, floorHits: floorHits, floorRows: floorRows)
    }
}
