import Foundation
import IndoorModel

/// IMDF archives as they arrive: a zip file (uploaded, or given to `indoor venue import`) read with ``ZipArchive``
/// and imported with ``IndoorModel/IMDFImporter``.
package enum IMDFArchive {
    /// The media types of a zip body: `application/zip`, and `application/x-zip-compressed` as some browsers send.
    package static let mediaTypes: Set<String> = ["application/zip", "application/x-zip-compressed"]

    /// Imports the IMDF archive in the zip `data`.
    ///
    /// - Parameters:
    ///   - data: The zip archive's bytes.
    ///   - id: The venue id; by default one made of the IMDF venue's name.
    ///   - anchor: The local frame; by default the IMDF venue's display point.
    /// - Throws: ``ZipError`` (a corrupt zip, an entry escaping the archive, more than 50 MB uncompressed) or
    ///   ``IndoorModel/IMDFError`` (the archive's content), each naming where the problem is.
    package static func venue(zip data: Data, id: String? = nil, anchor: GeoAnchor? = nil) throws -> IMDFImport {
        let archive = try ZipArchive(data)
        return try IMDFImporter.venue(from: archive.files, id: id, anchor: anchor)
    }

    /// What kind of GeoJSON `data` is (`a GeoJSON FeatureCollection`, `a GeoJSON Feature`), or `nil` when it is not
    /// GeoJSON: for the error when one file of an archive (`venue.geojson`) is given where the archive is expected.
    package static func geoJSONKind(_ data: Data) -> String? {
        guard let first = data.first(where: { !Set<UInt8>([0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]).contains($0) }),
            first == UInt8(ascii: "{"),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let type = object["type"] as? String, ["FeatureCollection", "Feature"].contains(type)
        else { return nil }
        return "a GeoJSON \(type)"
    }

    /// Whether `data` starts as a zip archive does (`PK\3\4`, or `PK\5\6` for an empty one).
    package static func looksLikeZip(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(4))
        return head == [0x50, 0x4B, 3, 4] || head == [0x50, 0x4B, 5, 6]
    }
}
