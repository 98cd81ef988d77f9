import Foundation
import Hummingbird
import IndoorModel
import NIOCore

extension LocationServer {
    func ingest(_ request: Request) async throws -> Response {
        let body = try await self.body(of: request)
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
        guard hub.venue(id: batch.venue) != nil else { throw Self.unknownVenue(batch.venue, field: "venue") }
        if let elsewhere = try await self.elsewhere(request, venue: batch.venue, body: body) { return elsewhere }
        let sightings = batch.sightings
        /// The batch index of each sighting read.
        let indices = batch.indices
        var errors = batch.errors
        let admission: VenueHub.Admission
        do {
            admission = try await hub.admit(venue: batch.venue, sightings: sightings)
        } catch is VenueElsewhereError {
            // The venue moved while the batch waited: nothing of it was stored; its new owner takes it.
            if let elsewhere = try await self.elsewhere(request, venue: batch.venue, body: body) { return elsewhere }
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
            throw APIError.badRequest(field: first.field, first.message + errorsSuffix(errors.count - 1))
        }
        let answer = try IngestResponse.json(
            venue: batch.venue, accepted: sightings.count - admission.refused.count, rejected: errors.count,
            stored: admission.stored, eventJSON: admission.eventJSON, errors: errors)
        return Self.raw(answer, type: "application/json")
    }

    /// `POST /v1/scans`: the indoor provider's scan over the sightings of the request (``ScanRequest``), answered
    /// with the provider's result JSON (docs/SCAN.md). Nothing is stored: a scan is a question, not an ingest.
    func scan(_ request: Request) async throws -> Response {
        let body = try await self.body(of: request)
        let scan =
            try body.withUnsafeReadableBytes { ScanRequestReader.read($0) } ?? ScanRequest.decode(Data(buffer: body))
        guard scan.items.count <= configuration.maxBatch else {
            throw APIError.tooLarge(
                field: "sightings",
                "\(scan.items.count) sightings in one scan; the limit is \(configuration.maxBatch)")
        }
        let venues = hub.venueIDs.compactMap { hub.venue(id: $0) }
        let result = try scan.run(venues: venues) { venue in try hub.scanSession(venue: venue) }
        return Self.raw(Data(result.json().utf8), type: "application/json")
    }

    func errorsSuffix(_ more: Int) -> String {
        more > 0 ? " (and \(more) more bad sightings; none was accepted)" : ""
    }
}
