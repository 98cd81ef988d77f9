import IndoorModel

/// Puts sightings that arrive slightly out of time order back in order before they reach the session.
///
/// A file is read as a stream, so the session cannot sort it whole. Sightings wait in the window until one
/// ``seconds`` newer has arrived (or ``maximumRows`` are waiting), then leave in time order, keeping the file
/// order among sightings of the same time: a file whose disorder is within the window replays exactly as if it
/// had been sorted. A sighting older than one already handed on is *late*: it is still handed on (the session
/// takes it as it comes) and counted in ``late``.
struct ReplayReorderWindow {
    /// Seconds of data time a sighting waits for earlier ones; 0 hands every sighting on at once.
    let seconds: Double
    /// Sightings that may wait at once; beyond it the oldest is handed on (bounds memory on a time jump).
    let maximumRows: Int
    /// Sightings handed on after one with a later time.
    private(set) var late = 0
    private var heap: [Entry] = []
    private var sequence = 0
    private var newest = -Double.infinity
    private var lastReleased = -Double.infinity

    /// A waiting sighting, ordered by time, then by arrival.
    private struct Entry {
        var sighting: Sighting
        var sequence: Int
        func precedes(_ other: Entry) -> Bool {
            (sighting.time, sequence) < (other.sighting.time, other.sequence)
        }
    }

    /// A window of `seconds` (≥ 0; `.infinity` sorts everything) holding at most `maximumRows` sightings.
    init(seconds: Double, maximumRows: Int = 1_000_000) {
        self.seconds = seconds
        self.maximumRows = max(1, maximumRows)
    }

    /// Takes `sighting`. - Returns: the sightings that may go on now, in time order.
    mutating func push(_ sighting: Sighting) -> [Sighting] {
        guard sighting.time.isFinite else {
            // The session refuses it and counts it; it has no place in time.
            return [sighting]
        }
        if sighting.time < lastReleased { late += 1 }
        newest = max(newest, sighting.time)
        insert(Entry(sighting: sighting, sequence: sequence))
        sequence += 1
        var ready: [Sighting] = []
        while let first = heap.first, heap.count > maximumRows || first.sighting.time <= newest - seconds {
            ready.append(popFirst())
        }
        return ready
    }

    /// Every sighting still waiting, in time order (at the end of the file).
    mutating func drain() -> [Sighting] {
        var ready: [Sighting] = []
        ready.reserveCapacity(heap.count)
        while !heap.isEmpty { ready.append(popFirst()) }
        return ready
    }

    // MARK: - Binary heap

    private mutating func insert(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popFirst() -> Sighting {
        let first = heap[0].sighting
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
                if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
                guard smallest != parent else { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        lastReleased = max(lastReleased, first.time)
        return first
    }
}
