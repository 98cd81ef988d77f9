import Foundation
import IndoorArchive
import IndoorModel

/// `indoor venue import`: an IMDF archive (a zip file or a folder) read as a venue, and the summary said of it.
enum VenueImport {
    /// Whether `path` names an IMDF archive rather than a venue file: a folder, or a file ending in `.zip`.
    static func isArchive(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        return isDirectory.boolValue || path.lowercased().hasSuffix(".zip")
    }

    /// The files of the IMDF archive at `path`: a zip file's entries, or a folder's files by their paths in it.
    ///
    /// - Throws: ``CommandFailure`` naming `path`: no such file, a zip that cannot be read (``ZipError``), a folder
    ///   holding more than ``IndoorArchive/ZipArchive/defaultMaximumBytes`` bytes.
    static func files(_ path: String) throws -> [String: Data] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("\(path): no such file or folder; give an IMDF archive (a .zip file or a folder)")
        }
        guard isDirectory.boolValue else {
            let lowered = path.lowercased()
            if lowered.hasSuffix(".geojson") {
                let folder = (path as NSString).deletingLastPathComponent
                throw CommandFailure(
                    "\(path): a single GeoJSON file, not an IMDF archive; give the archive: the folder that holds "
                        + "manifest.json and the .geojson files (\(folder.isEmpty ? "." : folder)) or its .zip")
            }
            let data = try InputFile.contents(path)
            do {
                return try ZipArchive(data).files
            } catch let error as ZipError {
                // GeoJSON under another name (`venue.txt`): the same advice as for a .geojson file.
                if !IMDFArchive.looksLikeZip(data), let kind = IMDFArchive.geoJSONKind(data) {
                    throw CommandFailure(
                        "\(path): \(kind), not an IMDF archive; give the archive: the folder that holds manifest.json "
                            + "and the .geojson files, or its .zip")
                }
                // Any other JSON (an Indoor venue's own file, say): it needs no import.
                if !IMDFArchive.looksLikeZip(data), (try? JSONSerialization.jsonObject(with: data)) != nil {
                    throw CommandFailure(
                        "\(path): a JSON file, not an IMDF archive; an Indoor venue's JSON needs no import (put it with "
                            + "PUT /v1/venues/{id}); give an IMDF archive: a folder with manifest.json, or its .zip")
                }
                throw CommandFailure("\(path): \(error)")
            }
        }
        let folder = URL(fileURLWithPath: path).standardizedFileURL
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { throw CommandFailure("\(path): the folder cannot be read") }
        var files: [String: Data] = [:]
        var total = 0
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(folder.path.count + 1))
            let data = try InputFile.contents(url.path)
            total += data.count
            guard total <= ZipArchive.defaultMaximumBytes else {
                throw CommandFailure(
                    "\(path): the folder holds more than \(ZipArchive.defaultMaximumBytes / 1_000_000) MB; an IMDF "
                        + "archive is far smaller")
            }
            files[relative] = data
        }
        return files
    }

    /// The venue of the IMDF archive at `path`, placed by `anchor` when given (else by the archive's display point).
    ///
    /// - Throws: ``CommandFailure`` naming `path` and, after it, the file, feature and JSON path of the problem.
    static func venue(_ path: String, id: String?, anchor: GeoAnchor? = nil) throws -> IMDFImport {
        let files = try files(path)
        do {
            return try IMDFImporter.venue(from: files, id: id, anchor: anchor)
        } catch let error as IMDFError {
            throw CommandFailure("\(path): \(error)")
        }
    }

    /// What `indoor venue import` says of an import written to `output`: its counts, then what was not used and the
    /// choices made, a line each.
    static func summary(_ imported: IMDFImport, output: String) -> String {
        let venue = imported.venue
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        let rooms = venue.zones.filter { $0.data["imdf"] == "unit" }.count
        let geofences = venue.zones.count - rooms
        var text =
            "wrote \(output): venue '\(venue.id)' (\(venue.name)): \(count(venue.floors.count, "floor")), "
            + "\(count(rooms, "room")), \(count(geofences, "geofence zone")), "
            + "\(count(venue.floors.reduce(0) { $0 + $1.walls.count }, "wall")), "
            + "\(count(venue.connections.count, "connection")), no nodes\n"
        let unused = imported.report.unusedSummary
        text += "not used: \(unused.isEmpty ? "nothing" : unused)\n"
        for file in imported.report.unusedFiles { text += "not used: file \(file)\n" }
        for note in imported.report.groupedNotes { text += "note: \(note)\n" }
        return text
    }
}
