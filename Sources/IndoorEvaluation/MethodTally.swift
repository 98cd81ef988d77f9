import IndoorModel
import IndoorPositioning

/// One method's ``MethodScore`` being counted, truth row by truth row, with the little each device needs: its
/// errors, its last located floor and its first and last located times.
///
/// Rows may come device by device (``Evaluator/score(_:on:name:progress:)``) or all devices merged by time
/// (``Evaluator/score(_:sightings:truth:limit:observe:progress:)``): ``score`` is the same either way, since it
/// lists the errors device by device and sums the tracked time in that order.
struct MethodTally {
    /// What one device has added up so far.
    private struct Device {
        /// The horizontal error of each located row of the device, metres, in the order they were recorded.
        var errors: [Double] = []
        var lastFloor: Int?
        /// The time of the device's first and last located rows, seconds.
        var firstLocated: Double?
        var lastLocated: Double?
    }

    /// Everything but the errors and the tracked time (counted in ``devices`` until ``score`` is asked for).
    private var counts: MethodScore
    private var devices: [String: Device] = [:]

    /// A tally of nothing yet, reported as `method`.
    init(method: String) {
        counts = MethodScore(method: method, errors: [], misses: 0)
    }

    /// Counts the answer `result` of the engine to the truth row `row` (the position of `row.device` at `row.time`).
    ///
    /// A failure, or a fix at a non-finite error, is a miss. A located row's error is the horizontal (x, y)
    /// distance in metres; it is covered when within the fix's accuracy radius; where the truth has a floor, the
    /// fix's floor is right or wrong; the device's floor flips when a located row's floor differs from the
    /// previous located row's.
    mutating func record(_ result: Result<Fix, NoFix>, for row: TruthPoint) {
        guard case .success(let fix) = result else {
            counts.misses += 1
            return
        }
        let error = fix.position.horizontal.distance(to: row.point)
        guard error.isFinite else {
            counts.misses += 1
            return
        }
        if error <= fix.accuracy { counts.coveredRows += 1 }
        if let floor = row.floor {
            counts.floorRows += 1
            if fix.floor == floor { counts.floorHits += 1 }
        }
        var flipped = false
        update(row.device) { device in
            device.errors.append(error)
            if let floor = fix.floor {
                if let lastFloor = device.lastFloor, lastFloor != floor { flipped = true }
                device.lastFloor = floor
            }
            device.firstLocated = device.firstLocated ?? row.time
            device.lastLocated = row.time
        }
        if flipped { counts.floorFlips += 1 }
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
