import Foundation
import IndoorArchive
import IndoorModel

/// `indoor venue export --imdf`: a venue written as an IMDF archive (a zip), and the summary said of it.
enum VenueIMDFExport {
    /// The archive's entries in the order written: `manifest.json` first, then the GeoJSON files by name.
    static func entries(_ export: IMDFExport) -> [(path: String, data: Data)] {
        let names = export.files.keys.filter { $0 != "manifest.json" }.sorted()
        return (["manifest.json"] + names).compactMap { path in export.files[path].map { (path, $0) } }
    }

    /// Writes `venue` (read from `file`) as an IMDF zip to `output` (the path `path`).
    ///
    /// - Returns: What to print: the counts of the archive, then a line per note of what IMDF does not hold.
    /// - Throws: ``CommandFailure`` naming `file` and the venue's field when the venue cannot be placed on the Earth
    ///   (no anchor), or naming `path` when it cannot be written.
    static func write(_ venue: Venue, to output: OutputFile, path: String, file: String, created: Date) throws -> String
    {
        let export: IMDFExport
        do {
            export = try IMDFExporter.files(of: venue, created: created)
        } catch let error as IMDFExportError {
            throw CommandFailure("\(file): \(error)")
        }
        let zip: Data
        do {
            zip = try ZipWriter.archive(entries(export))
        } catch let error as ZipError {
            throw CommandFailure("\(path): \(error)")
        }
        try output.write(zip)
        func count(_ name: String, _ noun: String) -> String {
            let number =
                export.files[name].flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
                .flatMap { $0["features"] as? [Any] }?.count ?? 0
            return "\(number) \(noun)\(number == 1 ? "" : "s")"
        }
        var text =
            "wrote \(path): IMDF archive of venue '\(venue.id)' (\(venue.name)): \(count("level.geojson", "level")), "
            + "\(count("unit.geojson", "unit")), \(count("opening.geojson", "opening")), "
            + "\(count("geofence.geojson", "geofence"))\n"
        for note in export.notes { text += "note: \(note)\n" }
        return text
    }
}
