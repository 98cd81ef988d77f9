import Foundation
import HTTPTypes
import Hummingbird
import IndoorGeofencing
import IndoorModel
import NIOCore
import ServiceLifecycle

/// One event as JSON: on the stream (`data:`), and in the stream's backlog. A live fix that is its device's
/// latest of its batch carries the device's held `room` (``DeviceRoom``); backlog events carry none.
struct EventEnvelope: Encodable {
    var id: Int64
    var venue: String
    var type: String
    var fix: Fix?
    var zone: ZoneEvent?
    var room: DeviceRoom?

    init(_ stored: StoredEvent, room: DeviceRoom? = nil) {
        id = stored.id
        venue = stored.venue
        type = stored.event.type
        self.room = room
        switch stored.event {
        case .fix(let fix): self.fix = fix
        case .zone(let zone): self.zone = zone
        }
    }
}

extension LocationServer {
    /// `GET /v1/stream?venue=ID`: the venue's fixes and zone events as Server-Sent Events.
    ///
    /// Each event has `id:` (the stored event id), `event:` (`fix` or `zone`) and `data:` (``EventEnvelope``; a
    /// live fix that is its device's latest of its batch carries the device's held `room`).
    /// A client that sends `Last-Event-ID` (or `?lastEventId=`) first gets the stored events after that id (at
    /// most ``ServerConfiguration/streamBacklog``), then the live ones, without a gap or a repeat: the stream
    /// subscribes before it reads the backlog and skips ids it already sent. An idle stream gets a comment line
    /// every ``ServerConfiguration/heartbeatSeconds``; it ends when the venue is replaced or deleted, at shutdown,
    /// or when the client falls ``ServerConfiguration/streamBuffer`` events behind (counted in
    /// `indoor_stream_subscribers_dropped_total`).
    func stream(_ request: Request) async throws -> Response {
        guard let venue = request.uri.queryParameters.get("venue"), !venue.isEmpty else {
            throw APIError.badRequest(field: "venue", "the query needs venue=ID")
        }
        var resume: Int64?
        let lastEventName = HTTPField.Name("Last-Event-ID")
        if let text = lastEventName.flatMap({ request.headers[$0] }) ?? request.uri.queryParameters.get("lastEventId") {
            guard let id = Int64(text), id >= 0 else {
                throw APIError.badRequest(field: "Last-Event-ID", "Last-Event-ID '\(text)' is not an event id")
            }
            resume = id
        }
        let live: AsyncStream<LiveEvent>
        if let relay {
            // In a cluster, every instance streams from the store, whichever instance runs the venue.
            guard hub.venue(id: venue) != nil else { throw Self.unknownVenue(venue) }
            live = try await relay.subscribe(venue: venue)
        } else {
            guard let subscribed = hub.subscribe(venue: venue) else { throw Self.unknownVenue(venue) }
            live = subscribed
        }
        var stored: [StoredEvent]?
        if let resume {
            stored = try await store.events(venue: venue, after: resume, limit: configuration.streamBacklog)
        }
        let backlog = stored
        let heartbeat = configuration.heartbeatSeconds
        let buffer = configuration.streamBuffer
        let metrics = metrics
        let resumeID = resume
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let body = ResponseBody { writer in
            var lastSent = resumeID ?? 0
            try await writer.write(ByteBuffer(string: ": venue \(venue)\nretry: 2000\n\n"))
            for event in backlog ?? [] {
                try await writer.write(Self.frame(event))
                lastSent = event.id
            }
            // What waits to be written is bounded: a client that stops reading makes the writes wait, its events
            // fill `items`, and once `streamBuffer` are waiting the stream takes no more: the client gets what waits
            // (no gap) and then the end of the stream, and can resume with Last-Event-ID.
            let (items, continuation) = AsyncStream<LiveEvent?>.makeStream(bufferingPolicy: .bufferingOldest(buffer))
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await event in live {
                            if case .dropped = continuation.yield(event) {
                                metrics.streamsDropped.increment()
                                break
                            }
                        }
                        continuation.finish()
                    }
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: .seconds(heartbeat))
                            continuation.yield(nil)
                        }
                    }
                    for await item in items {
                        guard let event = item else {
                            try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                            continue
                        }
                        guard event.stored.id > lastSent else { continue }
                        try await writer.write(Self.frame(event.stored, room: event.room))
                        lastSent = event.stored.id
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

    static func frame(_ event: StoredEvent, room: DeviceRoom? = nil) -> ByteBuffer {
        let data = (try? JSONFormat.encoder().encode(EventEnvelope(event, room: room))) ?? Data("{}".utf8)
        var text = "id: \(event.id)\nevent: \(event.event.type)\ndata: "
        text += String(decoding: data, as: UTF8.self)
        text += "\n\n"
        return ByteBuffer(string: text)
    }
}
