import Foundation
import Hummingbird
import IndoorArchive
import IndoorModel
import NIOCore

/// The venue routes: `GET /v1/venues` and `GET /v1/venues/{venue}` (with a read key), `PUT` and `DELETE
/// /v1/venues/{venue}` (with an admin key), and each floor's plan image (``FloorImage``: read with a read key,
/// written with an admin key).
struct VenueRoutes: RouteArea {
    let server: LocationServer

    struct VenueSummary: Encodable {
        var id: String
        var name: String
        var floors: [Int]
        var nodes: Int
        var zones: Int
        /// Whether the venue's site survey is learned (``VenueHub/surveyState(venue:)``).
        var survey: SurveyState
        /// Once the survey is learned: the estimator it chose and its cross-validated median error (absent before,
        /// and where the venue runs on another instance).
        var surveyValidation: SurveyValidation?
        /// In a cluster: the id of the instance its session runs on; absent while it moves (and for a server alone).
        var owner: String?
        /// How many devices the venue's session holds now (heard within its device memory, or still in a zone);
        /// absent where the venue's session runs on another instance.
        var devices: Int?
    }

    struct VenueList: Encodable {
        var venues: [VenueSummary]
    }

    /// The answer of `GET /v1/venues/{venue}`: the venue's JSON as stored, and beside its fields `devices`, how many
    /// devices its session holds now (as in ``VenueSummary``; absent where the session runs on another instance). A
    /// venue PUT back with it is the same venue: a venue's JSON has no field `devices`, and unknown fields are ignored.
    struct VenueAnswer: Encodable {
        var venue: Venue
        var devices: Int?

        private enum Key: String, CodingKey { case devices }

        func encode(to encoder: any Encoder) throws {
            try venue.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encodeIfPresent(devices, forKey: .devices)
        }
    }

    /// The routes, each behind the key it needs.
    func collection() -> RouteCollection<IndoorRequestContext> {
        let routes = RouteCollection(context: IndoorRequestContext.self)
        let read = group(of: routes, needing: .read)
        let admin = group(of: routes, needing: .admin)
        read.get("/v1/venues") { _, context in
            // A key limited to venues lists those only.
            let key = context.record.key
            return JSONResponse(
                VenueList(
                    venues: try await store.venues().filter { key?.allows(venue: $0.id) ?? true }.map {
                        try summary($0)
                    }))
        }
        read.get("/v1/venues/{venue}") { _, context in
            let id = try context.parameters.require("venue")
            guard let stored = try await store.venue(id: id) else { throw APIError.unknownVenue(id) }
            let answer = VenueAnswer(venue: try Venue.decodeJSON(stored.json), devices: hub.heldDevices(venue: id))
            return BytesResponse(try JSONFormat.encoder(pretty: true).encode(answer), type: "application/json")
        }
        admin.put("/v1/venues/{venue}") { request, context in try await putVenue(request, context: context) }
        admin.delete("/v1/venues/{venue}") { request, context in try await deleteVenue(request, context: context) }
        read.get("/v1/venues/{venue}/floors/{level}/image") { _, context in try await floorImage(context: context) }
        read.get("/v1/venues/{venue}/floors/{level}/image/placement") { _, context in
            try await floorImageInfo(context: context)
        }
        admin.put("/v1/venues/{venue}/floors/{level}/image") { request, context in
            try await putFloorImage(request, context: context)
        }
        admin.delete("/v1/venues/{venue}/floors/{level}/image") { _, context in
            try await deleteFloorImage(context: context)
        }
        admin.put("/v1/venues/{venue}/floors/{level}/image/placement") { request, context in
            try await placeFloorImage(request, context: context)
        }
        return routes
    }

    func summary(_ stored: StoredVenue) throws -> VenueSummary {
        let venue = try Venue.decodeJSON(stored.json)
        return VenueSummary(
            id: venue.id, name: venue.name, floors: venue.floors.map(\.level), nodes: venue.nodes.count,
            zones: venue.zones.count, survey: hub.surveyState(venue: venue.id),
            surveyValidation: hub.surveyValidation(venue: venue.id),
            owner: hub.cluster == nil ? nil : hub.owner(of: venue.id)?.id, devices: hub.heldDevices(venue: venue.id))
    }

    /// The answer of a zip `PUT`: the venue as stored and, beside its fields, `imdfImport`: what the venue does not
    /// hold of the archive and the choices made (``IndoorModel/IMDFReport``, its notes grouped). A venue PUT back with
    /// it is the same venue: unknown fields are ignored.
    struct IMDFPutAnswer: Encodable {
        var venue: Venue
        var report: IMDFReport

        struct Summary: Encodable {
            /// The notes, alike ones merged (``IndoorModel/IMDFReport/groupedNotes``).
            var notes: [String]
            /// Features with no place in a venue, by feature type.
            var unusedFeatures: [String: Int]
            /// Files of the archive not read.
            var unusedFiles: [String]
        }

        private enum Key: String, CodingKey { case imdfImport }

        func encode(to encoder: any Encoder) throws {
            try venue.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(
                Summary(
                    notes: report.groupedNotes, unusedFeatures: report.unusedFeatures, unusedFiles: report.unusedFiles),
                forKey: .imdfImport)
        }
    }

