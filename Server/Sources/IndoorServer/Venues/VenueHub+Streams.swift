extension VenueHub {
    /// A live feed of `venue`'s stored events, from now on, each fix with its device's room when it is the
    /// device's latest of its batch (``LiveEvent``); `nil` for an unknown venue.
    /// The stream finishes when the venue is replaced or deleted, or on ``finishSubscribers()``.
    public func subscribe(venue: String) -> AsyncStream<LiveEvent>? {
        guard let runtime = registry.runtime(venue) else { return nil }
        // Drained at once by the stream's own bounded buffer (``ServerConfiguration/streamBuffer``); the bound here
        // only keeps a subscriber that is not drained from holding more.
        return runtime.subscribers.subscribe(bufferingPolicy: .bufferingOldest(100_000))
    }

    /// Ends every live feed (at shutdown).
    public func finishSubscribers() {
        for runtime in registry.all { runtime.subscribers.finishAll() }
        observers.finishAll()
    }

    /// Every venue's stored events as they are stored, a batch at a time, for publishing them elsewhere (MQTT).
    ///
    /// At most `buffer` batches wait for the reader; beyond that the oldest waiting are dropped (a reader that
    /// publishes states loses only superseded ones). Ends at ``finishSubscribers()``.
    public func observeAll(buffer: Int = 1000) -> AsyncStream<VenueLiveEvents> {
        observers.subscribe(bufferingPolicy: .bufferingNewest(buffer))
    }
}
