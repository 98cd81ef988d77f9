import IndoorModel

/// The advertising events of every node in time order, made one at a time (constant memory per node).
///
/// Each node advertises first at a random phase in 0…interval seconds, then every interval plus 0…10 ms of
/// advDelay, until `end`. The random numbers are drawn from one generator, all of node 0's first, then node 1's,
/// and so on: the same draws, and so the same times, as listing every node's events and sorting them by
/// (time, node). To give the events in that order without holding them, a first pass draws every number once and
/// remembers where each node's draws start; the events then come from a min-heap of one pending event per node.
struct AdvertisingSchedule {
    /// How many events there are in all.
    let count: Int

    private let interval: Double
    private let end: Double
    /// Per node: the generator positioned at that node's next draw.
    private var generators: [SplitMix64]
    /// Pending events (time in seconds, node index), least (time, node) first.
    private var heap = MinHeap<Event>()

    /// An advertising event: `node` advertises at `time` seconds; ordered by (time, node).
    private struct Event: Comparable {
        var time: Double
        var node: Int

        static func < (a: Event, b: Event) -> Bool { (a.time, a.node) < (b.time, b.node) }
    }

    /// The schedule of `nodes` nodes advertising every `interval` seconds from 0 to `end` seconds.
    ///
    /// - Parameter random: drawn from as the event list would be; on return it stands after every draw.
    /// - Complexity: O(events) time for the first pass, O(nodes) memory.
    init(nodes: Int, interval: Double, until end: Double, random: inout SplitMix64) {
        self.interval = interval
        self.end = end
        var generators: [SplitMix64] = []
        generators.reserveCapacity(nodes)
        var count = 0
        for _ in 0..<nodes {
            generators.append(random)
            var time = random.uniform(0...interval)
            while time <= end {
                count += 1
                time += interval + random.uniform(0...0.01)
            }
        }
        self.count = count
        self.generators = generators
        heap.reserveCapacity(nodes)
        for node in 0..<nodes {
            let time = self.generators[node].uniform(0...interval)
            if time <= end { heap.insert(Event(time: time, node: node)) }
        }
    }

    /// The next event in (time, node) order, or nil after the last.
    mutating func next() -> (time: Double, node: Int)? {
        guard let first = heap.popFirst() else { return nil }
        let time = first.time + (interval + generators[first.node].uniform(0...0.01))
        if time <= end { heap.insert(Event(time: time, node: first.node)) }
        return (first.time, first.node)
    }
}