    /// `PUT /v1/venues/{venue}`: a zip body is an IMDF archive (docs/SERVER.md); anything else is the venue's JSON.
    /// Answered with the venue as stored (for a zip, with the import's notes in `imdfImport`), 201 when it is new.
    func putVenue(_ request: Request, context: some RequestContext) async throws -> BytesResponse {
        let id = try context.parameters.require("venue")
        let body = Data(buffer: try await request.bodyBytes(limit: configuration.maxBodyBytes))
        if !request.isZip, IMDFArchive.looksLikeZip(body) {
            throw APIError.badRequest(
                field: "body",
                "the body is a zip archive, not venue JSON: send an IMDF archive with Content-Type: application/zip"
            )
        }
        let status: (Bool) -> HTTPResponse.Status = { $0 ? .created : .ok }
        if request.isZip {
            let (venue, created, report) = try await hub.putVenue(id: id, imdf: body)
            let answer = IMDFPutAnswer(venue: venue, report: report)
            return BytesResponse(
                try JSONFormat.encoder(pretty: true).encode(answer), type: "application/json", status: status(created))
        }
        do {
            let (venue, created) = try await hub.putVenue(id: id, json: body)
            return BytesResponse(try venue.encodeJSON(), type: "application/json", status: status(created))
        } catch let error as APIError {
            // One file of an IMDF archive sent as venue JSON: say what to send.
            guard let kind = IMDFArchive.geoJSONKind(body) else { throw error }
            throw APIError.badRequest(
                field: "body",
                "the body is \(kind) (one file of an IMDF archive, such as venue.geojson), not venue JSON: to import "
                    + "IMDF, send the whole archive as a zip with Content-Type: application/zip")
        }
    }

    /// `DELETE /v1/venues/{venue}[?purge=true]`: the venue's open visits are closed either way (204); with `purge`
    /// its data goes too, and the counts are answered (200, ``VenueDeletion``).
    func deleteVenue(_ request: Request, context: some RequestContext) async throws -> Response {
        let id = try context.parameters.require("venue")
        let purge: Bool
        switch request.uri.queryParameters.get("purge") {
        case nil, "false": purge = false
        case "true": purge = true
        case let other?: throw APIError.badRequest(field: "purge", "purge '\(other)' is not true or false")
        }
        guard let deletion = try await hub.deleteVenue(id: id, purge: purge) else { throw APIError.unknownVenue(id) }
        guard purge else { return Response(status: .noContent) }
        return try JSONResponse(deletion).response(from: request, context: context)
    }

    // MARK: Floor images

    /// The venue and floor level a floor-image route names: the venue exists and, when it lists floors, has the level.
    func floorImageTarget(_ context: some RequestContext) throws -> (venue: String, level: Int) {
        let venue = try context.parameters.require("venue")
        let text = try context.parameters.require("level")
        guard let level = Int(text) else {
            throw APIError.badRequest(field: "level", "level '\(text)' is not an integer floor level")
        }
        guard let stored = hub.venue(id: venue) else { throw APIError.unknownVenue(venue) }
        guard stored.floors.isEmpty || stored.floors.contains(where: { $0.level == level }) else {
            throw APIError.notFound(field: "level", "venue '\(venue)' has no floor at level \(level)")
        }
        return (venue, level)
    }

    /// `PUT …/floors/{level}/image`: the body is a PNG, JPEG or SVG image of at most 10 MiB, as its first bytes
    /// say; a declared `Content-Type` must agree. The image's placement, if it had one, stays.
    func putFloorImage(_ request: Request, context: some RequestContext) async throws -> JSONResponse<FloorImage.Info> {
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
        return JSONResponse(try FloorImage.info(image), status: created ? .created : .ok)
    }

    /// `GET …/floors/{level}/image`: the image's bytes, as put. An SVG may not run scripts or load anything.
    func floorImage(context: some RequestContext) async throws -> BytesResponse {
        let (venue, level) = try floorImageTarget(context)
        guard let image = try await store.floorImage(venue: venue, level: level) else {
            throw APIError.notFound(field: "level", "floor \(level) of venue '\(venue)' has no image")
        }
        return BytesResponse(
            image.data, type: image.contentType,
            headers: [
                .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; sandbox",
                .xContentTypeOptions: "nosniff", .cacheControl: "no-cache",
            ])
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
    func floorImageInfo(context: some RequestContext) async throws -> JSONResponse<FloorImage.Info> {
        let (venue, level) = try floorImageTarget(context)
        guard let image = try await store.floorImage(venue: venue, level: level) else {
            throw APIError.notFound(field: "level", "floor \(level) of venue '\(venue)' has no image")
        }
        return JSONResponse(try FloorImage.info(image))
    }

    /// `PUT …/floors/{level}/image/placement`: places the floor's image (``FloorImagePlacement``).
    func placeFloorImage(_ request: Request, context: some RequestContext) async throws -> JSONResponse<FloorImage.Info>
    {
        let (venue, level) = try floorImageTarget(context)
        let placement = try FloorImagePlacement.parse(
            Data(buffer: try await request.bodyBytes(limit: configuration.maxBodyBytes)))
        guard var image = try await store.floorImage(venue: venue, level: level) else {
            throw APIError.notFound(field: "level", "floor \(level) of venue '\(venue)' has no image: PUT it first")
        }
        image.placement = try JSONFormat.encoder().encode(placement)
        image.updatedAt = Date().timeIntervalSince1970
        try await store.putFloorImage(image)
        return JSONResponse(try FloorImage.info(image))
    }
}
