import Foundation
import IndoorModel

/// Floor-plan images: what a floor's image may be, for the routes `PUT/GET/DELETE
/// /v1/venues/{venue}/floors/{level}/image` and `GET/PUT …/image/placement` (``VenueRoutes``; docs/SERVER.md,
/// "Floor-plan images").
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
