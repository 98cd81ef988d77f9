import Synchronization

/// The live feeds of one source of elements: each subscriber reads an `AsyncStream` of what is published after it
/// subscribed, in the order published. One venue's stream subscribers (``VenueRuntime``), the hub's observers of
/// every venue (``VenueHub/observeAll(buffer:)``) and, in a cluster, the streams of one venue relayed from the store
/// (``EventRelay``) are each one table.
///
/// Elements are yielded outside the table's lock: a yield resumes a task, which takes the task's own lock, while a
/// cancelled task holds that lock when it calls `onTermination`, which takes the table's lock to remove its feed;
/// yielding under the table's lock would deadlock.
final class SubscriberTable<Element: Sendable>: Sendable {
    private struct Feeds {
        /// The token of the next feed.
        var next = 0
        /// The open feeds by token.
        var all: [Int: AsyncStream<Element>.Continuation] = [:]
    }

    private let feeds = Mutex(Feeds())

    /// An empty table.
    init() {}

    /// How many feeds are open.
    var count: Int { feeds.withLock { $0.all.count } }

    /// A new feed of the elements published from now on. It ends at ``finishAll()``; a reader that stops reading
    /// (its task cancelled, the stream dropped) leaves the table.
    /// - Parameters:
    ///   - bufferingPolicy: What the feed keeps while its reader is behind.
    ///   - onEnd: Called once the feed has ended and left the table (after ``finishAll()`` too), outside the table's
    ///     lock: for an owner that drops a table nobody reads any more.
    func subscribe(
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy, onEnd: (@Sendable () -> Void)? = nil
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: bufferingPolicy)
        let token = feeds.withLock { feeds in
            defer { feeds.next += 1 }
            feeds.all[feeds.next] = continuation
            return feeds.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.feeds.withLock { $0.all.removeValue(forKey: token) }
            onEnd?()
        }
        return stream
    }

    /// Hands every element of `elements` to every open feed, in order: one feed gets all of them, then the next.
    func publish(_ elements: [Element]) {
        guard !elements.isEmpty else { return }
        let continuations = feeds.withLock { Array($0.all.values) }
        for continuation in continuations {
            for element in elements { continuation.yield(element) }
        }
    }

    /// Hands `element` to every open feed.
    func publish(_ element: Element) {
        publish([element])
    }

    /// Ends every open feed; the table is empty after this (a feed subscribed later is fed as usual).
    func finishAll() {
        let all = feeds.withLock { feeds in
            defer { feeds.all = [:] }
            return Array(feeds.all.values)
        }
        for continuation in all { continuation.finish() }
    }
}
