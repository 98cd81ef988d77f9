import Foundation
import HTTPTypes
import Hummingbird
import IndoorModel

/// A person's data, with an admin key (docs/PRIVACY.md): `DELETE /v1/devices/{device}` erases a device everywhere,
/// `GET /v1/devices/{device}/export` hands its stored data over as NDJSON, a page at a time.
///
/// The device may be named as the server stores it (`anon-…`, `phone-anna`) or as a gateway reports it (an address,
/// an `irk:` id): both the id given and what ingest would have made of it are erased and exported
/// (``DevicePseudonyms/storedIDs(for:)``).
struct DeviceRoutes: RouteArea {
    let server: LocationServer

    /// What `DELETE /v1/devices/{device}` answers.
    struct ErasureResponse: Encodable {
        /// The device as given.
        var device: String
        /// The ids erased: the one given and the one ingest would store it under, when that differs.
        var ids: [String]
        /// The venue the erasure was limited to, if any.
        var venue: String?
        /// How many stored rows of each kind were deleted.
        var erased: DataCounts
    }

    func collection() -> RouteCollection<IndoorRequestContext> {
        let routes = RouteCollection(context: IndoorRequestContext.self)
        let admin = group(of: routes, needing: .admin)
        admin.delete("/v1/devices/{device}") { request, context in try await erase(request, context: context) }
        admin.get("/v1/devices/{device}/export") { request, context in
            try await export(request, context: context)
        }
        return routes
    }

    /// The device of the route, checked.
    private func device(_ context: some RequestContext) throws -> String {
        let device = try context.parameters.require("device")
        guard !device.isEmpty, device.count <= VenueHub.maximumIDLength else {
            throw APIError.badRequest(
                field: "device", "a device id has 1…\(VenueHub.maximumIDLength) characters")
        }
        return device
    }

    /// `DELETE /v1/devices/{device}[?venue=ID]`: ``VenueHub/eraseDevice(_:venue:)`` of each id the device may be
    /// stored under; answered with the counts of rows deleted (200 also when there was nothing).
    func erase(_ request: Request, context: some RequestContext) async throws -> JSONResponse<ErasureResponse> {
        let device = try device(context)
        let venue = request.uri.queryParameters.get("venue")
        if let venue, venue.isEmpty { throw APIError.badRequest(field: "venue", "venue is empty") }
        let ids = hub.pseudonyms.storedIDs(for: device)
        var counts = DataCounts()
        for id in ids { counts = counts + (try await hub.eraseDevice(id, venue: venue)) }
        return JSONResponse(ErasureResponse(device: device, ids: ids, venue: venue, erased: counts))
    }

    /// `GET /v1/devices/{device}/export?from=&to=&limit=&cursor=`: one page of ``DeviceExport`` as NDJSON
    /// (`application/x-ndjson`); when there is more, a last line `{"kind":"next","cursor":…,"href":…}` and a `Link`
    /// header (`rel="next"`) say where the next page is.
    func export(_ request: Request, context: some RequestContext) async throws -> Response {
        let device = try device(context)
        let wanted = try request.number("limit") ?? 1000
        guard wanted >= 1, wanted <= 10_000, wanted == wanted.rounded() else {
            throw APIError.badRequest(field: "limit", "limit must be an integer 1…10000")
        }
        let limit = Int(wanted)
        let from = try request.number("from")
        let to = try request.number("to")
        var cursor = DeviceExport.Cursor.start
        var idIndex = 0
        if let text = request.uri.queryParameters.get("cursor") {
            guard let (index, decoded) = ExportCursor.decode(String(text)) else {
                throw APIError.badRequest(field: "cursor", "cursor '\(text)' is not one this server gave out")
            }
            idIndex = index
            cursor = decoded
        }
        let ids = hub.pseudonyms.storedIDs(for: device)
        var lines: [Data] = []
        var next: (Int, DeviceExport.Cursor)?
        var position: DeviceExport.Cursor? = cursor
        // Each id the device may be stored under, in turn, until the page is full.
        while idIndex < ids.count, let start = position {
            let page = try await DeviceExport(store: store, device: ids[idIndex], from: from, to: to)
                .page(from: start, limit: limit - lines.count)
            lines += page.lines
            if let more = page.next {
                next = (idIndex, more)
                break
            }
            idIndex += 1
            position = .start
            if lines.count >= limit, idIndex < ids.count {
                next = (idIndex, .start)
                break
            }
        }
        var headers = HTTPFields()
        if let next {
            let token = ExportCursor.encode(idIndex: next.0, cursor: next.1)
            var query = "limit=\(limit)&cursor=\(token)"
            // `+` (of `1e+15`) would read as a space in a query.
            if let from { query += "&from=" + "\(from)".replacingOccurrences(of: "+", with: "%2B") }
            if let to { query += "&to=" + "\(to)".replacingOccurrences(of: "+", with: "%2B") }
            let path = request.uri.path
            let href = "\(path)?\(query)"
            lines.append(
                Data("{\"kind\":\"next\",\"cursor\":\"\(token)\",\"href\":".utf8) + (try JSONEncoder().encode(href))
                    + Data("}\n".utf8))
            if let field = HTTPField.Name("Link") { headers[field] = "<\(href)>; rel=\"next\"" }
        }
        var body = Data()
        for line in lines { body.append(line) }
        return BytesResponse(body, type: "application/x-ndjson", headers: headers)
            .response(from: request, context: context)
    }
}

/// The export route's opaque cursor: which of the device's stored ids, then ``DeviceExport/Cursor``'s text.
enum ExportCursor {
    static func encode(idIndex: Int, cursor: DeviceExport.Cursor) -> String {
        "\(idIndex).\(cursor.text)"
    }

    static func decode(_ text: String) -> (Int, DeviceExport.Cursor)? {
        guard let dot = text.firstIndex(of: "."), let index = Int(text[..<dot]), (0...2).contains(index),
            let cursor = DeviceExport.Cursor(text: String(text[text.index(after: dot)...]))
        else { return nil }
        return (index, cursor)
    }
}
