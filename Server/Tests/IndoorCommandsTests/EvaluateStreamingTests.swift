import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import Testing

@testable import IndoorCommands

/// `indoor evaluate` reads test/ in one pass, every method fed at once; `indoor calibrate` streams its survey.
@Suite("indoor evaluate and calibrate stream the dataset")
struct EvaluateStreamingTests {
    /// A simulated office written by `indoor simulate` (3 walkers, 60 s); remove it when done.
    static func office() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-eval-\(UUID().uuidString)")
        _ = try SimulateCommand.parse(["--duration", "60", "--devices", "3", "--seed", "3", "-o", folder.path])
            .writeDataset()
        return folder
    }

    /// What `indoor evaluate --json` prints when the scores are made in memory, device by device.
    static func inMemoryJSON(_ folder: URL, methods: [String], limit: Int? = nil) throws -> String {
        var data = try DatasetReader.read(folder: folder)
        if let limit { data.test.truth = Array(data.test.truth.prefix(limit)) }
        let zones = try DatasetReader.readVenue(folder: folder)?.zones ?? []
        return ScoreReport.jsonLines(try MethodComparison.run(dataset: data, methods: methods, zones: zones))
    }

    static func evaluate(_ arguments: [String]) throws -> String {
        try EvaluateCommand.parse(arguments).output()
    }

    @Test func theReportIsThatOfTheInMemoryScores() throws {
        let folder = try Self.office()
        defer { try? FileManager.default.removeItem(at: folder) }
        let methods = ["weighted-centroid", "nonlinear", "knn"]
        let arguments = [folder.path, "--json"] + methods.flatMap { ["--method", $0] }
        #expect(try Self.evaluate(arguments) == Self.inMemoryJSON(folder, methods: methods))
        let data = try DatasetReader.read(folder: folder)
        let survey = try #require(data.train).truth.count
        let table = try Self.evaluate([folder.path, "--method", "nonlinear"]).split(separator: "\n")
        #expect(
            table.first
                == "\(data.name): 14 nodes, \(data.test.truth.count) truth rows scored, survey of \(survey) truth rows")
    }

    @Test func aLimitScoresTheFirstTruthRows() throws {
        let folder = try Self.office()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = try Self.evaluate([folder.path, "--json", "--limit", "25", "--method", "weighted-centroid"])
        #expect(json.hasPrefix(#"{"method":"weighted-centroid","count":25,"#))
        #expect(json == (try Self.inMemoryJSON(folder, methods: ["weighted-centroid"], limit: 25)))
        let table = try Self.evaluate([folder.path, "--limit", "25", "--method", "weighted-centroid"])
        #expect(table.hasPrefix("\(folder.lastPathComponent): 14 nodes, 25 truth rows scored, survey of "))
    }

    @Test func aBadSightingInTheMiddleIsNamedByFileLineAndField() throws {
        let folder = try Self.office()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("test/sightings.csv")
        var lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        let middle = lines.count / 2
        lines[middle] = lines[middle].components(separatedBy: ",").prefix(3).joined(separator: ",") + ",-70dBm"
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        let error = try #require(throws: FormatError.self) {
            try Self.evaluate([folder.path, "--method", "weighted-centroid"])
        }
        #expect(error.description == "test/sightings.csv:\(middle + 1): rssi '-70dBm' is not a number")
    }

    @Test func truthNotSortedByTimeIsScoredInMemoryWithTheSameScores() throws {
        let folder = try Self.office()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sorted = try Self.inMemoryJSON(folder, methods: ["nonlinear"])
        // The same rows grouped by device: not sorted by time.
        let url = folder.appendingPathComponent("test/truth.csv")
        let truth = try DatasetReader.read(folder: folder).test.truth
        let grouped = truth.enumerated().sorted { ($0.element.device, $0.offset) < ($1.element.device, $1.offset) }
        try Data(DatasetCSV.truthText(grouped.map(\.element)).utf8).write(to: url)
        #expect(try Self.evaluate([folder.path, "--json", "--method", "nonlinear"]) == sorted)
        // With a limit, the first rows of the file as it is.
        #expect(
            try Self.evaluate([folder.path, "--json", "--limit", "30", "--method", "nonlinear"])
                == Self.inMemoryJSON(folder, methods: ["nonlinear"], limit: 30))
    }

    @Test func particlesAndSeedSetTheFiltersCloud() throws {
        let folder = try Self.office()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = [folder.path, "--json", "--method", "particle-filter", "--no-survey", "--limit", "60"]
        let standard = try Self.evaluate(arguments)
        let few = try EvaluateCommand.parse(arguments + ["--particles", "50"])
        #expect(try few.engineConfiguration.particles == 50)
        let fewer = try few.output()
        // The same rows scored, by a cloud of 50 particles instead of 1000: other fixes.
        #expect(fewer.hasPrefix(#"{"method":"particle-filter","count":60,"#))
        #expect(fewer != standard)
        // Another seed: other fixes of the same rows, and the same again for the same seed.
        let reseeded = try EvaluateCommand.parse(arguments + ["--filter-seed", "3"])
        #expect(try reseeded.engineConfiguration.particleSeed == 3)
        let other = try reseeded.output()
        #expect(other.hasPrefix(#"{"method":"particle-filter","count":60,"#))
        #expect(other != standard)
        #expect(try reseeded.output() == other)
        do {
            _ = try EvaluateCommand.parse(arguments + ["--particles", "5"])
            Issue.record("--particles 5 was accepted")
        } catch {
            #expect(EvaluateCommand.message(for: error) == "--particles must be 10 to 100000 (got 5)")
        }
    }

    @Test func rowsOfTruthNotSortedByTimeAreWrittenOnceEach() throws {
        let folder = try Self.office()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("test/truth.csv")
        let truth = try DatasetReader.read(folder: folder).test.truth
        let grouped = truth.enumerated().sorted { ($0.element.device, $0.offset) < ($1.element.device, $1.offset) }
        try Data(DatasetCSV.truthText(grouped.map(\.element)).utf8).write(to: url)
        let rows = folder.appendingPathComponent("rows.csv")
        // The one pass meets the unsorted row part way and starts again in memory: the rows it wrote are dropped.
        _ = try Self.evaluate([folder.path, "--json", "--method", "nonlinear", "--rows", rows.path])
        let lines = try String(contentsOf: rows, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == Substring(RowReport.header.dropLast()))
        #expect(lines.count == truth.count + 1)
        let keys = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[1...2] }
        #expect(Set(keys.map { $0.joined(separator: ",") }).count == truth.count)
        let hidden = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty)
    }

    @Test func calibrateStreamsTheSurveyToTheSameCalibration() throws {
        let folder = try Self.office()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (streamed, survey) = try CalibrateCommand.calibrate(folder: folder)
        let (held, summary) = CalibrateCommand.calibrate(try DatasetReader.read(folder: folder))
        #expect(streamed == held)
        #expect(survey.summary(streamed) == summary)
        #expect(streamed.samples.values.reduce(0, +) > 100)
    }
}
