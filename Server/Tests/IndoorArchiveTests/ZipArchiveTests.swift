import Foundation
import IndoorModel
import IndoorServerTestSupport
import Testing

@testable import IndoorArchive

@Suite("Zip archives")
struct ZipArchiveTests {
    let files: [(path: String, data: Data)] = [
        ("manifest.json", Data(#"{"version": "1.0.0"}"#.utf8)),
        ("folder/", Data()),
        ("folder/unit.geojson", Data(String(repeating: "{\"type\": \"Feature\"}\n", count: 200).utf8)),
        ("empty.txt", Data()),
    ]

    @Test(
        "stored and deflated entries read back; folders are left out", arguments: [ZipWriter.Method.stored, .deflated])
    func readsEntries(_ method: ZipWriter.Method) throws {
        let archive = try ZipArchive(try ZipWriter.archive(files, method: method))
        #expect(archive.files.count == 3)
        for (path, data) in files where !path.hasSuffix("/") {
            #expect(archive.files[path] == data, "\(path)")
        }
    }

    @Test("an archive of the test IMDF folder, zipped with everything under one folder, imports as the folder does")
    func imdfInFolder() throws {
        let top = try IMDFArchive.venue(zip: try IMDFTestZip.imdf("two-level"))
        let nested = try IMDFArchive.venue(zip: try IMDFTestZip.imdf("two-level", folder: "example/"))
        #expect(top == nested)
        #expect(top.venue.floors.count == 2)
        #expect(top.report.unusedSummary == "1 fixture, 1 footprint")
    }

    @Test(
        "an entry whose path escapes the archive is refused",
        arguments: ["../etc/passwd", "/abs.json", "a/../../b", "a\\b"])
    func escapingPath(_ path: String) throws {
        // ZipWriter refuses such a path: the archive is written with a harmless name of the same length, renamed after.
        let harmless = String(repeating: "x", count: path.utf8.count)
        var bytes = [UInt8](try ZipWriter.archive([("manifest.json", Data("{}".utf8)), (harmless, Data("x".utf8))]))
        for index in bytes.indices where bytes[index...].starts(with: Array(harmless.utf8)) {
            bytes.replaceSubrange(index..<(index + harmless.utf8.count), with: Array(path.utf8))
        }
        let data = Data(bytes)
        let error = #expect(throws: ZipError.self) { try ZipArchive(data) }
        #expect(error?.entry == path)
        #expect(error?.description.contains("escapes the archive") == true)
    }

    @Test("ZipWriter: the same entries make the same bytes; what deflate would grow is stored")
    func writerBytes() throws {
        let first = try ZipWriter.archive(files)
        #expect(try ZipWriter.archive(files) == first)
        let tiny = [UInt8](try ZipWriter.archive([("a.txt", Data("x".utf8))], method: .deflated))
        #expect(tiny[8] == 0 && tiny[9] == 0, "method 0 (stored) for one byte")
        let large = [UInt8](try ZipWriter.archive([("b.txt", Data(repeating: 0x41, count: 4000))], method: .deflated))
        #expect(large[8] == 8, "method 8 (deflate)")
        #expect(large.count < 200)
    }

    @Test(
        "ZipWriter refuses a path that would escape the archive, and a path given twice",
        arguments: ["../x", "/x", "a/../../b", "a\\b", ""])
    func writerPaths(_ path: String) throws {
        let error = #expect(throws: ZipError.self) { try ZipWriter.archive([(path, Data("x".utf8))]) }
        #expect(error?.entry == path)
        let twice = #expect(throws: ZipError.self) {
            try ZipWriter.archive([("a.json", Data()), ("a.json", Data())])
        }
        #expect(twice?.description == "zip: entry 'a.json': the path is given twice")
    }

    @Test("a corrupt entry is named with its byte offset")
    func corruptEntry() throws {
        var bytes = [UInt8](try ZipWriter.archive(files, method: .deflated))
        // The entry's local header: its name (first met there, before the central directory) follows 30 bytes of header.
        let name = [UInt8]("folder/unit.geojson".utf8)
        let nameAt = try #require(bytes.indices.first { Array(bytes[$0..<min($0 + name.count, bytes.count)]) == name })
        let third = nameAt - 30
        let dataStart = nameAt + name.count
        for index in dataStart..<(dataStart + 8) { bytes[index] = 0xFF }
        let error = #expect(throws: ZipError.self) { try ZipArchive(Data(bytes)) }
        #expect(error?.entry == "folder/unit.geojson")
        #expect(error?.offset == third)
        #expect(
            error?.description.hasPrefix("zip: entry 'folder/unit.geojson' at byte \(third): the deflate data") == true)
    }

    @Test("changed stored bytes fail their CRC-32")
    func crc() throws {
        var bytes = [UInt8](try ZipWriter.archive(files, method: .stored))
        bytes[30 + "manifest.json".utf8.count] ^= 0x01
        let error = #expect(throws: ZipError.self) { try ZipArchive(Data(bytes)) }
        #expect(
            error?.description
                == "zip: entry 'manifest.json' at byte 0: the entry's bytes do not match its CRC-32: it is corrupt")
    }

    @Test("more than the limit uncompressed is refused before inflating")
    func tooLarge() throws {
        let data = try ZipWriter.archive([("big.json", Data(repeating: 0x20, count: 5000))])
        let error = #expect(throws: ZipError.self) { try ZipArchive(data, maximumBytes: 4000) }
        #expect(
            error?.description == "zip: the entries hold 5000 bytes uncompressed, more than the limit of 4000 bytes")
        #expect(throws: Never.self) { try ZipArchive(data, maximumBytes: 5000) }
    }

    @Test("what is not a zip archive, or is cut short, is refused")
    func notZip() throws {
        let json = #expect(throws: ZipError.self) { try ZipArchive(Data(#"{"id": "hq"}"#.utf8)) }
        #expect(json?.description == "zip: not a zip archive: 12 bytes is too short")
        let archive = try ZipWriter.archive(files)
        let cut = #expect(throws: ZipError.self) { try ZipArchive(archive.prefix(archive.count - 30)) }
        #expect(cut?.description == "zip: not a zip archive: it has no end of central directory record")
    }

    @Test("changed bytes anywhere are read or refused, never a crash (2 000 seeded changes of a real archive)")
    func mutations() throws {
        let archive = [UInt8](try IMDFTestZip.imdf("two-level", folder: "site/"))
        var random = SplitMix64(seed: 35)
        var refused = 0
        for _ in 0..<2000 {
            var bytes = archive
            for _ in 0...(random.next() % 4) {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            if random.next() % 8 == 0 { bytes.removeLast(Int(random.next() % 64)) }
            do {
                _ = try ZipArchive(Data(bytes))
            } catch is ZipError {
                refused += 1
            }
        }
        #expect(refused > 1000)
    }
}
