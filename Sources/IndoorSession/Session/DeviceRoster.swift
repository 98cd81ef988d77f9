import IndoorModel

/// The devices a session holds, each with the data time it was last heard, so that a device silent for long enough
/// can be let go and, beyond a cap, the one silent longest goes first.
///
/// One queue entry per device, by the time it was last heard when queued: an entry that has fallen behind (the device
/// was heard since) is queued again at the device's new time when it comes up, so a sighting costs one dictionary
/// write and the queue never holds more than one live entry per device.
struct DeviceRoster: Sendable {
    /// Device → data time it was last heard, seconds.
    private(set) var lastHeard: [String: Double] = [:]
    private var queue = MinHeap<Entry>()

    private struct Entry: Comparable, Sendable {
        var time: Double
        var device: String
        static func < (a: Entry, b: Entry) -> Bool { (a.time, a.device) < (b.time, b.device) }
    }

    /// How many devices are held.
    var count: Int { lastHeard.count }

    /// Whether `device` is held.
    func contains(_ device: String) -> Bool { lastHeard[device] != nil }

    /// `device` was heard at `time` seconds (an earlier time than its last leaves it as it is).
    mutating func heard(_ device: String, at time: Double) {
        guard time.isFinite else { return }
        if let last = lastHeard[device] {
            if time > last { lastHeard[device] = time }
        } else {
            lastHeard[device] = time
            queue.insert(Entry(time: time, device: device))
        }
    }

    /// Removes and returns the device heard longest ago if it was last heard before `cutoff` seconds; `nil` when every
    /// held device was heard at or after it.
    mutating func popSilent(before cutoff: Double) -> String? {
        while let entry = queue.first, entry.time < cutoff {
            _ = queue.popFirst()
            guard let last = lastHeard[entry.device] else { continue }
            if last > entry.time {
                queue.insert(Entry(time: last, device: entry.device))
                continue
            }
            lastHeard[entry.device] = nil
            return entry.device
        }
        return nil
    }

    /// Removes and returns the device heard longest ago (ties: the smallest id); `nil` when none is held.
    mutating func popOldest() -> String? {
        popSilent(before: .infinity)
    }

    /// Lets `device` go now, whenever it was heard (its queue entry, now stale, is skipped when it comes up).
    /// - Returns: Whether it was held.
    @discardableResult
    mutating func remove(_ device: String) -> Bool {
        lastHeard.removeValue(forKey: device) != nil
    }

    /// Holds `device` again as last heard at `time` seconds: one a session could not let go yet (a zone rule still
    /// needs it) comes up again once the queue reaches that time.
    mutating func keep(_ device: String, until time: Double) {
        lastHeard[device] = time
        queue.insert(Entry(time: time, device: device))
    }
}
