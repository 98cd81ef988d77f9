import IndoorGeofencing
import IndoorModel
import IndoorPositioning

/// One method's ``MethodScore`` being counted, truth row by truth row, with the little each device needs: its
/// errors, its last located floor and rooms and its first and last located times.
///
/// Rows may come device by device (``Evaluator/score(_:on:name:zones:progress:answered:)``) or all devices merged by
/// time (``Evaluator/score(_:sightings:truth:zones:limit:observe:answered:progress:)``): ``score`` is the same either
/// way, since it lists the errors device by device and sums the tracked time in that order.
struct MethodTally {
    /// What one device has added up so far.
    private struct Device {
        /// The horizontal error of each located row of the device, metres, in the order they were recorded.
        var errors: [Double] = []
        var lastFloor: Int?
        /// The rooms (zone indices) of the fix and of the truth at the device's last located row.
        var fixRoom: Int?
        var truthRoom: Int?
        /// The room the device's ``RoomHold`` answers, and its last answer other than unknown.
        var hold = RoomHold()
        var heldRoom: RoomHold.Answer?
        /// The truth floor at the device's last located row.
        var lastTruthFloor: Int?
        /// The time of the device's first and last located rows, seconds.
        var firstLocated: Double?
        var lastLocated: Double?
    }

    /// Everything but the errors and the tracked time (counted in ``devices`` until ``score`` is asked for).
    private var counts: MethodScore
    private var devices: [String: Device] = [:]
    private let rooms: RoomMap?

    /// A tally of nothing yet, reported as `method`; it counts rooms when `rooms` is given.
    init(method: String, rooms: RoomMap? = nil) {
        counts = MethodScore(method: method, errors: [], misses: 0, rooms: rooms.map { _ in RoomCounts() })
        self.rooms = rooms
    }

    /// The horizontal (x, y) distance in metres between `fix` and the truth row `row`.
    static func error(of fix: Fix, for row: TruthPoint) -> Double {
        fix.position.horizontal.distance(to: row.point)
    }

    /// Whether `fix`'s accuracy radius holds the truth at `error` metres from it.
    static func isCovered(_ fix: Fix, error: Double) -> Bool { error <= fix.accuracy }

    /// Counts the answer `result` of the engine to the truth row `row` (the position of `row.device` at `row.time`).
    ///
    /// A failure, or a fix at a non-finite error, is a miss. A located row's error is the horizontal (x, y)
    /// distance in metres; it is covered when within the fix's accuracy radius; where the truth has a floor, the
    /// fix's floor is right or wrong; the device's floor flips when a located row's floor differs from the
    /// previous located row's (and the truth's floor flips when its floor differs from the previous located row's
    /// truth floor). With rooms, the truth's and the fix's rooms are compared, and each one's change from the
    /// device's previous located row counted; so is the room a ``RoomHold`` of the device's fixes answers (an
    /// unknown answer is neither right nor wrong, and a change is from one known answer to another).
    mutating func record(_ result: Result<Fix, NoFix>, for row: TruthPoint) {
        guard case .success(let fix) = result else {
            counts.misses += 1
            return
        }
        let error = Self.error(of: fix, for: row)
        guard error.isFinite else {
            counts.misses += 1
            return
        }
        if Self.isCovered(fix, error: error) { counts.coveredRows += 1 }
        if let floor = row.floor {
            counts.floorRows += 1
            if fix.floor == floor { counts.floorHits += 1 }
        }
        var flipped = false
        var truthFlipped = false
        var roomChange: (fix: Bool, truth: Bool)?
        var held: (answer: RoomHold.Answer, changed: Bool)?
        let fixRoom = rooms?.room(at: fix.position.horizontal, floor: fix.floor)
        let truthRoom = rooms?.room(at: row.point, floor: row.floor)
        if rooms != nil, truthRoom != nil {
            counts.rooms?.rows += 1
            if fixRoom != truthRoom { counts.rooms?.wrongRows += 1 }
        }
        let roomMap = rooms
        update(row.device) { device in
            if device.firstLocated != nil {
                roomChange = (device.fixRoom != fixRoom, device.truthRoom != truthRoom)
            }
            device.fixRoom = fixRoom
            device.truthRoom = truthRoom
            if let roomMap {
                let answer = device.hold.update(
                    point: fix.position.horizontal, floor: fix.floor, at: row.time, in: roomMap)
                var changed = false
                if answer != .unknown {
                    changed = device.heldRoom.map { $0 != answer } ?? false
                    device.heldRoom = answer
                }
                held = (answer, changed)
            }
            if let floor = row.floor {
                if let last = device.lastTruthFloor, last != floor { truthFlipped = true }
                device.lastTruthFloor = floor
            }
            device.errors.append(error)
            if let floor = fix.floor {
                if let lastFloor = device.lastFloor, lastFloor != floor { flipped = true }
                device.lastFloor = floor
            }
            device.firstLocated = device.firstLocated ?? row.time
            device.lastLocated = row.time
        }
        if flipped { counts.floorFlips += 1 }
        if truthFlipped { counts.truthFloorFlips += 1 }
        if let held {
            if held.changed { counts.rooms?.heldChanges += 1 }
            if truthRoom != nil {
                if held.answer == .unknown {
                    counts.rooms?.unknownRows += 1
                } else if held.answer != RoomHold.Answer(truthRoom) {
                    counts.rooms?.heldWrongRows += 1
                }
            }
        }
        if rooms != nil, let roomChange {
            if roomChange.fix { counts.rooms?.changes += 1 }
            if roomChange.truth { counts.rooms?.truthChanges += 1 }
        }
    }

    private mutating func update(_ id: String, _ change: (inout Device) -> Void) {
        change(&devices[id, default: Device()])
    }

    /// The score: the errors device by device (ids in sorted order), each device's in the order recorded; the
    /// tracked time summed over the devices in the same order.
    var score: MethodScore {
        var score = counts
        score.errors.reserveCapacity(devices.values.reduce(0) { $0 + $1.errors.count })
        for id in devices.keys.sorted() {
            guard let device = devices[id] else { continue }
            score.errors += device.errors
            if let first = device.firstLocated, let last = device.lastLocated { score.trackedSeconds += last - first }
        }
        return score
    }
}
