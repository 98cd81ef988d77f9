import Foundation
import HTTPTypes
import Hummingbird
import IndoorGeofencing
import IndoorModel
import NIOCore
import ServiceLifecycle

/// One event as JSON: on the stream (`data:`), and in the stream's backlog. A live zone event, and a live fix that is
/// its device's latest of its batch, carry the device's held `room` (``DeviceRoom``, ``LiveEvent/room``); backlog
/// events carry none.
struct EventEnvelope: Encodable {
    var id: Int64
    var venue: String
    var type: String
    var fix: Fix?
    var zone: ZoneEvent?
    var occupancy: OccupancyEvent?
    var person: PersonZoneEvent?
    var room: DeviceRoom?

    init(_ stored: StoredEvent, room: DeviceRoom? = nil) {
        id = stored.id
        venue = stored.venue
        type = stored.event.type
        self.room = room
        switch stored.event {
        case .fix(let fix): self.fix = fix
        case .zone(let zone): self.zone = zone
        case .occupancy(let occupancy): self.occupancy = occupancy
        case .person(let person): self.person = person
        }
    }
}

/// `GET /v1/stream`'s answer: a venue's fixes, zone, occupancy and person events as Server-Sent Events.
///
/// Each event has `id:` (the stored event id), `event:` (`fix`, `zone`, `occupancy` or `person`) and `data:` (``EventEnvelope``; a
/// live zone event, and a live fix that is its device's latest of its batch, carry the device's held `room`). The stored events of the backlog come
/// first, then the live ones, without a gap or a repeat: the live feed was subscribed before the backlog was read,
/// and ids already sent are skipped. A device erased (`DELETE /v1/devices/{device}`, in this venue or in every one)
/// is sent as `event: device-erased` with `data: {"venue", "device"}` (the device as the stream named it) and no `id:`,
/// so that a client drops it. An idle stream gets a comment line every `heartbeatSeconds`; it ends when the live
/// feed ends (the venue replaced or deleted), at shutdown, or when the client falls `buffer` events behind (counted in
/// `indoor_stream_subscribers_dropped_total`).
struct EventStreamResponse: ResponseGenerator {
    /// The venue streamed.
    var venue: String
    /// The `Last-Event-ID` the client resumed after, if any.
    var resumedAfter: Int64?
    /// The stored events after it (``ServerConfiguration/streamBacklog`` at most), sent first.
    var backlog: [StoredEvent]
    /// The venue's live events.
    var live: AsyncStream<LiveEvent>
    /// The devices erased from now on (``VenueHub/subscribeErasures()``); those of this venue are sent.
    var erasures: AsyncStream<DeviceErasure>
    /// Seconds between two keep-alive comments (``ServerConfiguration/heartbeatSeconds``).
    var heartbeatSeconds: Double
    /// The most events waiting for a slow client (``ServerConfiguration/streamBuffer``).
    var buffer: Int
    let metrics: ServerMetrics

    func response(from request: Request, context: some RequestContext) -> Response {
        let (venue, backlog, live, erasures, heartbeat, buffer, metrics) = (
            venue, backlog, live, erasures, heartbeatSeconds, buffer, metrics
        )
        let resumeID = resumedAfter
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let body = ResponseBody { writer in
            var lastSent = resumeID ?? 0
            try await writer.write(ByteBuffer(string: ": venue \(venue)\nretry: 2000\n\n"))
            for event in backlog {
                try await writer.write(Self.frame(event))
                lastSent = event.id
            }
            // What waits to be written is bounded: a client that stops reading makes the writes wait, its events
            // fill `items`, and once `streamBuffer` are waiting the stream takes no more: the client gets what waits
            // (no gap) and then the end of the stream, and can resume with Last-Event-ID.
            let (items, continuation) = AsyncStream<StreamItem>.makeStream(bufferingPolicy: .bufferingOldest(buffer))
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await event in live {
                            if case .dropped = continuation.yield(.event(event)) {
                                metrics.streamsDropped.increment()
                                break
                            }
                        }
                        continuation.finish()
                    }
                    group.addTask {
                        for await erasure in erasures where erasure.concerns(venue) {
                            continuation.yield(.erased(erasure.device))
                        }
                    }
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: .seconds(heartbeat))
                            continuation.yield(.keepAlive)
                        }
                    }
                    for await item in items {
                        switch item {
                        case .keepAlive:
                            try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        case .erased(let device):
                            try await writer.write(Self.erasedFrame(venue: venue, device: device))
                        case .event(let event):
                            guard event.stored.id > lastSent else { continue }
                            try await writer.write(Self.frame(event.stored, room: event.room))
                            lastSent = event.stored.id
                        }
                    }
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                continuation.finish()
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// What waits to be written: a live event, a device erased, or a keep-alive comment.
    enum StreamItem: Sendable {
        case event(LiveEvent)
        case erased(String)
        case keepAlive
    }

    /// What the stream says of a device erased: `event: device-erased`, `data: {"venue", "device"}`, no `id:` (it is
    /// no stored event, and a resuming client's Last-Event-ID stays).
    static func erasedFrame(venue: String, device: String) -> ByteBuffer {
        let payload = ["venue": venue, "device": device]
        let data = (try? JSONFormat.encoder().encode(payload)) ?? Data("{}".utf8)
        return ByteBuffer(string: "event: device-erased\ndata: \(String(decoding: data, as: UTF8.self))\n\n")
    }

    /// One event's frame: `id:`, `event:` and `data:` lines and a blank line.
    static func frame(_ event: StoredEvent, room: DeviceRoom? = nil) -> ByteBuffer {
        let data = (try? JSONFormat.encoder().encode(EventEnvelope(event, room: room))) ?? Data("{}".utf8)
        var text = "id: \(event.id)\nevent: \(event.event.type)\ndata: "
        text += String(decoding: data, as: UTF8.self)
        text += "\n\n"
        return ByteBuffer(string: text)
    }
}
