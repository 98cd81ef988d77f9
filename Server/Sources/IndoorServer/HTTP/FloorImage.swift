import Foundation
import Hummingbird
import IndoorModel
import NIOCore

/// Floor-plan images: what a floor's image may be, and the routes `PUT/GET/DELETE
/// /v1/venues/{venue}/floors/{level}/image` and `GET/PUT …/image/placement` (docs/SERVER.md, "Floor-plan images").
enum FloorImage {
    /// The largest image taken: 10 MiB.
    static let maximumBytes = 10 << 20

    /// The media type the bytes are, by how they begin: `image/png` (the PNG signature), `image/jpeg` (`FF D8 FF`)
    /// or `image/svg+xml` (text whose first element is `<svg`, after an optional byte-order mark, XML declaration,
    /// comments and doctype); `nil` for anything else.
    static func mediaType(of data: Data) -> String? {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        var text = Substring(String(decoding: data.prefix(4096), as: UTF8.self))
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        while true {
            text = text.drop(while: \.isWhitespace)
            if text.hasPrefix("<?xml") || text.hasPrefix("<!--") || text.hasPrefix("<!DOCTYPE") {
                let end = text.hasPrefix("<!--") ? "-->" : ">"
                guard let close = text.range(of: end) else { return nil }
                text = text[close.upperBound...]
            } else {
                break
            }
        }
        guard text.hasPrefix("<svg"), let after = text.dropFirst(4).first,
            after.isWhitespace || after == ">" || after == "/"
        else { return nil }
        return "image/svg+xml"
    }

    /// What `GET …/image/placement` and the writes answer: the image's type and size and its placement.
    struct Info: Codable, Sendable {
        var venue: String
        var level: Int
        var contentType: String
        var bytes: Int
        var placement: FloorImagePlacement?
        var updatedAt: Double
    }

    static func info(_ image: StoredFloorImage) throws -> Info {
        let placement = try image.placement.map { try JSONDecoder().decode(FloorImagePlacement.self, from: $0) }
        return Info(
            venue: image.venue, level: image.level, contentType: image.contentType, bytes: image.data.count,
            placement: placement, updatedAt: image.updatedAt)
    }
}

/// Where a floor's image lies in the venue's local frame: two points on the image (its pixels, x right and y down
/// from the top-left corner) and the distance between them on the floor (metres) give the scale; `at` is where the
/// first point lies (venue metres) and `rotationDegrees` turns the image's x axis counter-clockwise from the venue's
/// +x axis. A pixel (u, v) lies at `at + R(rotation) · s · (u − u1, −(v − v1))`, s = distance / |p2 − p1|.
struct FloorImagePlacement: Codable, Hashable, Sendable {
    /// Two distinct points on the image, `[[u1, v1], [u2, v2]]` (pixels).
    var imagePoints: [[Double]]
    /// The distance between them on the floor (metres, > 0).
    var distanceMeters: Double
    /// The venue point (metres) under the first image point; `[0, 0]` when not given.
    var at: [Double]
    /// The image's rotation (degrees counter-clockwise, −360…360); 0 when not given.
    var rotationDegrees: Double

    enum CodingKeys: String, CodingKey {
        case imagePoints, distanceMeters, at, rotationDegrees
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        imagePoints = try container.decode([[Double]].self, forKey: .imagePoints)
        distanceMeters = try container.decode(Double.self, forKey: .distanceMeters)
        at = try container.decodeIfPresent([Double].self, forKey: .at) ?? [0, 0]
        rotationDegrees = try container.decodeIfPresent(Double.self, forKey: .rotationDegrees) ?? 0
    }

    /// The placement in `body`, checked.
    /// - Throws: ``APIError`` (400) naming the field that is wrong.
    static func parse(_ body: Data) throws -> FloorImagePlacement {
        let placement: FloorImagePlacement
        do {
            placement = try JSONDecoder().decode(FloorImagePlacement.self, from: body)
        } catch let DecodingError.keyNotFound(key, _) {
            throw APIError.badRequest(field: key.stringValue, "missing field '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let field = context.codingPath.first?.stringValue ?? "body"
            throw APIError.badRequest(field: field, "\(field): expected numbers: \(context.debugDescription)")
        } catch {
            throw APIError.badRequest(
                field: "body",
                "the body is not a placement: {\"imagePoints\": [[u1, v1], [u2, v2]], "
                    + "\"distanceMeters\": d, \"at\": [x, y], \"rotationDegrees\": r}", code: "invalidJSON")
        }
        let limit = LocalFrame.limitMeters
        guard placement.imagePoints.count == 2,
            placement.imagePoints.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isFinite && abs($0) <= 1e6 } })
        else {
            throw APIError.badRequest(
                field: "imagePoints", "imagePoints is two points on the image, [[u1, v1], [u2, v2]], in pixels")
        }
        let (p, q) = (placement.imagePoints[0], placement.imagePoints[1])
        guard hypot(q[0] - p[0], q[1] - p[1]) > 0 else {
            throw APIError.badRequest(field: "imagePoints", "the two image points are the same point; give two apart")
        }
        guard placement.distanceMeters.isFinite, placement.distanceMeters > 0, placement.distanceMeters <= limit else {
            throw APIError.badRequest(
                field: "distanceMeters", "distanceMeters is the distance between the points in metres: > 0, ≤ \(limit)")
        }
        guard placement.at.count == 2, placement.at.allSatisfy({ $0.isFinite && abs($0) <= limit }) else {
            throw APIError.badRequest(field: "at", "at is a point [x, y] in venue metres, within \(limit) m")
        }
        guard placement.rotationDegrees.isFinite, abs(placement.rotationDegrees) <= 360 else {
            throw APIError.badRequest(field: "rotationDegrees", "rotationDegrees is in -360...360")
        }
        return placement
    }
}

