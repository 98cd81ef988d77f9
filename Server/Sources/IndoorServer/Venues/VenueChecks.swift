import Foundation
import IndoorArchive
import IndoorModel

/// What a venue must be for the server to take it, beyond what ``IndoorModel/Venue/decodeJSON(_:file:)`` checks, and
/// the venue a `PUT` body makes: each refusal an ``APIError`` (400) naming the field.
enum VenueChecks {
    /// The longest id of a venue, node, zone or device the server takes, in characters.
    static let maximumIDLength = 128

    /// The venue `json` (docs/FORMATS.md) makes for the path's venue id `id`.
    /// - Throws: ``APIError`` (400) naming the field when the JSON is not a valid venue, its `id` differs from `id`,
    ///   or ``idProblem(_:)`` finds one.
    static func venue(json: Data, id: String) throws -> Venue {
        let venue: Venue
        do {
            venue = try Venue.decodeJSON(json, file: "venue")
        } catch let error as FormatError {
            throw APIError.badRequest(field: error.field ?? "venue", error.message)
        }
        guard venue.id == id else {
            throw APIError.badRequest(
                field: "id", "id '\(venue.id)' differs from the path's venue id '\(id)'; they must be equal")
        }
        if let problem = idProblem(venue) { throw APIError.badRequest(field: problem.field, problem.message) }
        return venue
    }

    /// The venue `id` an IMDF archive (a zip) makes of `current`, the venue as it is: name, floors, rooms (zones),
    /// walls and connections come from the archive; its nodes and SDK geofences stay as they are, and so does its
    /// anchor, which places the archive in the frame the nodes are in (a venue without one takes the IMDF venue's
    /// display point).
    /// - Returns: The venue, and the import's report (what of the archive it does not hold, the choices made).
    /// - Throws: ``APIError`` (400, field `body`) with the words `indoor venue import` would print for a bad archive
    ///   (and, for a body that is one GeoJSON file of an archive, what to send instead); (400, field `nodes`) when
    ///   `current` is `nil` or has no nodes to keep.
    static func venue(imdf zip: Data, id: String, current: Venue?) throws -> IMDFImport {
        let imported: IMDFImport
        do {
            imported = try IMDFArchive.venue(zip: zip, id: id, anchor: current?.anchor)
        } catch let error as ZipError {
            if !IMDFArchive.looksLikeZip(zip), let kind = IMDFArchive.geoJSONKind(zip) {
                throw APIError.badRequest(
                    field: "body",
                    "the body is \(kind) (one file of an IMDF archive, such as venue.geojson), not an IMDF archive: "
                        + "send the whole archive, manifest.json and its .geojson files, as one zip")
            }
            throw APIError.badRequest(field: "body", error.description)
        } catch let error as IMDFError {
            throw APIError.badRequest(field: "body", error.description)
        }
        guard let current, !current.nodes.isEmpty else {
            throw APIError.badRequest(
                field: "nodes",
                "an IMDF archive has no nodes: PUT venue '\(id)' as JSON with its nodes first (or run `indoor venue "
                    + "import` and add them to the file); a zip body then replaces its floors, rooms, walls and "
                    + "connections and keeps its nodes")
        }
        var venue = imported.venue
        venue.nodes = current.nodes
        venue.geofences = current.geofences
        return IMDFImport(venue: venue, report: imported.report)
    }

    /// What makes `venue` one the server does not take, beyond what ``IndoorModel/Venue/decodeJSON(_:file:)`` checks:
    /// no nodes (nothing could ever be located), an id longer than ``maximumIDLength``.
    static func idProblem(_ venue: Venue) -> (field: String, message: String)? {
        func tooLong(_ id: String) -> Bool { id.count > maximumIDLength }
        if tooLong(venue.id) {
            return ("id", "the venue id is \(venue.id.count) characters long; ids have at most \(maximumIDLength)")
        }
        guard !venue.nodes.isEmpty else {
            return (
                "nodes",
                "the venue has no nodes: list where each beacon or gateway is (\"nodes\": [{\"id\": \"n1\", \"x\": 0, "
                    + "\"y\": 0}]), or nothing can be located"
            )
        }
        if let index = venue.nodes.firstIndex(where: { tooLong($0.id) }) {
            return ("nodes[\(index)].id", "node ids have at most \(maximumIDLength) characters")
        }
        if let index = venue.zones.firstIndex(where: { tooLong($0.id) }) {
            return ("zones[\(index)].id", "zone ids have at most \(maximumIDLength) characters")
        }
        return nil
    }
}
