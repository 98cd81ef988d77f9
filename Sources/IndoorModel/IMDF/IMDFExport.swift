import Foundation

/// The result of writing a venue as IMDF: the archive's files, and what of the venue IMDF does not hold.
public struct IMDFExport: Hashable, Sendable {
    /// The archive's files by name (`manifest.json`, `venue.geojson`, `level.geojson`, `unit.geojson`,
    /// `opening.geojson`, and `geofence.geojson` when the venue has geofence zones), each UTF-8 JSON.
    public var files: [String: Data]
    /// What was left out or changed on the way, one sentence each: nodes, circles made polygons, zones on no floor,
    /// walls on no room boundary, the anchor's bearing.
    public var notes: [String]

    /// An export of `files` with `notes`.
    init(files: [String: Data], notes: [String] = []) {
        self.files = files
        self.notes = notes
    }
}
