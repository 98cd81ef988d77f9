import Foundation
import IndoorModel
import Testing

@testable import IndoorEvaluation

/// Dataset CSV files are read in 1 MiB pieces after a check of their first bytes.
@Suite("CSVFileReader")
struct CSVFileReaderTests {
    static func temporaryFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID().uuidString).csv")
        try data.write(to: url)
        return url
    }

    static func reader(_ url: URL) -> CSVFileReader {
        CSVFileReader(name: "test/sightings.csv", url: url)
    }

    @Test func aFileLargerThanOnePieceGivesTheSameRowsAsTheWholeText() throws {
        // About 3 MiB over 3 pieces, with a BOM, CRLF line ends, a blank line and a tx column.
        var text = "\u{FEFF}\r\nt,device,node,rssi,tx\r\n"
        for row in 0..<120_000 {
            text +=
                "\(Double(row) / 10),walker-\(row % 7),b0-\(row % 13),-\(60 + row % 30),\(row % 5 == 0 ? "-59" : "")\r\n"
        }
        let url = try Self.temporaryFile(Data(text.utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(text.utf8.count > 2 * CSVFileReader.chunkSize)
        let streamed = try Self.reader(url).rows(DatasetCSV.sightingsLayout)
        let whole = try DatasetCSV.parseSightings(text).get()
        #expect(streamed.count == 120_000)
        #expect(streamed == whole)
    }

    @Test func aBadRowAfterTheFirstPieceIsNamedByItsLineInTheFile() throws {
        var lines = ["t,device,node,rssi"]
        for row in 0..<100_000 { lines.append("\(row),phone,a,-70") }
        lines[90_000] = "90000,phone,a,loud"
        lines[95_000] = "95000,phone"
        let url = try Self.temporaryFile(Data((lines.joined(separator: "\n") + "\n").utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: FormatError.self) { try Self.reader(url).rows(DatasetCSV.sightingsLayout) }
        do {
            _ = try Self.reader(url).rows(DatasetCSV.sightingsLayout)
        } catch let error as FormatError {
            #expect(error.file == "test/sightings.csv")
            #expect(error.line == 90_001)
            #expect(error.message == "rssi 'loud' is not a number (and 1 more bad row in this file)")
        }
    }

    @Test func aFileOfZeroBytesIsRefusedByItsHeader() throws {
        let url = try Self.temporaryFile(Data(count: 4 << 20))
        defer { try? FileManager.default.removeItem(at: url) }
        let error = try #require(throws: FormatError.self) { try Self.reader(url).rows(DatasetCSV.sightingsLayout) }
        #expect(error.code == .missingColumn)
        #expect(
            error.description
                == "test/sightings.csv:1: '\(url.path)' is not a CSV file of this layout (no line end in its first "
                + "64 KiB); expected the header row t,device,node,rssi (the file starts with zero bytes)")
    }

    @Test func aShortBinaryFileAndAWrongHeaderAreRefused() throws {
        let binary = try Self.temporaryFile(Data([0, 1, 2, 0xFF, 0x0A, 0x31]))
        defer { try? FileManager.default.removeItem(at: binary) }
        let notText = try #require(throws: FormatError.self) {
            try Self.reader(binary).rows(DatasetCSV.sightingsLayout)
        }
        #expect(notText.message.contains("(it is not text); expected the header row t,device,node,rssi"))
        let wrong = try Self.temporaryFile(Data("t,device,x,y,z,floor\n1,d,0,0,,\n".utf8))
        defer { try? FileManager.default.removeItem(at: wrong) }
        let header = try #require(throws: FormatError.self) { try Self.reader(wrong).rows(DatasetCSV.sightingsLayout) }
        #expect(header.description == "test/sightings.csv:1: header has no 'node' column (expected t,device,node,rssi)")
    }

    @Test func aFolderWhereTheFileShouldBeIsSaidInWords() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: FormatError.self) { try Self.reader(folder).rows(DatasetCSV.sightingsLayout) }
        #expect(
            error.description
                == "test/sightings.csv: '\(folder.path)' is a folder; expected a CSV file starting with the header "
                + "t,device,node,rssi")
    }
}
