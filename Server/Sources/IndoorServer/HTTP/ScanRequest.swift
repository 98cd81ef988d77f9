import Foundation
import IndoorModel
import IndoorSession

/// The body of `POST /v1/scans`, the indoor-provider call over HTTP:
/// `{"geofence": "hq", "sightings": [ … ], "duration": 10, "knownLocation": {"latitude": …, "longitude": …},
/// "device": "phone-1"}`. Only `geofence` and `sightings` are required; each sighting is in the JSON Lines object
/// form of docs/FORMATS.md.
package struct ScanRequest: Decodable {
    /// The geofence to scan: a venue that lists it in `geofences` answers.
    package var geofence: String
    /// The sightings heard during the scan, from a phone or a gateway.
    package var items: [SightingBatch.Item]
    /// Seconds of data time the scan lasts from its first sighting; `nil` for all the sightings given.
    package var duration: Double?
    /// Where the device was at the start of the scan: chooses the venue and seeds the position.
    package var knownLocation: DeviceLocation?
    /// The device to locate; `nil` for the one heard most often.
    package var device: String?

    enum CodingKeys: String, CodingKey {
        case geofence, duration, knownLocation, device
        case items = "sightings"
    }

    /// Reads a request with `JSONDecoder`, answering 400 naming the field for a body that is not such an object:
    /// the reference ``ScanRequestReader`` answers as, and the reader of what it leaves.
    package static func decode(_ data: Data) throws -> ScanRequest {
        try decodeBody(ScanRequest.self, from: data)
    }

    /// The scan this request asks for over `venues`, run to its end: the provider's result.
    ///
    /// - Throws: ``APIError``: 400 for a bad sighting (naming it), no sightings or a duration that is not a positive
    ///   number of seconds; 404 for a geofence no venue serves; 422 when the scan has no answer (nothing of the
    ///   venue heard, too few beacons), with the scan's error code.
    /// - Parameter session: The session a scan of a venue starts from with the default options (shared by a venue's
    ///   scans), or `nil` for one made for this scan alone.
    func run(venues: [Venue], session: (Venue) throws -> LocationSession? = { _ in nil }) throws -> ScanResult {
        var sightings: [Sighting] = []
        for item in items {
            switch item.result {
            case .success(let sighting): sightings.append(sighting)
            case .failure(let error): throw APIError.badRequest(field: error.field, error.message)
            }
        }
        guard !sightings.isEmpty else {
            throw APIError.badRequest(field: "sightings", "a scan needs at least one sighting")
        }
        let times = sightings.map(\.time).filter(\.isFinite)
        // Without a duration the scan covers every sighting given: it never reaches its end, so it answers at the
        // last one.
        let seconds = duration ?? ((times.max() ?? 0) - (times.min() ?? 0) + 1)
        guard seconds.isFinite, seconds > 0, seconds <= IndoorScanProvider.longestScan else {
            throw APIError.badRequest(
                field: "duration",
                "duration must be a number of seconds in 0<…\(Int(IndoorScanProvider.longestScan)), not \(seconds)")
        }
        do {
            let target = try ScanTarget(geofence: geofence, venues: venues, knownLocation: knownLocation)
            let options = IndoorScan.Options(device: device)
            var scan = try IndoorScan(
                target: target, duration: seconds, knownLocation: knownLocation, options: options,
                session: try session(target.venue))
            let ordered = sightings.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            for (_, sighting) in ordered where scan.ingest(sighting) { break }
            scan.finish()
            return try scan.result().get()
        } catch let error as ScanError {
            switch error.code {
            case .unknownGeofence:
                throw APIError.notFound(field: "geofence", error.message)
            case .invalidRequest:
                throw APIError.badRequest(field: "body", error.message)
            default:
                throw APIError(
                    status: .unprocessableContent, code: error.code.name, field: "sightings", message: error.message)
            }
        }
    }
}
