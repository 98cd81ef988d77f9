import Foundation
import IndoorModel
import Testing

@testable import IndoorCommands

@Suite("indoor simulate")
struct SimulateCommandTests {
    static func contents(of folder: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        for path in [
            "README.md", "venue.json", "nodes.csv", "train/sightings.csv", "train/truth.csv",
            "test/sightings.csv", "test/truth.csv",
        ] {
            files[path] = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
        }
        return files
    }

    @Test func writesIdenticalDatasetsForTheSameSeedThatEvaluateReads() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-sim-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let arguments = ["--duration", "40", "--devices", "2", "--rooms", "3", "--beacons", "6", "--seed", "11"]
        let first = base.appendingPathComponent("a")
        let second = base.appendingPathComponent("b")
        let summary = try SimulateCommand.parse(arguments + ["-o", first.path]).writeDataset()
        #expect(summary.hasPrefix("wrote \(first.path): 1 floor, 6 beacons; test: "))
        _ = try SimulateCommand.parse(arguments + ["-o", second.path]).writeDataset()
        let a = try Self.contents(of: first)
        let b = try Self.contents(of: second)
        #expect(a == b)
        #expect(a["nodes.csv"]?.hasPrefix("id,x,y,z,floor\nb0-1,") == true)
        #expect(a["README.md"]?.contains("seed 11") == true)

        let other = base.appendingPathComponent("c")
        _ = try SimulateCommand.parse(["--duration", "40", "--devices", "2", "--seed", "12", "-o", other.path])
            .writeDataset()
        #expect(try Self.contents(of: other)["test/sightings.csv"] != a["test/sightings.csv"])

        let evaluation = try EvaluateCommand.parse(
            [first.path, "--json", "--method", "weighted-centroid", "--method", "knn"]
        ).output()
        #expect(evaluation.hasPrefix(#"{"method":"#))
        #expect(evaluation.contains(#""count":82,"#))  // 2 walkers × 41 truth rows (0…40 s)
    }

    @Test func badOptionsAreRejected() {
        #expect(throws: (any Error).self) { try SimulateCommand.parse(["-o", "/tmp/x", "--floors", "0"]) }
        #expect(throws: (any Error).self) { try SimulateCommand.parse(["-o", "/tmp/x", "--sigma", "-1"]) }
        #expect(throws: (any Error).self) { try SimulateCommand.parse(["--floors", "2"]) }  // no -o
    }
}

@Suite("indoor simulate --btsnoop")
struct SimulateCaptureTests {
    @Test func writesACaptureThatDecodesBackToTheTestSightings() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-simcap-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let capture = base.appendingPathComponent("office.btsnoop")
        let csv = base.appendingPathComponent("decoded.csv")
        let summary = try SimulateCommand.parse(
            ["--duration", "20", "--devices", "2", "--seed", "5", "-o", base.path, "--btsnoop", capture.path]
        ).writeDataset()
        let written = try String(contentsOf: base.appendingPathComponent("test/sightings.csv"), encoding: .utf8)
        let sightings = try DatasetCSV.parseSightings(written).get()
        #expect(summary.contains("wrote \(capture.path): \(sightings.count) advertisements"))

        var decode = DecodeOutput()
        decode.quiet = true
        decode.sightings = csv
        var problems: [String] = []
        let result = try decode.run(file: capture, output: { _ in }, problems: { problems.append($0) })
        #expect(problems.isEmpty)
        #expect(result.sightings == sightings.count)
        let decoded = try DatasetCSV.parseSightings(try String(contentsOf: csv, encoding: .utf8)).get()
        #expect(Set(decoded.map(\.device)) == ["walker-1", "walker-2"])
        // Every decoded packet names a beacon of the venue by its iBeacon identity.
        let venue = try Venue.decodeJSON(Data(contentsOf: base.appendingPathComponent("venue.json")))
        let identities = Set(venue.nodes.compactMap(\.beacon))
        #expect(decoded.allSatisfy { if case .beacon(let id) = $0.source { identities.contains(id) } else { false } })
    }

    @Test func anOutputUnderAFileIsAClearError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("x".utf8).write(to: file)
        for output in [file.path, file.appendingPathComponent("sub").path] {
            let command = try SimulateCommand.parse(["--duration", "5", "--devices", "1", "-o", output])
            let error = try #require(throws: CommandFailure.self) { try command.writeDataset() }
            let expected =
                output == file.path
                ? "'\(output)' is a file; expected a folder path"
                : "cannot create folder '\(output)': '\(file.path)' is a file"
            #expect(error.description == expected)
        }
    }

    @Test func anUnwritableCapturePathIsAClearError() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-simcap-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let command = try SimulateCommand.parse(
            ["--duration", "5", "--devices", "1", "-o", base.path, "--btsnoop", "/nonexistent-dir/x.btsnoop"])
        let error = try #require(throws: CommandFailure.self) { try command.writeDataset() }
        #expect(
            error.description == "cannot write '/nonexistent-dir/x.btsnoop': folder '/nonexistent-dir' does not exist")
        // A file, not a usage error: ArgumentParser prints the one line and exits with status 1.
        #expect(SimulateCommand.exitCode(for: error) == .failure)
        #expect(SimulateCommand.message(for: error) == error.description)
    }
}
