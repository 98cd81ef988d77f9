import IndoorModel

/// One subscription to a source of sightings, shared by every scan that runs at the same time.
///
/// The first subscriber opens the source (starts the radio); later subscribers receive the same sightings from
/// the moment they join; when the last one leaves, the source's iteration is cancelled (the radio stops). A
/// source that ends, or fails, ends every subscriber's stream, and the next subscriber opens it afresh.
actor SightingFanOut {
    typealias Stream = AsyncThrowingStream<Sighting, any Error>

    private let pump: @Sendable (_ deliver: @escaping @Sendable (Sighting) async -> Void) async throws -> Void
    private var subscribers: [Int: Stream.Continuation] = [:]
    private var nextID = 0
    private var task: Task<Void, Never>?
    /// Counts the openings of the source; a sighting of an old opening (one being cancelled) is dropped.
    private var generation = 0

    /// How many times the source was opened so far.
    var openings: Int { generation }
    /// How many subscribers there are now.
    var subscriberCount: Int { subscribers.count }

    /// A fan-out over the sequences `open` makes: one per opening.
    init<S: AsyncSequence & Sendable>(_ open: @escaping @Sendable () -> S) where S.Element == Sighting {
        pump = { deliver in
            for try await sighting in open() {
                await deliver(sighting)
            }
        }
    }

    /// A new subscriber: its id (for ``end(_:throwing:)``) and its stream of sightings.
    func subscribe() -> (id: Int, sightings: Stream) {
        let (stream, continuation) = Stream.makeStream(bufferingPolicy: .unbounded)
        let id = nextID
        nextID += 1
        subscribers[id] = continuation
        if task == nil {
            generation += 1
            let opening = generation
            task = Task.detached { [pump] in
                do {
                    try await pump { sighting in await self.deliver(sighting, opening: opening) }
                    await self.finishAll(opening: opening, throwing: nil)
                } catch {
                    await self.finishAll(opening: opening, throwing: error)
                }
            }
        }
        return (id, stream)
    }

    /// Ends the stream of subscriber `id` (normally, or throwing `error`); the last one out closes the source.
    func end(_ id: Int, throwing error: (any Error)? = nil) {
        subscribers.removeValue(forKey: id)?.finish(throwing: error)
        if subscribers.isEmpty {
            task?.cancel()
            task = nil
        }
    }

    private func deliver(_ sighting: Sighting, opening: Int) {
        guard opening == generation else { return }
        for continuation in subscribers.values {
            continuation.yield(sighting)
        }
    }

    private func finishAll(opening: Int, throwing error: (any Error)?) {
        guard opening == generation, task != nil else { return }
        for continuation in subscribers.values {
            continuation.finish(throwing: error)
        }
        subscribers = [:]
        task = nil
    }
}
