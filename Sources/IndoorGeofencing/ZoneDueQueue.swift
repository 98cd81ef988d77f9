/// A binary min-heap of (due time, key) pairs: the timers of ``ZoneEngine``.
///
/// Ordered by due time, then key, so that the order never depends on insertion history. The queue does
/// not deduplicate: the engine remembers each key's current due time and skips entries that no longer
/// match it (lazy deletion), and rebuilds the heap when stale entries pile up.
struct ZoneDueQueue<Key: Comparable & Sendable>: Sendable {
    struct Entry: Sendable {
        var due: Double
        var key: Key

        static func precedes(_ a: Entry, _ b: Entry) -> Bool {
            a.due < b.due || (a.due == b.due && a.key < b.key)
        }
    }

    private var heap: [Entry] = []

    var count: Int { heap.count }

    /// The entry with the earliest due time, if any.
    var first: Entry? { heap.first }

    mutating func insert(due: Double, key: Key) {
        heap.append(Entry(due: due, key: key))
        siftUp(heap.count - 1)
    }

    /// Removes and returns the entry with the earliest due time.
    mutating func removeFirst() -> Entry? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return top
    }

    /// Replaces the contents with `entries` (heapified in linear time).
    mutating func rebuild(_ entries: [Entry]) {
        heap = entries
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard Entry.precedes(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            let right = left + 1
            if right < heap.count, Entry.precedes(heap[right], heap[left]) { smallest = right }
            guard Entry.precedes(heap[smallest], heap[parent]) else { return }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
    }
}
