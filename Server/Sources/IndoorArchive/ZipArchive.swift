import Foundation

/// The files of a zip archive (PKWARE APPNOTE: the central directory, stored and deflate entries), read within
/// bounds.
///
/// Only what an uploaded archive needs: one disk, no ZIP64, no encryption. Limits hold before anything is inflated:
/// at most ``maximumEntries`` entries and ``maximumBytes`` bytes uncompressed in all (as the central directory
/// declares them, and never more is inflated). Every entry's path must stay inside the archive (no `..`, no leading
/// `/`, no `\`), appear once, and its bytes must match their CRC-32.
package struct ZipArchive: Sendable {
    /// The most bytes the entries may hold in all, uncompressed: 50 MB.
    package static let defaultMaximumBytes = 50_000_000
    /// The most entries an archive may have: 10 000.
    package static let maximumEntries = 10_000

    /// The files, by their path in the archive (folders left out).
    package var files: [String: Data]

    /// Reads the archive `data`.
    ///
    /// - Parameters:
    ///   - data: The archive's bytes.
    ///   - maximumBytes: The most the entries may hold in all, uncompressed.
    /// - Throws: ``ZipError`` naming the entry and the byte offset of what is wrong.
    package init(_ data: Data, maximumBytes: Int = defaultMaximumBytes) throws {
        let bytes = [UInt8](data)
        let directory = try Self.endOfDirectory(bytes)
        var entries: [Entry] = []
        var total = 0
        var offset = directory.offset
        for _ in 0..<directory.count {
            let entry = try Entry(bytes, at: offset)
            offset = entry.next
            total += entry.size
            entries.append(entry)
        }
        // What the entries declare is checked before anything is inflated; inflating never makes more.
        guard total <= maximumBytes else {
            let limit = maximumBytes >= 1_000_000 ? "\(maximumBytes / 1_000_000) MB" : "\(maximumBytes) bytes"
            throw ZipError("the entries hold \(total) bytes uncompressed, more than the limit of \(limit)")
        }
        var files: [String: Data] = [:]
        for entry in entries where !entry.name.hasSuffix("/") {
            guard files[entry.name] == nil else {
                throw ZipError(entry: entry.name, offset: entry.offset, "the archive has two entries of this path")
            }
            files[entry.name] = Data(try entry.contents(of: bytes))
        }
        self.files = files
    }

    /// Where the central directory is, and how many entries it has.
    private static func endOfDirectory(_ bytes: [UInt8]) throws -> (offset: Int, count: Int) {
        // The end record is 22 bytes and a comment of up to 65 535.
        guard bytes.count >= 22 else { throw ZipError("not a zip archive: \(bytes.count) bytes is too short") }
        let earliest = max(0, bytes.count - 22 - 65_535)
        var at = bytes.count - 22
        while at >= earliest, read32(bytes, at) != 0x0605_4b50 { at -= 1 }
        guard at >= earliest else {
            throw ZipError("not a zip archive: it has no end of central directory record")
        }
        let count = Int(read16(bytes, at + 10))
        let size = Int(read32(bytes, at + 12))
        let offset = Int(read32(bytes, at + 16))
        guard read16(bytes, at + 4) == 0, read16(bytes, at + 6) == 0, Int(read16(bytes, at + 8)) == count else {
            throw ZipError(offset: at, "a zip archive on several disks is not supported")
        }
        guard count != 0xFFFF, size != 0xFFFF_FFFF, offset != 0xFFFF_FFFF else {
            throw ZipError(offset: at, "ZIP64 archives are not supported (an IMDF archive needs no ZIP64)")
        }
        guard count <= maximumEntries else {
            throw ZipError(offset: at, "the archive has \(count) entries; at most \(maximumEntries) are read")
        }
        guard offset + size <= at else {
            throw ZipError(
                offset: at, "the central directory (\(size) bytes at byte \(offset)) lies outside the archive")
        }
        return (offset, count)
    }

    /// One central directory record, and where its data is.
    private struct Entry {
        var name: String
        /// The offset of its local header.
        var offset: Int
        var method: UInt16
        var crc: UInt32
        var compressedSize: Int
        var size: Int
        /// The offset of the next central directory record.
        var next: Int

        init(_ bytes: [UInt8], at record: Int) throws {
            guard record + 46 <= bytes.count, read32(bytes, record) == 0x0201_4b50 else {
                throw ZipError(offset: record, "expected a central directory record")
            }
            let flags = read16(bytes, record + 8)
            method = read16(bytes, record + 10)
            crc = read32(bytes, record + 16)
            compressedSize = Int(read32(bytes, record + 20))
            size = Int(read32(bytes, record + 24))
            let nameLength = Int(read16(bytes, record + 28))
            let extraLength = Int(read16(bytes, record + 30))
            let commentLength = Int(read16(bytes, record + 32))
            offset = Int(read32(bytes, record + 42))
            next = record + 46 + nameLength + extraLength + commentLength
            guard next <= bytes.count else {
                throw ZipError(offset: record, "the central directory record runs past the end of the archive")
            }
            let raw = bytes[(record + 46)..<(record + 46 + nameLength)]
            // UTF-8 (flag bit 11, or any valid UTF-8); else code page 437's ASCII part, each other byte as '?'.
            name =
                String(bytes: raw, encoding: .utf8)
                ?? String(decoding: raw.map { $0 < 0x80 ? $0 : 0x3F }, as: UTF8.self)
            if let problem = Self.pathProblem(name) { throw ZipError(entry: name, offset: offset, problem) }
            guard flags & 1 == 0 else {
                throw ZipError(entry: name, offset: offset, "encrypted entries are not supported")
            }
            guard compressedSize != 0xFFFF_FFFF, size != 0xFFFF_FFFF else {
                throw ZipError(entry: name, offset: offset, "ZIP64 entries are not supported")
            }
        }

        /// Why `name` cannot be a file of the archive: a path that escapes it.
        static func pathProblem(_ name: String) -> String? {
            if name.isEmpty { return "an entry without a path" }
            if name.hasPrefix("/") || name.contains("\\") || name.contains("\0")
                || name.split(separator: "/", omittingEmptySubsequences: false).contains("..")
            {
                return "the path escapes the archive (a leading '/', '\\' or a '..' part); refused"
            }
            if name.count > 1, name.dropFirst().first == ":" {
                return "the path escapes the archive (a drive); refused"
            }
            return nil
        }

        /// The entry's bytes, inflated and checked against its CRC-32.
        func contents(of bytes: [UInt8]) throws -> [UInt8] {
            guard offset + 30 <= bytes.count, read32(bytes, offset) == 0x0403_4b50 else {
                throw ZipError(entry: name, offset: offset, "expected a local file header")
            }
            let start = offset + 30 + Int(read16(bytes, offset + 26)) + Int(read16(bytes, offset + 28))
            guard start + compressedSize <= bytes.count else {
                throw ZipError(entry: name, offset: offset, "the entry's data runs past the end of the archive")
            }
            let data = bytes[start..<(start + compressedSize)]
            let contents: [UInt8]
            switch method {
            case 0:
                guard compressedSize == size else {
                    throw ZipError(
                        entry: name, offset: offset, "a stored entry of \(compressedSize) bytes declares \(size)")
                }
                contents = Array(data)
            case 8:
                switch Inflate.raw(data, size: size) {
                case .success(let inflated): contents = inflated
                case .failure(let failure): throw ZipError(entry: name, offset: offset, failure.reason)
                }
            default:
                throw ZipError(
                    entry: name, offset: offset,
                    "compression method \(method) is not supported (only stored and deflate)")
            }
            guard Inflate.crc32(contents) == crc else {
                throw ZipError(entry: name, offset: offset, "the entry's bytes do not match its CRC-32: it is corrupt")
            }
            return contents
        }
    }
}

private func read16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
    guard at >= 0, at + 2 <= bytes.count else { return 0 }
    return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
}

private func read32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    guard at >= 0, at + 4 <= bytes.count else { return 0 }
    return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
}
