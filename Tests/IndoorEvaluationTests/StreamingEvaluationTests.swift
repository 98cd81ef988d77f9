import Foundation
import IndoorModel
import IndoorPositioning
import Testing

@testable import IndoorEvaluation

/// Scoring in one pass over test/ (sightings and truth merged by time) gives the scores of the in-memory path.
@Suite("Streaming evaluation")
struct StreamingEvaluationTests {
    /// A folder of the simulated office (3 walkers, 90 s, seeded), written for a test; remove it when done.
    static func simulatedFolder(seed: UInt64 = 11) throws -> URL {
        var options = SimulatorTests.small(seed: seed)
        options.duration = 90
        options.devices = 3
        return try write(Simulator(options: options).run().files())
    }

    /// Writes `files` (relative path, contents) into a new temporary folder.
    static func write(_ files: [(path: String, contents: String)]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString)")
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.contents.utf8).write(to: url)
        }
        return folder
    }

    /// `methods` scored on the dataset at `folder` streamed, and in memory with the same first `limit` truth rows.
    static func bothWays(
        _ folder: URL, methods: [String], limit: Int? = nil, includeSurvey: Bool = true
    ) throws -> (streamed: [MethodScore], inMemory: [MethodScore], rows: Int) {
        var opened = try DatasetReader.open(folder: folder, includeSurvey: includeSurvey)
        let (streamed, rows) = try MethodComparison.run(streaming: &opened, methods: methods, limit: limit)
        var data = try DatasetReader.read(folder: folder, includeSurvey: includeSurvey)
        if let limit { data.test.truth = Array(data.test.truth.prefix(limit)) }
        let zones = try DatasetReader.readVenue(folder: folder)?.zones ?? []
        return (streamed, try MethodComparison.run(dataset: data, methods: methods, zones: zones), rows)
    }

    @Test(arguments: [("kolakowski-flat", true), ("uji-library", true), ("danis-tetam", false), ("openhps-room", true)])
    func aVendoredSliceScoresTheSameBothWays(name: String, survey: Bool) throws {
        let methods = ["weighted-centroid", "nonlinear"] + (survey ? ["knn"] : [])
        let both = try Self.bothWays(
            try SharedDatasets.folder(name), methods: methods, limit: 300, includeSurvey: survey)
        #expect(both.rows == 300)
        #expect(both.streamed.map(\.method) == methods)
        #expect(both.streamed.allSatisfy { $0.summary.count == 300 })
        #expect(both.streamed == both.inMemory)
    }

    @Test func aSimulatedOfficeScoresTheSameBothWays() throws {
        let folder = try Self.simulatedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // `auto` too gives the same scores, but tunes itself for minutes in a debug build: see README "Performance".
        let methods = ["weighted-centroid", "nonlinear", "knn", "nonlinear+track"]
        let both = try Self.bothWays(folder, methods: methods)
        let truthRows = try DatasetReader.read(folder: folder).test.truth.count
        #expect(both.rows == truthRows)
        #expect(both.streamed.allSatisfy { $0.summary.count == truthRows && $0.errors.count > truthRows / 2 })
        #expect(both.streamed == both.inMemory)
    }

    @Test func aBadRowStopsTheStreamNamingFileLineAndField() throws {
        let folder = try Self.simulatedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("test/sightings.csv")
        var lines = try String(contentsOf: url, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let middle = lines.count / 2
        var fields = lines[middle].split(separator: ",", omittingEmptySubsequences: false)
        fields[3] = "loud"
        lines[middle] = fields.joined(separator: ",")[...]
        lines[middle + 10] = "1,phone"
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        var opened = try DatasetReader.open(folder: folder)
        let error = try #require(throws: FormatError.self) {
            try MethodComparison.run(streaming: &opened, methods: ["weighted-centroid"])
        }
        #expect(
            error.description
                == "test/sightings.csv:\(middle + 1): rssi 'loud' is not a number (and 1 more bad row in this file)")
        // The whole-file reader says the same.
        #expect(throws: error) { try DatasetReader.read(folder: folder) }
    }

    @Test func rowsOutOfTimeOrderAreRefusedNamingTheFileAndLine() throws {
        let folder = try Self.simulatedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The truth grouped by device: still a valid dataset, but not sorted by time.
        let data = try DatasetReader.read(folder: folder)
        let byDevice = data.test.truth.enumerated()
            .sorted { ($0.element.device, $0.offset) < ($1.element.device, $1.offset) }.map(\.element)
        let firstBack = try #require(byDevice.indices.dropFirst().first { byDevice[$0].time < byDevice[$0 - 1].time })
        try Data(DatasetCSV.truthText(byDevice).utf8).write(to: folder.appendingPathComponent("test/truth.csv"))
        var opened = try DatasetReader.open(folder: folder)
        let error = try #require(throws: FormatError.self) {
            try MethodComparison.run(streaming: &opened, methods: ["weighted-centroid"])
        }
        #expect(error.code == .unsorted)
        #expect(error.file == "test/truth.csv")
        #expect(error.line == firstBack + 2)
        #expect(
            error.message
                == "t \(DatasetCSV.number(byDevice[firstBack].time)) is earlier than the row before it "
                + "(t \(DatasetCSV.number(byDevice[firstBack - 1].time))): the rows are not sorted by time")
        // In memory, the row order does not matter.
        let grouped = try DatasetReader.read(folder: folder)
        #expect(
            try MethodComparison.run(dataset: grouped, methods: ["weighted-centroid"])
                == MethodComparison.run(dataset: data, methods: ["weighted-centroid"]))
    }

    @Test func aLimitReadsNoFurtherThanItsRows() throws {
        let folder = try Self.simulatedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A bad last sighting: not reached with a limit, reported without one.
        let url = folder.appendingPathComponent("test/sightings.csv")
        let total = try DatasetReader.read(folder: folder).test.sightings.count
        try Data((try String(contentsOf: url, encoding: .utf8) + "9999,phone,b1,loud\n").utf8).write(to: url)
        var opened = try DatasetReader.open(folder: folder)
        var read = 0
        let (scores, rows) = try MethodComparison.run(
            streaming: &opened, methods: ["weighted-centroid"], limit: 40, observe: { _ in read += 1 })
        #expect(rows == 40)
        #expect(scores.first?.summary.count == 40)
        #expect(read > 0 && read < total / 2)
        var whole = try DatasetReader.open(folder: folder)
        #expect(throws: FormatError.self) {
            try MethodComparison.run(streaming: &whole, methods: ["weighted-centroid"])
        }
    }

    @Test func aStreamHandsOutTheRowsOfTheWholeFileWithTheirLines() throws {
        let folder = try Self.write([
            ("nodes.csv", "id,x,y,z,floor\na,0,0,,\n"),
            ("test/sightings.csv", "\u{FEFF}\r\nt,device,node,rssi\r\n1,d,a,-70\r\n\r\n2,d,a,-71\r\n3,d,a,-72"),
            ("test/truth.csv", "t,device,x,y,z,floor\n"),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        var stream = try DatasetReader.sightings(folder: folder, split: "test")
        var seen: [(Double, Int)] = []
        while let row = try stream.next() { seen.append((row.time, stream.line)) }
        #expect(seen.map(\.0) == [1, 2, 3])
        #expect(seen.map(\.1) == [3, 5, 6])
        #expect(try stream.next() == nil)
        #expect(stream.bytesRead == stream.size)
        var truth = try DatasetReader.truth(folder: folder, split: "test")
        #expect(try truth.readAll().isEmpty)
    }
}
