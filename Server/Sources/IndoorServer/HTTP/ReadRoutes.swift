import Foundation
import Hummingbird
import IndoorModel

extension LocationServer {
    struct DeviceList: Encodable {
        var venue: String
        var devices: [DeviceFix]
    }

    func activeDevices(_ request: Request, venue: String) async throws -> Response {
        guard hub.venue(id: venue) != nil else { throw Self.unknownVenue(venue) }
        let window = try Self.number(request, "within") ?? configuration.activeWindow
        guard window >= 0 else { throw APIError.badRequest(field: "within", "within must be a number of seconds ≥ 0") }
        let all = try await store.devices(venue: venue, since: -Double.greatestFiniteMagnitude)
        let newest = all.map(\.time).max() ?? 0
        let active = all.filter { $0.time >= newest - window }
        return try Self.json(
            DeviceList(
                venue: venue,
                devices: active.map { DeviceFix(fix: $0, room: hub.room(venue: venue, device: $0.device)) }
            ))
    }

    struct ActivityPage: Encodable {
        var visits: [Visit]
        var nextCursor: String?
    }

    func activity(_ request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters
        guard let venue = parameters.get("venue"), !venue.isEmpty else {
            throw APIError.badRequest(field: "venue", "the query needs venue=ID")
        }
        var known = hub.venue(id: venue) != nil
        if !known { known = try await store.venue(id: venue) != nil }
        guard known else { throw Self.unknownVenue(venue, field: "venue") }
        let limit = try Self.number(request, "limit").map(Int.init) ?? 100
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
                from: try Self.number(request, "from"), to: try Self.number(request, "to"), limit: limit,
                before: before))
        return try Self.json(ActivityPage(visits: page.visits, nextCursor: page.nextBefore.map(ActivityCursor.encode)))
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
