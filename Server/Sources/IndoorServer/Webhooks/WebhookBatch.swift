import Foundation
import IndoorModel

/// The next batch of a hook: the events after its cursors, in id order, those it asks for kept, at most
/// ``WebhookSettings/maxBatchEvents`` of them; and the cursors once they are delivered (past the events read but
/// not asked for too).
struct WebhookBatch: Sendable {
    /// The events to deliver, in id order.
    var events: [StoredEvent]
    /// The cursor of each venue read, once the batch is delivered.
    var cursors: [String: Int64]

    /// Whether anything was read (a batch without events to deliver still moves the cursors).
    var isEmpty: Bool { cursors.isEmpty }

    /// Reads the next batch of `hook` from `store`.
    ///
    /// Each venue's events after its cursor are read in pages; they are merged in id order up to the smallest last
    /// id of a full page (beyond it, a venue may have events not read yet), so the batch is in id order.
    static func next(
        for hook: StoredWebhook, store: any LocationStore, maxEvents: Int
    ) async throws -> WebhookBatch {
        let venues: [String]
        if let chosen = hook.venues {
            venues = chosen
        } else {
            venues = try await store.venues().map(\.id)
        }
        let cursors = try await store.webhookCursors(id: hook.id)
        let page = maxEvents * 4
        var read: [StoredEvent] = []
        var horizon = Int64.max
        for venue in venues {
            let events = try await store.events(venue: venue, after: cursors[venue] ?? hook.startCursor, limit: page)
            if events.count == page, let last = events.last { horizon = min(horizon, last.id) }
            read += events
        }
        read.sort { $0.id < $1.id }
        let wanted = Set(hook.events)
        var batch = WebhookBatch(events: [], cursors: [:])
        for event in read where event.id <= horizon {
            if wanted.contains(WebhookEvents.name(of: event.event)) {
                if batch.events.count == maxEvents { break }
                batch.events.append(event)
            }
            batch.cursors[event.venue] = event.id
        }
        return batch
    }

    /// The body of a delivery: `{"events":[…],"hook":ID}`, each event `{"data":…,"id":…,"name":…,"type":…,"venue":…}`
    /// with `data` the event's JSON as the API and the stream answer it (keys sorted).
    static func body(hook: String, events: [StoredEvent]) throws -> Data {
        let encoder = JSONFormat.encoder()
        let strings = JSONEncoder.sorted
        var body = Data("{\"events\":[".utf8)
        for (index, stored) in events.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: Data("{\"data\":".utf8))
            body.append(try stored.event.json(encoder))
            body.append(contentsOf: Data(",\"id\":\(stored.id),\"name\":".utf8))
            body.append(try strings.encode(WebhookEvents.name(of: stored.event)))
            body.append(contentsOf: Data(",\"type\":".utf8))
            body.append(try strings.encode(stored.event.type))
            body.append(contentsOf: Data(",\"venue\":".utf8))
            body.append(try strings.encode(stored.venue))
            body.append(UInt8(ascii: "}"))
        }
        body.append(contentsOf: Data("],\"hook\":".utf8))
        body.append(try strings.encode(hook))
        body.append(UInt8(ascii: "}"))
        return body
    }
}
