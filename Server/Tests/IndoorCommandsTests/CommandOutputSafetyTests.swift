import Foundation
import Testing

@testable import IndoorBenchmarks
@testable import IndoorCommands

/// The data-loss reports of the "Hardening" issue, written against the command line as it was: each of these
/// failed before `OutputFile` (the folder was deleted, the README replaced, the capture overwritten, the scores lost).
@Suite("Commands keep files they did not create")
struct CommandOutputSafetyTests {
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-hardening-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        return url
    }

    @Test func benchDecodeWriteKeepsAFolder() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let data = base.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: data.appendingPathComponent("keep.txt"))
        let command = try BenchDecodeCommand.parse(["--count", "10", "--repeat", "1", "--write", data.path])
        #expect(throws: (any Error).self) { try command.run() }
        #expect(FileManager.default.contents(atPath: data.appendingPathComponent("keep.txt").path) == Data("mine".utf8))
    }

    @Test func simulateKeepsAProjectReadme() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        try Data("my project".utf8).write(to: base.appendingPathComponent("README.md"))
        let command = try SimulateCommand.parse(["--duration", "5", "--devices", "1", "-o", base.path])
        #expect(throws: (any Error).self) { try command.run() }
        #expect(
            FileManager.default.contents(atPath: base.appendingPathComponent("README.md").path)
                == Data("my project".utf8))
    }

    @Test func decodeKeepsItsInput() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let capture = base.appendingPathComponent("capture.log")
        let bytes = Data(try DecodeCommandTests.capture())
        try bytes.write(to: capture)
        let command = try DecodeCommand.parse([capture.path, "--sightings", capture.path, "--quiet"])
        #expect(throws: (any Error).self) { try command.run() }
        #expect(FileManager.default.contents(atPath: capture.path) == bytes)
    }

    @Test func evaluatePlotFolderIsRefusedBeforeScoringInPlainWords() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        var scored = false
        let command = try EvaluateCommand.parse([
            try sharedDataset("kolakowski-flat"), "--limit", "20", "--method", "weighted-centroid", "--plot",
            base.path + "/",
        ])
        let error = try #require(throws: (any Error).self) { _ = try command.output { _, _, _ in scored = true } }
        #expect("\(error)" == "'\(base.path)/' is a folder; expected a file path")
        #expect(!scored)
    }
}
