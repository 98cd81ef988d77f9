import Foundation
import Synchronization

/// In a cluster: the live events of each venue for this instance's streams, read from the store as any instance
/// commits them, so a stream on any instance carries every event of its venue in id order, and one resuming with
/// `Last-Event-ID` on another instance goes on without a gap or a repeat.
///
/// A venue's feed reads the events after the last id it handed out (``LocationStore/events(venue:after:limit:)``)
/// whenever it is woken (``wake()``: a commit's notification) and at least once a second (a notification lost with a
/// connection). Only venues with subscribers are read. A fix that is its device's latest of what was read carries
/// the device's room when the venue runs here (``VenueHub/room(venue:device:)``); elsewhere none.
final class EventRelay: Sendable {
    private struct Feed {
        /// The id of the last event handed out.
        var cursor: Int64
        var subscribers: [Int: AsyncStream<LiveEvent>.Continuation] = [:]
    }

    private let hub: VenueHub
    private let feeds = Mutex<(next: Int, byVenue: [String: Feed])>((0, [:]))
    private let wakeups: AsyncStream<Void>.Continuation
    private let wakeStream: AsyncStream<Void>
    /// Events read per query.
    static let page = 1000

    init(hub: VenueHub) {
        self.hub = hub
        (wakeStream, wakeups) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// A live feed of `venue`'s events committed from now on (by any instance).
    func subscribe(venue: String) async throws -> AsyncStream<LiveEvent> {
        let latest = try await hub.store.latestEventID()
        let (stream, continuation) = AsyncStream<LiveEvent>.makeStream(bufferingPolicy: .bufferingOldest(100_000))
        let token = feeds.withLock { feeds in
            defer { feeds.next += 1 }
            feeds.byVenue[venue, default: Feed(cursor: latest)].subscribers[feeds.next] = continuation
            return feeds.next
        }
        continuation.onTermination = { [weak self] _ in
            self?.feeds.withLock { feeds in
                feeds.byVenue[venue]?.subscribers.removeValue(forKey: token)
                if feeds.byVenue[venue]?.subscribers.isEmpty == true { feeds.byVenue.removeValue(forKey: venue) }
            }
        }
        return stream
    }

    /// Reads the venues' new events soon.
    func wake() { wakeups.yield() }

    /// Reads and hands out new events whenever woken, and once a second, until cancelled.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [wakeups] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    wakeups.yield()
                }
            }
            for await _ in wakeStream {
                if Task.isCancelled { break }
                for venue in feeds.withLock({ Array($0.byVenue.keys) }) {
                    do {
                        try await relay(venue)
                    } catch {
                        hub.logger.warning("stream relay of venue '\(venue)': \(error)")
                    }
                }
            }
            group.cancelAll()
        }
        finish()
    }

    /// Ends every feed.
    func finish() {
        let all = feeds.withLock { feeds in
            defer { feeds.byVenue = [:] }
            return feeds.byVenue.values.flatMap { $0.subscribers.values }
        }
        for continuation in all { continuation.finish() }
    }

    private func relay(_ venue: String) async throws {
        while let cursor = feeds.withLock({ $0.byVenue[venue]?.cursor }) {
            let events = try await hub.store.events(venue: venue, after: cursor, limit: Self.page)
            guard let last = events.last else { return }
            let live = live(events, venue: venue)
            let subscribers = feeds.withLock { feeds -> [AsyncStream<LiveEvent>.Continuation] in
                guard var feed = feeds.byVenue[venue], feed.cursor == cursor else { return [] }
                feed.cursor = last.id
                feeds.byVenue[venue] = feed
                return Array(feed.subscribers.values)
            }
            for continuation in subscribers {
                for event in live { continuation.yield(event) }
            }
            if events.count < Self.page { return }
        }
    }

    private func live(_ events: [StoredEvent], venue: String) -> [LiveEvent] {
        guard hub.owns(venue: venue) else { return events.map { LiveEvent(stored: $0) } }
        var lastFix: [String: Int] = [:]
        for (index, event) in events.enumerated() {
            if case .fix(let fix) = event.event { lastFix[fix.device] = index }
        }
        return events.enumerated().map { index, event in
            guard case .fix(let fix) = event.event, lastFix[fix.device] == index else {
                return LiveEvent(stored: event)
            }
            return LiveEvent(stored: event, room: hub.room(venue: venue, device: fix.device))
        }
    }
}
