import Foundation
import HTTPTypes
import Hummingbird
import IndoorModel

/// Looking back, with a read key: a venue's stored fixes (history playback) and its zones' report. Both read the
/// store, so any instance of a cluster answers them; both are audited (``AuditMiddleware``).
struct HistoryRoutes: RouteArea {
    let server: LocationServer

    /// The fixes per page unless `limit` says otherwise, and the most a page has.
    static let defaultLimit = 1000
    static let maximumLimit = 10_000
    /// The longest `window` of `?at=`, seconds.
    static let maximumWindow = 3600.0

    func collection() -> RouteCollection<IndoorRequestContext> {
        let routes = RouteCollection(context: IndoorRequestContext.self)
        let read = group(of: routes, needing: .read)
        read.get("/v1/venues/{venue}/history") { request, context in
            let venue = try context.parameters.require("venue")
            guard try await isKnown(venue) else { throw APIError.unknownVenue(venue) }
            if request.uri.queryParameters.get("at") != nil {
                return try await instant(request, venue: venue).response(from: request, context: context)
            }
            return try await history(request, venue: venue).response(from: request, context: context)
        }
        read.get("/v1/venues/{venue}/reports/zones") { request, context in
            let venue = try context.parameters.require("venue")
            return try await zoneReport(request, venue: venue).response(from: request, context: context)
        }
        return routes
    }

    /// Whether `venue` is running or stored (a deleted venue's fixes stay in the log, but are not read here).
    func isKnown(_ venue: String) async throws -> Bool {
        if hub.venue(id: venue) != nil { return true }
        return try await store.venue(id: venue) != nil
    }

    /// The venue `id` as running, or as stored.
    func venue(_ id: String) async throws -> Venue {
        if let venue = hub.venue(id: id) { return venue }
        guard let stored = try await store.venue(id: id) else { throw APIError.unknownVenue(id) }
        return try Venue.decodeJSON(stored.json)
    }

    /// A required number parameter.
    func required(_ request: Request, _ name: String, _ hint: String) throws -> Double {
        guard let value = try request.number(name) else {
            throw APIError.badRequest(field: name, "the query needs \(name)=\(hint)", code: "missingValue")
        }
        return value
    }

