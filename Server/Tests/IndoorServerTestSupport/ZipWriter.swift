import CZlib
import Foundation

/// Zip archives made in tests (no `zip` tool needed): entries stored or deflated by the system zlib, and IMDF test
/// archives zipped from their folders.
public enum ZipWriter {
    /// How an entry's bytes are kept.
    public enum Method: Sendable {
        case stored
        case deflated
    }

    /// A zip archive of `entries` (path → bytes), in the order given.
    public static func archive(_ entries: [(path: String, data: Data)], method: Method = .deflated) -> Data {
        var archive = [UInt8]()
        var directory = [UInt8]()
        for (path, data) in entries {
            let bytes = [UInt8](data)
            let name = [UInt8](path.utf8)
            let stored = method == .stored ? bytes : deflate(bytes)
            let crc = bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            let code: UInt16 = method == .stored ? 0 : 8
            let offset = archive.count
            archive += le32(0x0403_4b50) + le16(20) + le16(0x0800) + le16(code) + le16(0) + le16(0x21)
            archive += le32(crc) + le32(UInt32(stored.count)) + le32(UInt32(bytes.count))
            archive += le16(UInt16(name.count)) + le16(0) + name + stored
            directory += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0x0800) + le16(code) + le16(0) + le16(0x21)
            directory += le32(crc) + le32(UInt32(stored.count)) + le32(UInt32(bytes.count))
            directory += le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0)
            directory += le32(UInt32(offset)) + name
        }
        let start = archive.count
        archive += directory
        archive += le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        archive += le32(UInt32(directory.count)) + le32(UInt32(start)) + le16(0)
        return Data(archive)
    }

    /// The IMDF test archive `name` (a folder under `Tests/IndoorModelTests/Fixtures/IMDF/`) as a zip, its files
    /// under `folder` (`""` for the top level, or `NAME/`), sorted by name.
    public static func imdf(_ name: String, folder: String = "", method: Method = .deflated) throws -> Data {
        archive(try imdfFiles(name).map { (folder + $0.path, $0.data) }, method: method)
    }

    /// The files of the IMDF test archive `name`, sorted by name.
    public static func imdfFiles(_ name: String) throws -> [(path: String, data: Data)] {
        let folder = RepositoryFiles.url("Tests/IndoorModelTests/Fixtures/IMDF/\(name)")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
            .map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) }
    }

    /// `bytes` as raw deflate data (RFC 1951).
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return [] }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 16)
        let made = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                guard CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END else { return 0 }
                return Int(stream.total_out)
            }
        }
        return Array(output.prefix(made))
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}
