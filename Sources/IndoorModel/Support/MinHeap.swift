/// A binary min-heap: the least element first.
///
/// The engine's timers (zones, peers), the simulator's advertising schedule and the replay's re-order window all
/// keep "what comes next" in one. Elements that compare equal come out in no particular order, so give the
/// element a total order (a time, then a key or a sequence number) when the order must not depend on history.
///
/// - Complexity: ``insert(_:)`` and ``popFirst()`` O(log n); ``first`` O(1); ``init(_:)`` O(n).
public struct MinHeap<Element: Comparable> {
    @usableFromInline var storage: [Element]

    /// An empty heap.
    @inlinable public init() { storage = [] }

    /// A heap of `elements`, built in linear time.
    @inlinable public init(_ elements: some Sequence<Element>) {
        storage = Array(elements)
        var index = storage.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    /// How many elements the heap holds.
    @inlinable public var count: Int { storage.count }

    /// Whether the heap is empty.
    @inlinable public var isEmpty: Bool { storage.isEmpty }

    /// The least element, if any.
    @inlinable public var first: Element? { storage.first }

    /// Makes room for `capacity` elements.
    @inlinable public mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

    /// Adds `element`.
    @inlinable public mutating func insert(_ element: Element) {
        storage.append(element)
        var child = storage.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard storage[child] < storage[parent] else { return }
            storage.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the least element, or `nil` when the heap is empty.
    @inlinable public mutating func popFirst() -> Element? {
        guard let top = storage.first else { return nil }
        let last = storage.removeLast()
        if !storage.isEmpty {
            storage[0] = last
            siftDown(0)
        }
        return top
    }

    @inlinable mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < storage.count else { return }
            var least = left
            let right = left + 1
            if right < storage.count, storage[right] < storage[left] { least = right }
            guard storage[least] < storage[parent] else { return }
            storage.swapAt(least, parent)
            parent = least
        }
    }
}

extension MinHeap: Sendable where Element: Sendable {}