extension LocationServer {
    /// The venue and floor level a floor-image route names: the venue exists and, when it lists floors, has the level.
    func floorImageTarget(_ context: some RequestContext) throws -> (venue: String, level: Int) {
        let venue = try context.parameters.require("venue")
        let text = try context.parameters.require("level")
        guard let level = Int(text) else {
            throw APIError.badRequest(field: "level", "level '\(text)' is not an integer floor level")
        }
        guard let stored = hub.venue(id: venue) else { throw Self.unknownVenue(venue) }
        guard stored.floors.isEmpty || stored.floors.contains(where: { $0.level == level }) else {
            throw APIError.notFound(field: "level", "venue '\(venue)' has no floor at level \(level)")
        }
        return (venue, level)
    }

    /// `PUT …/floors/{level}/image`: the body is a PNG, JPEG or SVG image of at most 10 MiB, as its first bytes
    /// say; a declared `Content-Type` must agree. The image's placement, if it had one, stays.
    func putFloorImage(_ request: Request, context: some RequestContext) async throws -> Response {
        let (venue, level) = try floorImageTarget(context)
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: FloorImage.maximumBytes)
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge(field: "body", "the image is larger than \(FloorImage.maximumBytes) bytes (10 MiB)")
        }
        let data = Data(buffer: body)
        guard let type = FloorImage.mediaType(of: data) else {
            throw APIError.badRequest(field: "body", "the body is not a PNG, JPEG or SVG image (by its first bytes)")
        }
        if let declared = request.headers[.contentType]?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased(),
            declared != type, declared != "application/octet-stream"
        {
            throw APIError.badRequest(
                field: "Content-Type", "the body is \(type) by its first bytes, but Content-Type says \(declared)")
        }
        let old = try await store.floorImage(venue: venue, level: level)
        let image = StoredFloorImage(
            venue: venue, level: level, contentType: type, data: data, placement: old?.placement,
            updatedAt: Date().timeIntervalSince1970)
        let created = try await store.putFloorImage(image)
        return try Self.json(try FloorImage.info(image), status: created ? .created : .ok)
    }

    /// `GET …/floors/{level}/image`: the image's bytes, as put. An SVG may not run scripts or load anything.
    func getFloorImage(context: some RequestContext) async throws -> Response {
        let (venue, level) = try floorImageTarget(context)
        guard let image = try await store.floorImage(venue: venue, level: level) else {
            throw APIError.notFound(field: "level", "floor \(level) of venue '\(venue)' has no image")
        }
        var response = Self.raw(image.data, type: image.contentType)
        response.headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.cacheControl] = "no-cache"
        return response
    }

    /// `DELETE …/floors/{level}/image`.
    func deleteFloorImage(context: some RequestContext) async throws -> Response {
        let (venue, level) = try floorImageTarget(context)
        guard try await store.deleteFloorImage(venue: venue, level: level) else {
            throw APIError.notFound(field: "level", "floor \(level) of venue '\(venue)' has no image")
        }
        return Response(status: .noContent)
    }

    /// `GET …/floors/{level}/image/placement`: the image's type, size and placement.
    func floorImageInfo(context: some RequestContext) async throws -> Response {
        let (venue, level) = try floorImageTarget(context)
        guard let image = try await store.floorImage(venue: venue, level: level) else {
            throw APIError.notFound(field: "level", "floor \(level) of venue '\(venue)' has no image")
        }
        return try Self.json(try FloorImage.info(image))
    }

    /// `PUT …/floors/{level}/image/placement`: places the floor's image (``FloorImagePlacement``).
    func placeFloorImage(_ request: Request, context: some RequestContext) async throws -> Response {
        let (venue, level) = try floorImageTarget(context)
        let placement = try FloorImagePlacement.parse(Data(buffer: try await body(of: request)))
        guard var image = try await store.floorImage(venue: venue, level: level) else {
            throw APIError.notFound(field: "level", "floor \(level) of venue '\(venue)' has no image: PUT it first")
        }
        image.placement = try JSONFormat.encoder().encode(placement)
        image.updatedAt = Date().timeIntervalSince1970
        try await store.putFloorImage(image)
        return try Self.json(try FloorImage.info(image))
    }
}