    /// An optional integer parameter.
    func integer(_ request: Request, _ name: String) throws -> Int? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let value = Int(text) else {
            throw APIError.badRequest(field: name, "\(name) '\(text)' is not an integer")
        }
        return value
    }

    /// `GET /v1/venues/{venue}/history?from=&to=[&device=][&floor=][&limit=][&cursor=]`: one page of the venue's
    /// stored fixes with data times in `from ..< to`, in time order, as NDJSON (a fix per line); when there is more,
    /// a last line `{"kind":"next","cursor":…,"href":…}` and a `Link` header (`rel="next"`) say where the next page
    /// is.
    func history(_ request: Request, venue: String) async throws -> BytesResponse {
        let parameters = request.uri.queryParameters
        let from = try required(request, "from", "SECONDS (data time, the first fix's earliest)")
        let to = try required(request, "to", "SECONDS (data time, after the last fix)")
        guard to > from else { throw APIError.badRequest(field: "to", "to must be after from") }
        let limit = try integer(request, "limit") ?? Self.defaultLimit
        guard (1...Self.maximumLimit).contains(limit) else {
            throw APIError.badRequest(field: "limit", "limit must be an integer 1…\(Self.maximumLimit)")
        }
        let floor = try integer(request, "floor")
        let device = parameters.get("device").map { String($0) }
        if let device, device.isEmpty { throw APIError.badRequest(field: "device", "device must not be empty") }
        var after: FixHistoryPosition?
        if let cursor = parameters.get("cursor") {
            guard let position = FixHistoryPosition(cursor: String(cursor)) else {
                throw APIError.badRequest(field: "cursor", "cursor '\(cursor)' is not one this server gave out")
            }
            after = position
        }
        let page = try await store.fixHistory(
            FixHistoryQuery(
                venue: venue, from: from, to: to, device: device, floor: floor, limit: limit, after: after))
        var body = Data()
        for fix in page.fixes {
            body.append(fix.json)
            body.append(UInt8(ascii: "\n"))
        }
        var headers = HTTPFields()
        if let next = page.next {
            var query = [
                "from=\(Self.queryValue(ZoneReport.number(from)))", "to=\(Self.queryValue(ZoneReport.number(to)))",
                "limit=\(limit)",
            ]
            if let device { query.append("device=\(Self.queryValue(device))") }
            if let floor { query.append("floor=\(floor)") }
            query.append("cursor=\(next.cursor)")
            let href = request.uri.path + "?" + query.joined(separator: "&")
            body.append(
                Data("{\"kind\":\"next\",\"cursor\":\"\(next.cursor)\",\"href\":".utf8)
                    + (try JSONEncoder.sorted.encode(href)) + Data("}\n".utf8))
            if let field = HTTPField.Name("Link") { headers[field] = "<\(href)>; rel=\"next\"" }
        }
        return BytesResponse(body, type: "application/x-ndjson", headers: headers)
    }

    /// `text` percent-encoded as a query value (`+`, `&`, `=` and `#` included).
    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(["+", "&", "=", "#"])) ?? text
    }

    /// `GET /v1/venues/{venue}/history?at=[&window=][&device=][&floor=]`: where the devices were at data time `at`:
    /// each device's latest fix at or before `at` and at most `window` seconds before it (default
    /// ``ServerConfiguration/activeWindow``), as JSON `{"venue", "at", "window", "fixes": […]}`; with `floor`, only
    /// the devices that were on that floor then.
    func instant(_ request: Request, venue: String) async throws -> BytesResponse {
        let parameters = request.uri.queryParameters
        for name in ["from", "to", "cursor", "limit"] where parameters.get(name) != nil {
            throw APIError.badRequest(field: name, "give either at=SECONDS or from and to, not both")
        }
        let at = try required(request, "at", "SECONDS")
        let window = try request.number("window") ?? configuration.activeWindow
        guard window > 0, window <= Self.maximumWindow else {
            throw APIError.badRequest(
                field: "window", "window must be a number of seconds > 0 and ≤ \(ZoneReport.number(Self.maximumWindow))"
            )
        }
        let floor = try integer(request, "floor")
        let device = parameters.get("device").map { String($0) }
        if let device, device.isEmpty { throw APIError.badRequest(field: "device", "device must not be empty") }
        var fixes = try await store.fixes(venue: venue, at: at, window: window, device: device)
        if let floor {
            let decoder = JSONDecoder()
            // A fix with no floor is on every floor.
            fixes = try fixes.filter { (try decoder.decode(Fix.self, from: $0.json).floor ?? floor) == floor }
        }
        var body = Data("{\"at\":\(ZoneReport.number(at)),\"fixes\":[".utf8)
        for (index, fix) in fixes.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(fix.json)
        }
        body.append(Data("],\"venue\":".utf8) + (try JSONEncoder.sorted.encode(venue)))
        body.append(Data(",\"window\":\(ZoneReport.number(window))}".utf8))
        return BytesResponse(body, type: "application/json")
    }

    /// `GET /v1/venues/{venue}/reports/zones?from=&to=[&bucket=hour|day|week]` (``ZoneReport``): JSON, or CSV when
    /// the `Accept` header asks for `text/csv` (or `?format=csv`).
    func zoneReport(_ request: Request, venue id: String) async throws -> BytesResponse {
        let venue = try await venue(id)
        let from = try required(request, "from", "SECONDS (data time, Unix seconds)")
        let to = try required(request, "to", "SECONDS (data time, Unix seconds)")
        let text = request.uri.queryParameters.get("bucket").map { String($0) } ?? ReportBucket.hour.rawValue
        guard let bucket = ReportBucket(rawValue: text) else {
            throw APIError.badRequest(field: "bucket", "bucket '\(text)' is not one of hour, day, week")
        }
        let format = request.uri.queryParameters.get("format").map { String($0) }
        if let format, format != "csv", format != "json" {
            throw APIError.badRequest(field: "format", "format '\(format)' is not one of json, csv")
        }
        let report: ZoneReport
        do {
            report = try await ZoneReport.make(store: store, venue: venue, from: from, to: to, bucket: bucket)
        } catch let error as ZoneReportError {
            throw APIError.badRequest(field: error.field, error.message)
        }
        let accept = request.headers[.accept]?.lowercased() ?? ""
        if format == "csv" || (format == nil && accept.contains("text/csv")) {
            return BytesResponse(Data(report.csv().utf8), type: "text/csv; charset=utf-8; header=present")
        }
        return BytesResponse(try JSONEncoder.sorted.encode(report), type: "application/json")
    }
}
