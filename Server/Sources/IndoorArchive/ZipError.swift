/// Why a zip archive cannot be read: what was wrong, and where (the entry and its byte offset in the archive).
///
/// The description reads `zip: entry 'unit.geojson' at byte 1234: the deflate data is corrupt (invalid block type)`.
package struct ZipError: Error, Hashable, Sendable {
    /// The entry's path in the archive, when the problem is an entry's.
    package var entry: String?
    /// The byte offset in the archive of the record (or entry) that is wrong, when known.
    package var offset: Int?
    /// What was wrong.
    package var message: String

    /// A problem at `offset` (of `entry`) described by `message`.
    package init(entry: String? = nil, offset: Int? = nil, _ message: String) {
        self.entry = entry
        self.offset = offset
        self.message = message
    }
}

extension ZipError: CustomStringConvertible {
    package var description: String {
        var place = "zip"
        if let entry { place += ": entry '\(entry)'" }
        if let offset { place += entry == nil ? ": byte \(offset)" : " at byte \(offset)" }
        return place + ": " + message
    }
}
