import IndoorModel

/// (due time, key) pairs in a ``IndoorModel/MinHeap``: the timers of ``ZoneEngine`` and ``PeerDirectory``.
///
/// Ordered by due time, then key, so that the order never depends on insertion history. The queue does
/// not deduplicate: the engine remembers each key's current due time and skips entries that no longer
/// match it (lazy deletion), and rebuilds the heap when stale entries pile up.
struct ZoneDueQueue<Key: Comparable & Sendable>: Sendable {
    struct Entry: Comparable, Sendable {
        var due: Double
        var key: Key

        static func < (a: Entry, b: Entry) -> Bool {
            a.due < b.due || (a.due == b.due && a.key < b.key)
        }
    }

    private var heap = MinHeap<Entry>()

    var count: Int { heap.count }

    /// The entry with the earliest due time, if any.
    var first: Entry? { heap.first }

    mutating func insert(due: Double, key: Key) {
        heap.insert(Entry(due: due, key: key))
    }

    /// Removes and returns the entry with the earliest due time.
    mutating func removeFirst() -> Entry? {
        heap.popFirst()
    }

    /// Replaces the contents with `entries` (heapified in linear time).
    mutating func rebuild(_ entries: [Entry]) {
        heap = MinHeap(entries)
    }
}
