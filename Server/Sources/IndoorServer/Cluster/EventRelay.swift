import Foundation
import Synchronization

/// In a cluster: the live events of each venue for this instance's streams, read from the store as any instance
/// commits them, so a stream on any instance carries every event of its venue in id order, and one resuming with
/// `Last-Event-ID` on another instance goes on without a gap or a repeat.
///
/// A venue's feed reads the events after the last id it handed out (``LocationStore/events(venue:after:limit:)``)
/// whenever it is woken (``wake()``: a commit's notification) and at least once a second (a notification lost with a
/// connection). Only venues with subscribers are read. A fix that is its device's latest of what was read carries
/// the device's room: the session's (``VenueHub/room(venue:device:)``) when the venue runs here; elsewhere the
/// relay's own holds fed the venue's fixes as they are read (``RelayedRooms``), which answer as the owner's once they
/// have seen a device settle.
final class EventRelay: Sendable {
    private struct Feed {
        /// The id of the last event handed out.
        var cursor: Int64
        /// The venue's streams on this instance.
        let subscribers = SubscriberTable<LiveEvent>()
        /// The rooms of the venue's devices while it runs on another instance.
        var rooms: RelayedRooms?
    }

    private let hub: VenueHub
    /// Each venue's feed while it has subscribers.
    private let feeds = Mutex<[String: Feed]>([:])
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
        return feeds.withLock { feeds in
            let feed = feeds[venue] ?? Feed(cursor: latest)
            feeds[venue] = feed
            // A feed nobody reads any more is dropped: a later subscriber starts from the latest event then.
            return feed.subscribers.subscribe(bufferingPolicy: .bufferingOldest(100_000)) { [weak self] in
                self?.feeds.withLock { feeds in
                    if feeds[venue]?.subscribers.count == 0 { feeds.removeValue(forKey: venue) }
                }
            }
        }
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
                for venue in feeds.withLock({ Array($0.keys) }) {
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
            defer { feeds = [:] }
            return feeds.values.map(\.subscribers)
        }
        for subscribers in all { subscribers.finishAll() }
    }

    private func relay(_ venue: String) async throws {
        while let cursor = feeds.withLock({ $0[venue]?.cursor }) {
            let events = try await hub.store.events(venue: venue, after: cursor, limit: Self.page)
            guard let last = events.last else { return }
            let owned = hub.owns(venue: venue)
            let definition = owned ? nil : hub.venue(id: venue)
            let ownedLive = owned ? live(events, venue: venue) : nil
            let (live, subscribers) = feeds.withLock { feeds -> ([LiveEvent], SubscriberTable<LiveEvent>?) in
                guard var feed = feeds[venue], feed.cursor == cursor else { return ([], nil) }
                feed.cursor = last.id
                if let definition, feed.rooms?.venue != definition {
                    feed.rooms = RelayedRooms(venue: definition)
                } else if definition == nil {
                    feed.rooms = nil
                }
                let live = ownedLive ?? Self.live(events, rooms: &feed.rooms)
                feeds[venue] = feed
                return (live, feed.subscribers)
            }
            subscribers?.publish(live)
            if events.count < Self.page { return }
        }
    }

    /// `events` of a venue that runs here, each device's last fix and each zone event with the session's room.
    private func live(_ events: [StoredEvent], venue: String) -> [LiveEvent] {
        LiveEvent.withRooms(events) { hub.room(venue: venue, device: $0) }
    }

    /// `events` of a venue that runs elsewhere: every fix fed to `rooms`, then each device's last fix and each zone
    /// event with the device's room after them all.
    private static func live(_ events: [StoredEvent], rooms: inout RelayedRooms?) -> [LiveEvent] {
        for event in events {
            if case .fix(let fix) = event.event { _ = rooms?.update(with: fix) }
        }
        let held = rooms
        return LiveEvent.withRooms(events) { held?.room(of: $0) }
    }

}
