import Foundation
import IndoorGeofencing
import IndoorModel

/// The body of `POST /v1/sightings`: `{"venue": "hq", "sightings": [ … ]}`, each sighting in the JSON Lines
/// object form of docs/FORMATS.md. Each item is read on its own, so a bad item is reported by index and field and
/// the good ones are kept.
///
/// `POST /v1/sightings` reads its body with ``SightingBatchReader``, which gives the same answers in one pass over
/// the bytes; this `JSONDecoder`-based form reads the sightings of `POST /v1/scans` and is the reference the reader is
/// tested and measured against.
package struct SightingBatch: Decodable {
    package var venue: String
    package var items: [Item]

    package struct Item: Decodable {
        package var result: Result<Sighting, ItemError>

        /// An item read otherwise (``SightingBatchReader``).
        package init(result: Result<Sighting, ItemError>) {
            self.result = result
        }

        /// The items of an array ``SightingBatchReader`` read, in the array's order.
        static func items(
            _ read: (sightings: [Sighting], indices: [Int], errors: [ItemError], count: Int)
        ) -> [Item] {
            var items: [Item?] = Array(repeating: nil, count: read.count)
            for (sighting, index) in zip(read.sightings, read.indices) {
                items[index] = Item(result: .success(sighting))
            }
            for error in read.errors { items[error.index] = Item(result: .failure(error)) }
            return items.compactMap { $0 }
        }

        package init(from decoder: any Decoder) throws {
            do {
                result = .success(try Sighting(from: decoder))
            } catch let error as DecodingError {
                let index = decoder.codingPath.last?.intValue ?? 0
                result = .failure(
                    ItemError(
                        index: index, field: JSONFormat.field(of: error) ?? "sightings[\(index)]",
                        message: JSONFormat.describe(error)))
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case venue
        case items = "sightings"
    }

    /// Reads a batch, answering 400 naming the field for a body that is not such an object.
    package static func decode(_ data: Data) throws -> SightingBatch {
        try decodeBody(SightingBatch.self, from: data)
    }
}

/// Reads a request body of type `T`, answering 400 naming the field (`body` for text that is not JSON or not an
/// object, the key for a missing one, the path for a wrong value).
func decodeBody<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    do {
        return try JSONDecoder().decode(T.self, from: data)
    } catch let error as DecodingError {
        let message = JSONFormat.describe(error)
        let field: String
        switch error {
        case .keyNotFound(let key, _): field = key.stringValue
        case .dataCorrupted(let context) where context.codingPath.isEmpty: field = "body"
        default: field = JSONFormat.field(of: error) ?? "body"
        }
        throw APIError.badRequest(field: field, message, code: "invalidJSON")
    }
}

/// The answer to `POST /v1/sightings`.
package struct IngestResponse: Encodable {
    package var venue: String
    /// Sightings accepted and stored.
    package var accepted: Int
    /// Sightings refused (see `errors`).
    package var rejected: Int
    /// The fixes the batch caused.
    package var fixes: [Fix]
    /// The zone events the batch caused.
    package var events: [ZoneEvent]
    /// The id of the last stored event, for `Last-Event-ID`.
    package var lastEventId: Int64?
    /// One entry per refused sighting.
    package var errors: [ItemError]

    package init(
        venue: String, accepted: Int, rejected: Int, fixes: [Fix], events: [ZoneEvent], lastEventId: Int64?,
        errors: [ItemError]
    ) {
        self.venue = venue
        self.accepted = accepted
        self.rejected = rejected
        self.fixes = fixes
        self.events = events
        self.lastEventId = lastEventId
        self.errors = errors
    }
}
