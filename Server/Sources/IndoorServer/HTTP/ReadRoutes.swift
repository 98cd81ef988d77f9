import Foundation
import HTTPTypes
import Hummingbird
import IndoorModel

/// The read routes, with a read key: a venue's devices and nodes, its zone activity, and the live stream. A request
/// about a venue that runs on another instance of a cluster is answered by that instance (``OwnerForwarder``).
struct ReadRoutes: RouteArea {
    let server: LocationServer

    struct DeviceList: Encodable {
        var venue: String
        var devices: [DeviceFix]
    }

    /// `GET /v1/venues/{venue}/occupancy`: who is in each zone of the venue now.
    struct Occupancy: Encodable {
        struct ZoneCount: Encodable {
            var zone: String
            var name: String
            /// How many are in the zone: the persons with a device in it (counted once) and the devices of no person
            /// with a visit open in it.
            var count: Int
            /// The devices with a visit open in the zone, sorted.
            var devices: [String]
            /// The persons of the venue with a device in the zone, sorted.
            var persons: [String]
        }

        var venue: String
        var zones: [ZoneCount]
    }

    struct ActivityPage: Encodable {
        var visits: [Visit]
        var nextCursor: String?
    }

    /// The routes, behind a read key.
    func collection() -> RouteCollection<IndoorRequestContext> {
        let routes = RouteCollection(context: IndoorRequestContext.self)
        let read = group(of: routes, needing: .read)
        read.get("/v1/venues/{venue}/devices") { request, context in
            let venue = try context.parameters.require("venue")
            if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: venue) { return elsewhere }
            return try await activeDevices(request, venue: venue).response(from: request, context: context)
        }
        read.get("/v1/venues/{venue}/devices/{device}") { request, context in
            let venue = try context.parameters.require("venue")
            let device = try context.parameters.require("device")
            guard hub.venue(id: venue) != nil else { throw APIError.unknownVenue(venue) }
            if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: venue) { return elsewhere }
            guard let fix = try await store.latestFix(venue: venue, device: device) else {
                throw APIError.notFound(field: "device", "device '\(device)' has no fix in venue '\(venue)'")
            }
            return try JSONResponse(DeviceFix(fix: fix, room: hub.room(venue: venue, device: device)))
                .response(from: request, context: context)
        }
        read.get("/v1/venues/{venue}/nodes") { request, context in
            let venue = try context.parameters.require("venue")
            if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: venue) { return elsewhere }
            guard let nodes = hub.nodeList(venue: venue) else { throw APIError.unknownVenue(venue) }
            return try JSONResponse(nodes).response(from: request, context: context)
        }
        read.get("/v1/venues/{venue}/occupancy") { request, context in
            let venue = try context.parameters.require("venue")
            return try await occupancy(venue: venue).response(from: request, context: context)
        }
        read.get("/v1/activity") { request, _ in try await activity(request) }
        read.get("/v1/stream") { request, _ in try await stream(request) }
        return routes
    }

    /// `GET /v1/venues/{venue}/devices`: the devices with a fix within `within` seconds (default
    /// ``ServerConfiguration/activeWindow``) of the venue's newest fix, each with its held room.
    func activeDevices(_ request: Request, venue: String) async throws -> JSONResponse<DeviceList> {
        guard hub.venue(id: venue) != nil else { throw APIError.unknownVenue(venue) }
        let window = try request.number("within") ?? configuration.activeWindow
        guard window >= 0 else { throw APIError.badRequest(field: "within", "within must be a number of seconds ≥ 0") }
        let all = try await store.devices(venue: venue, since: -Double.greatestFiniteMagnitude)
        let newest = all.map(\.time).max() ?? 0
        let active = all.filter { $0.time >= newest - window }
        return JSONResponse(
            DeviceList(
                venue: venue,
                devices: active.map { DeviceFix(fix: $0, room: hub.room(venue: venue, device: $0.device)) }
            ))
    }

    /// `GET /v1/venues/{venue}/occupancy`: each zone of the venue (in the venue's order) with the devices whose visit
    /// to it is open in the store now, the same on every instance of a cluster (``ZoneOccupancy``'s rule: check-ins
    /// that open no visit, such as geoline crossings, do not count).
    func occupancy(venue: String) async throws -> JSONResponse<Occupancy> {
        guard let known = hub.venue(id: venue) else { throw APIError.unknownVenue(venue) }
        let zones = known.zones
        let owner = known.personOfDevice
        var members: [String: Set<String>] = [:]
        var before: Int64?
        while true {
            let page = try await store.visits(
                VisitQuery(venue: venue, limit: 1000, before: before, openOnly: true))
            for visit in page.visits { members[visit.zone, default: []].insert(visit.device) }
            guard let next = page.nextBefore, next != before, !page.visits.isEmpty else { break }
            before = next
        }
        return JSONResponse(
            Occupancy(
                venue: venue,
                zones: zones.map { zone in
                    let devices = (members[zone.id] ?? []).sorted()
                    let persons = Set(devices.compactMap { owner[$0] }).sorted()
                    let count = persons.count + devices.filter { owner[$0] == nil }.count
                    return Occupancy.ZoneCount(
                        zone: zone.id, name: zone.name, count: count, devices: devices, persons: persons)
                }))
    }

    /// `GET /v1/activity?venue=ID`: the venue's zone visits, newest first, a page at a time (``ActivityCursor``).
    func activity(_ request: Request) async throws -> JSONResponse<ActivityPage> {
        let parameters = request.uri.queryParameters
        guard let venue = parameters.get("venue"), !venue.isEmpty else {
            throw APIError.badRequest(field: "venue", "the query needs venue=ID")
        }
        var known = hub.venue(id: venue) != nil
        if !known { known = try await store.venue(id: venue) != nil }
        guard known else { throw APIError.unknownVenue(venue, field: "venue") }
        let limit = try request.number("limit").map(Int.init) ?? 100
        guard (1...1000).contains(limit) else { throw APIError.badRequest(field: "limit", "limit must be 1…1000") }
        var before: Int64?
        if let cursor = parameters.get("cursor") {
            guard let id = ActivityCursor.decode(cursor) else {
                throw APIError.badRequest(field: "cursor", "cursor '\(cursor)' is not one this server gave out")
            }
            before = id
        }
        let page = try await store.visits(
            VisitQuery(
                venue: venue, zone: parameters.get("zone"), device: parameters.get("device"),
                from: try request.number("from"), to: try request.number("to"), limit: limit,
                before: before))
        return JSONResponse(ActivityPage(visits: page.visits, nextCursor: page.nextBefore.map(ActivityCursor.encode)))
    }

    /// `GET /v1/stream?venue=ID`: the venue's fixes and zone events as Server-Sent Events (``EventStreamResponse``).
    /// A client that sends `Last-Event-ID` (or `?lastEventId=`) first gets the stored events after that id (at most
    /// ``ServerConfiguration/streamBacklog``), then the live ones; the stream subscribes before it reads the backlog.
    /// In a cluster every instance streams from the store (``EventRelay``), whichever instance runs the venue.
    func stream(_ request: Request) async throws -> EventStreamResponse {
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
        // Subscribed first, so that no erasure after the backlog's read is missed.
        let erasures = hub.subscribeErasures()
        let live: AsyncStream<LiveEvent>
        if let relay = server.relay {
            // In a cluster, every instance streams from the store, whichever instance runs the venue.
            guard hub.venue(id: venue) != nil else { throw APIError.unknownVenue(venue) }
            live = try await relay.subscribe(venue: venue)
        } else {
            guard let subscribed = hub.subscribe(venue: venue) else { throw APIError.unknownVenue(venue) }
            live = subscribed
        }
        var backlog: [StoredEvent] = []
        if let resume {
            backlog = try await store.events(venue: venue, after: resume, limit: configuration.streamBacklog)
        }
        return EventStreamResponse(
            venue: venue, resumedAfter: resume, backlog: backlog, live: live, erasures: erasures,
            heartbeatSeconds: configuration.heartbeatSeconds, buffer: configuration.streamBuffer, metrics: metrics)
    }
}

/// The opaque activity cursor: base64url of `v1:<visit id>`.
enum ActivityCursor {
    static func encode(_ id: Int64) -> String {
        Data("v1:\(id)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ cursor: String) -> Int64? {
        var text = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text), let plain = String(data: data, encoding: .utf8),
            plain.hasPrefix("v1:")
        else { return nil }
        return Int64(plain.dropFirst(3))
    }
}
