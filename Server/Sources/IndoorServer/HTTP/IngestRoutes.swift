import Foundation
import Hummingbird
import IndoorModel
import NIOCore

/// The ingest routes, with an ingest key: `POST /v1/sightings` (a batch through its venue's session, stored and
/// streamed, answered with what it caused) and `POST /v1/scans` (a question answered from the sightings given, nothing
/// stored). A batch for a venue that runs on another instance of a cluster is sent there (``OwnerForwarder``).
struct IngestRoutes: RouteArea {
    let server: LocationServer

    /// The routes, behind an ingest key.
    func collection() -> RouteCollection<IndoorRequestContext> {
        let routes = RouteCollection(context: IndoorRequestContext.self)
        let ingest = group(of: routes, needing: .ingest)
        ingest.post("/v1/sightings") { request, context in try await sightings(request, context: context) }
        ingest.post("/v1/scans") { request, context in try await scan(request, context: context) }
        return routes
    }

    /// `POST /v1/sightings`: the batch read in one pass (``SightingBatchReader``), admitted by its venue
    /// (``VenueHub/admit(venue:sightings:)``), answered with each stored event's JSON as stored and each refused
    /// item's error; 400 with the first problem when nothing was taken.
    func sightings(_ request: Request, context: IndoorRequestContext) async throws -> Response {
        let body = try await request.bodyBytes(limit: configuration.maxBodyBytes)
        let batch: SightingBatchReader.Batch
        do {
            batch = try body.withUnsafeReadableBytes { try SightingBatchReader.read($0) }
        } catch let error as BatchBodyError {
            throw APIError.badRequest(field: error.field, error.message, code: "invalidJSON")
        }
        guard batch.count <= configuration.maxBatch else {
            throw APIError.tooLarge(
                field: "sightings",
                "\(batch.count) sightings in one batch; the limit is \(configuration.maxBatch): split the batch")
        }
        try KeyAuthenticator.check(context.record.key, venue: batch.venue)
        guard hub.venue(id: batch.venue) != nil else { throw APIError.unknownVenue(batch.venue, field: "venue") }
        if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: batch.venue, body: body) {
            return elsewhere
        }
        let sightings = batch.sightings
        /// The batch index of each sighting read.
        let indices = batch.indices
        var errors = batch.errors
        let admission: VenueHub.Admission
        do {
            admission = try await hub.admit(venue: batch.venue, sightings: sightings)
        } catch is VenueElsewhereError {
            // The venue moved while the batch waited: nothing of it was stored; its new owner takes it.
            if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: batch.venue, body: body) {
                return elsewhere
            }
            admission = try await hub.admit(venue: batch.venue, sightings: sightings)
        }
        for refused in admission.refused {
            let index = indices[refused.index]
            errors.append(
                ItemError(index: index, field: "sightings[\(index)].\(refused.field)", message: refused.message))
        }
        errors.sort { $0.index < $1.index }
        metrics.sightingsRejected.increment(by: errors.count)
        // Nothing taken (every item unreadable or refused): 400 with the first problem.
        if admission.refused.count == sightings.count, let first = errors.first {
            throw APIError.badRequest(field: first.field, first.message + Self.errorsSuffix(errors.count - 1))
        }
        let answer = try IngestResponse.json(
            venue: batch.venue, accepted: sightings.count - admission.refused.count, rejected: errors.count,
            stored: admission.stored, eventJSON: admission.eventJSON, errors: errors)
        return BytesResponse(answer, type: "application/json").response(from: request, context: context)
    }

    /// `POST /v1/scans`: the indoor provider's scan over the sightings of the request (``ScanRequest``), answered
    /// with the provider's result JSON (docs/SCAN.md). Nothing is stored: a scan is a question, not an ingest.
    /// A key limited to venues may not scan (a scan runs over every venue).
    func scan(_ request: Request, context: IndoorRequestContext) async throws -> BytesResponse {
        if let venues = context.record.key?.venues {
            throw APIError(
                status: .forbidden, code: "forbidden", field: "Authorization",
                message: "this key is limited to venues \(venues.joined(separator: ", ")); a scan runs over every venue"
            )
        }
        let body = try await request.bodyBytes(limit: configuration.maxBodyBytes)
        let scan =
            try body.withUnsafeReadableBytes { ScanRequestReader.read($0) } ?? ScanRequest.decode(Data(buffer: body))
        guard scan.items.count <= configuration.maxBatch else {
            throw APIError.tooLarge(
                field: "sightings",
                "\(scan.items.count) sightings in one scan; the limit is \(configuration.maxBatch)")
        }
        let venues = hub.venueIDs.compactMap { hub.venue(id: $0) }
        let result = try scan.run(venues: venues) { venue in try hub.scanSession(venue: venue) }
        return BytesResponse(Data(result.json().utf8), type: "application/json")
    }

    /// The end of the message of a batch refused whole: how many more of its items were bad.
    static func errorsSuffix(_ more: Int) -> String {
        more > 0 ? " (and \(more) more bad sightings; none was accepted)" : ""
    }
}
