import Foundation

/// Zip archives written (PKWARE APPNOTE): what ``ZipArchive`` reads, for `indoor venue export --imdf`.
///
/// Entries are stored or deflated by the system zlib, in the order given, UTF-8 names, each dated 1980-01-01 00:00
/// (the zip epoch), so that the same entries always make the same bytes. No ZIP64: at most 65 535 entries, each and
/// the archive under 4 GiB.
package enum ZipWriter {
    /// How an entry's bytes are kept.
    package enum Method: Sendable {
        /// As they are.
        case stored
        /// Raw deflate data (method 8); an entry deflate would make larger is stored instead.
        case deflated
    }

    /// A zip archive of `entries` (path in the archive → bytes), in the order given.
    ///
    /// - Throws: ``ZipError`` for an empty path, a path that escapes the archive (as ``ZipArchive`` refuses it), a
    ///   path given twice, or more than the format holds without ZIP64.
    package static func archive(_ entries: [(path: String, data: Data)], method: Method = .deflated) throws -> Data {
        guard entries.count <= Int(UInt16.max) else {
            throw ZipError("\(entries.count) entries are more than a zip archive without ZIP64 holds (65 535)")
        }
        var archive = [UInt8]()
        var directory = [UInt8]()
        var seen = Set<String>()
        for (path, data) in entries {
            guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"),
                !path.split(separator: "/").contains("..")
            else { throw ZipError(entry: path, "an entry's path must stay inside the archive") }
            guard seen.insert(path).inserted else { throw ZipError(entry: path, "the path is given twice") }
            let bytes = [UInt8](data)
            let name = [UInt8](path.utf8)
            var code: UInt16 = 0
            var kept = bytes
            if method == .deflated, let deflated = Deflate.raw(bytes), deflated.count < bytes.count {
                code = 8
                kept = deflated
            }
            let offset = archive.count
            guard bytes.count < Int(UInt32.max), offset + kept.count + name.count + 30 < Int(UInt32.max),
                name.count <= Int(UInt16.max)
            else {
                throw ZipError(entry: path, "the archive would be 4 GiB or more, more than zip without ZIP64 holds")
            }
            let crc = Inflate.crc32(bytes)
            // Version 2.0, UTF-8 names (bit 11), the method, time 00:00, date 1980-01-01.
            let common = le16(20) + le16(0x0800) + le16(code) + le16(0) + le16(0x21)
            let sizes = le32(crc) + le32(UInt32(kept.count)) + le32(UInt32(bytes.count)) + le16(UInt16(name.count))
            archive += le32(0x0403_4b50) + common + sizes + le16(0) + name + kept
            directory += le32(0x0201_4b50) + le16(20) + common + sizes + le16(0) + le16(0) + le16(0) + le16(0)
            directory += le32(0) + le32(UInt32(offset)) + name
        }
        let start = archive.count
        guard start + directory.count + 22 < Int(UInt32.max) else {
            throw ZipError("the archive would be 4 GiB or more, more than zip without ZIP64 holds")
        }
        archive += directory
        archive += le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        archive += le32(UInt32(directory.count)) + le32(UInt32(start)) + le16(0)
        return Data(archive)
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    private static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}
