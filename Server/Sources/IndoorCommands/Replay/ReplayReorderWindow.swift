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
    private var heap = MinHeap<Entry>()
    private var sequence = 0
    private var newest = -Double.infinity
    private var lastReleased = -Double.infinity

    /// A waiting sighting, ordered by time, then by arrival.
    private struct Entry: Comparable {
        var sighting: Sighting
        var sequence: Int

        static func < (a: Entry, b: Entry) -> Bool {
            (a.sighting.time, a.sequence) < (b.sighting.time, b.sequence)
        }

        static func == (a: Entry, b: Entry) -> Bool { a.sequence == b.sequence }
    }

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
        heap.insert(Entry(sighting: sighting, sequence: sequence))
        sequence += 1
        var ready: [Sighting] = []
        while let first = heap.first, heap.count > maximumRows || first.sighting.time <= newest - seconds,
            let released = release()
        {
            ready.append(released)
        }
        return ready
    }

    /// Every sighting still waiting, in time order (at the end of the file).
    mutating func drain() -> [Sighting] {
        var ready: [Sighting] = []
        ready.reserveCapacity(heap.count)
        while let released = release() { ready.append(released) }
        return ready
    }

    /// The earliest waiting sighting, taken out of the window; `nil` when none waits.
    private mutating func release() -> Sighting? {
        guard let first = heap.popFirst()?.sighting else { return nil }
        lastReleased = max(lastReleased, first.time)
        return first
    }
}
