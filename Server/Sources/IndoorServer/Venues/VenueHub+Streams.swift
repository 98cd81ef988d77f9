extension VenueHub {
    /// A live feed of `venue`'s stored events, from now on, each fix with its device's room when it is the
    /// device's latest of its batch (``LiveEvent``); `nil` for an unknown venue.
    /// The stream finishes when the venue is replaced or deleted, or on ``finishSubscribers()``.
    public func subscribe(venue: String) -> AsyncStream<LiveEvent>? {
        guard let runtime = runtimes.withLock({ $0[venue] }) else { return nil }
        return runtime.subscribe()
    }

    /// Ends every live feed (at shutdown).
    public func finishSubscribers() {
        for runtime in runtimes.withLock({ Array($0.values) }) { runtime.finishSubscribers() }
        let all = observers.withLock { observers in
            defer { observers.all = [:] }
            return Array(observers.all.values)
        }
        for continuation in all { continuation.finish() }
    }

    /// Every venue's stored events as they are stored, a batch at a time, for publishing them elsewhere (MQTT).
    ///
    /// At most `buffer` batches wait for the reader; beyond that the oldest waiting are dropped (a reader that
    /// publishes states loses only superseded ones). Ends at ``finishSubscribers()``.
    public func observeAll(buffer: Int = 1000) -> AsyncStream<VenueLiveEvents> {
        let (stream, continuation) = AsyncStream<VenueLiveEvents>.makeStream(bufferingPolicy: .bufferingNewest(buffer))
        let token = observers.withLock { observers in
            defer { observers.next += 1 }
            observers.all[observers.next] = continuation
            return observers.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.observers.withLock { $0.all.removeValue(forKey: token) }
        }
        return stream
    }

    func notifyObservers(venue: String, _ events: [LiveEvent]) {
        guard !events.isEmpty else { return }
        let all = observers.withLock { Array($0.all.values) }
        for continuation in all { continuation.yield(VenueLiveEvents(venue: venue, events: events)) }
    }
}
