import ArgumentParser
import Foundation
import IndoorAdvertising
import IndoorEvaluation
import IndoorModel
import Testing

@testable import IndoorBenchmarks
@testable import IndoorCommands

/// A fresh temporary folder, removed by `remove()`.
struct Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-safe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

    /// Writes `text` at `relative`, creating folders.
    func put(_ relative: String, _ text: String) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(relative), encoding: .utf8)
    }

    /// Every path under the folder, sorted (hidden temporary files included).
    func listing() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: url.path).sorted()
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The message ArgumentParser prints for an error thrown by `run()`, and the exit status it gives.
private func failure(_ body: () throws -> Void) -> (message: String, status: Int32)? {
    do {
        try body()
        return nil
    } catch {
        return (IndoorCommand.message(for: error), IndoorCommand.exitCode(for: error).rawValue)
    }
}

@Suite("Your files are safe: bench decode --write")
struct BenchDecodeWriteSafetyTests {
    @Test func aFolderIsNotDeleted() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.put("data/keep.txt", "mine\n")
        let command = try BenchDecodeCommand.parse(["--count", "10", "--repeat", "1", "--write", scratch.path("data")])
        let result = failure { try command.run() }
        #expect(result?.message == "'\(scratch.path("data"))' is a folder; expected a file path")
        #expect(result?.status == 1)
        #expect(try scratch.read("data/keep.txt") == "mine\n")
        #expect(try scratch.listing() == ["data", "data/keep.txt"])
    }

    @Test func anExistingFileNeedsForce() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.put("sample.btsnoop", "old")
        let path = scratch.path("sample.btsnoop")
        let command = try BenchDecodeCommand.parse(["--count", "10", "--repeat", "1", "--write", path])
        #expect(failure { try command.run() }?.message == "'\(path)' already exists; pass --force to replace it")
        #expect(try scratch.read("sample.btsnoop") == "old")

        var printed: [String] = []
        try BenchDecodeCommand.parse(["--count", "10", "--repeat", "1", "--write", path, "--force"]).run {
            printed.append($0)
        }
        #expect(printed.count == 1)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.prefix(8) == Data("btsnoop\0".utf8))
        #expect(try scratch.listing() == ["sample.btsnoop"])  // no temporary file left beside it
    }
}

@Suite("Your files are safe: simulate -o")
struct SimulateOutputSafetyTests {
    static let quick = ["--duration", "5", "--devices", "1", "--rooms", "2", "--beacons", "4", "--seed", "3"]

    @Test func aFolderWithFilesIsRefusedAndLeftAsItWas() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.put("project/README.md", "my project\n")
        try scratch.put("project/notes.txt", "notes\n")
        let project = scratch.path("project")
        let command = try SimulateCommand.parse(Self.quick + ["-o", project])
        let result = failure { try command.run() }
        #expect(result?.status == 1)
        #expect(result?.message.hasPrefix("'\(project)' is a folder that is not empty;") == true)
        #expect(try scratch.read("project/README.md") == "my project\n")
        #expect(try scratch.listing() == ["project", "project/README.md", "project/notes.txt"])
    }

    @Test func forceDoesNotReplaceAFolderWithOtherFiles() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.put("project/README.md", "my project\n")
        try scratch.put("project/Sources/main.swift", "print(1)\n")
        let project = scratch.path("project")
        let command = try SimulateCommand.parse(Self.quick + ["-o", project, "--force"])
        let error = try #require(throws: CommandFailure.self) { try command.run() }
        #expect(error.description.hasPrefix("'\(project)' holds 'Sources', which indoor simulate does not write"))
        #expect(
            try scratch.listing() == ["project", "project/README.md", "project/Sources", "project/Sources/main.swift"])
    }

    @Test func forceReplacesAnEarlierDatasetWithNoStaleFiles() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let office = scratch.path("office")
        _ = try SimulateCommand.parse(Self.quick + ["-o", office]).writeDataset()
        let first = try scratch.read("office/test/sightings.csv")
        // Without --force a second run is refused and changes nothing.
        #expect(throws: CommandFailure.self) {
            try SimulateCommand.parse(["--duration", "5", "--devices", "1", "--seed", "4", "-o", office]).run()
        }
        #expect(try scratch.read("office/test/sightings.csv") == first)
        // An empty train/ from an older layout is a folder the command writes; it is replaced too.
        try FileManager.default.removeItem(atPath: scratch.path("office/train/truth.csv"))
        _ = try SimulateCommand.parse(["--duration", "5", "--devices", "1", "--seed", "4", "-o", office, "--force"])
            .writeDataset()
        #expect(try scratch.read("office/test/sightings.csv") != first)
        #expect(
            try scratch.listing() == [
                "office", "office/README.md", "office/nodes.csv", "office/test", "office/test/sightings.csv",
                "office/test/truth.csv", "office/train", "office/train/sightings.csv", "office/train/truth.csv",
                "office/venue.json",
            ])
    }

    @Test func anEmptyFolderIsFine() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path("empty"), withIntermediateDirectories: false)
        _ = try SimulateCommand.parse(Self.quick + ["-o", scratch.path("empty")]).writeDataset()
        #expect(try scratch.read("empty/nodes.csv").hasPrefix("id,x,y,z,floor\n"))
        #expect(try scratch.listing().allSatisfy { !$0.contains(".indoor-") })
    }

    @Test func aFileWhereTheFolderGoesIsAPlainError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.put("x", "file\n")
        let command = try SimulateCommand.parse(Self.quick + ["-o", scratch.path("x")])
        let error = try #require(throws: CommandFailure.self) { try command.writeDataset() }
        #expect(error.description == "'\(scratch.path("x"))' is a file; expected a folder path")
        #expect(try scratch.read("x") == "file\n")
    }

    @Test func anExistingCaptureNeedsForceAndIsCheckedBeforeTheDataset() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.put("office.btsnoop", "old")
        let command = try SimulateCommand.parse(
            Self.quick + ["-o", scratch.path("office"), "--btsnoop", scratch.path("office.btsnoop")])
        let error = try #require(throws: CommandFailure.self) { try command.writeDataset() }
        #expect(error.description == "'\(scratch.path("office.btsnoop"))' already exists; pass --force to replace it")
        #expect(try scratch.listing() == ["office.btsnoop"])  // no dataset written either
    }

    @Test func aCaptureCannotBeADatasetFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let office = scratch.path("office")
        let command = try SimulateCommand.parse(Self.quick + ["-o", office, "--btsnoop", office + "/./nodes.csv"])
        let error = try #require(throws: CommandFailure.self) { try command.writeDataset() }
        #expect(
            error.description.hasSuffix(
                "is also a file of the dataset written to '\(office)'; choose another --btsnoop path"))
        #expect(try scratch.listing().isEmpty)
    }
}

@Suite("Your files are safe: decode --sightings")
struct DecodeSightingsSafetyTests {
    @Test(arguments: ["same", "dot", "link"])
    func theCaptureIsNotOverwritten(spelling: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let capture = Data(try DecodeCommandTests.capture())
        try capture.write(to: scratch.url.appendingPathComponent("capture.log"))
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path("link.csv"), withDestinationPath: scratch.path("capture.log"))
        let output: String
        switch spelling {
        case "dot": output = scratch.url.path + "/sub/.././capture.log"
        case "link": output = scratch.path("link.csv")
        default: output = scratch.path("capture.log")
        }
        let command = try DecodeCommand.parse([
            scratch.path("capture.log"), "--sightings", output, "--quiet", "--force",
        ])
        let result = failure { try command.run() }
        #expect(result?.status == 1)
        #expect(result?.message.hasPrefix("'\(output)' is also an input of this command") == true)
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("capture.log")) == capture)
    }

    @Test func anExistingCsvNeedsForceAndIsReplacedWhole() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Data(try DecodeCommandTests.capture()).write(to: scratch.url.appendingPathComponent("capture.log"))
        try scratch.put("s.csv", "old\n")
        let arguments = [scratch.path("capture.log"), "--sightings", scratch.path("s.csv"), "--quiet"]
        #expect(
            failure { try DecodeCommand.parse(arguments).run() }?.message
                == "'\(scratch.path("s.csv"))' already exists; pass --force to replace it")
        #expect(try scratch.read("s.csv") == "old\n")
        try DecodeCommand.parse(arguments + ["--force"]).run()
        #expect(try scratch.read("s.csv").hasPrefix("t,device,node,rssi,tx\n1700000000.25,hci0,"))
        #expect(try scratch.listing() == ["capture.log", "s.csv"])
    }

    @Test func aFolderIsAPlainError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Data(try DecodeCommandTests.capture()).write(to: scratch.url.appendingPathComponent("capture.log"))
        try scratch.put("out/keep", "k")
        let command = try DecodeCommand.parse([
            scratch.path("capture.log"), "--sightings", scratch.path("out"), "--quiet", "--force",
        ])
        #expect(failure { try command.run() }?.message == "'\(scratch.path("out"))' is a folder; expected a file path")
        #expect(try scratch.listing() == ["capture.log", "out", "out/keep"])
    }

    @Test func aCaptureThatCannotBeReadLeavesNoTemporaryFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.put("notes.txt", "not a capture")
        try scratch.put("s.csv", "old\n")
        let command = try DecodeCommand.parse([
            scratch.path("notes.txt"), "--sightings", scratch.path("s.csv"), "--force",
        ])
        #expect(failure { try command.run() } != nil)
        #expect(try scratch.read("s.csv") == "old\n")
        #expect(try scratch.listing() == ["notes.txt", "s.csv"])
    }
}

@Suite("Your files are safe: evaluate --plot, calibrate -o")
struct EvaluateCalibrateSafetyTests {
    @Test func aPlotFolderIsRefusedBeforeScoring() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.put("plots/keep.svg", "<svg/>")
        var scored = false
        let command = try EvaluateCommand.parse([
            try sharedDataset("kolakowski-flat"), "--limit", "20", "--method", "weighted-centroid",
            "--plot", scratch.path("plots") + "/",
        ])
        let result = failure { _ = try command.output { _, _, _ in scored = true } }
        #expect(result?.message == "'\(scratch.path("plots"))/' is a folder; expected a file path")
        #expect(result?.status == 1)
        #expect(!scored)
        #expect(try scratch.listing() == ["plots", "plots/keep.svg"])
    }

    @Test func scoresArePrintedBeforeAPlotWriteThatFails() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let plot = scratch.path("p.svg")
        let command = try EvaluateCommand.parse([
            try sharedDataset("kolakowski-flat"), "--limit", "20", "--method", "weighted-centroid", "--plot", plot,
        ])
        var printed = ""
        // A folder appears where the plot goes while the methods are scored.
        let error = try #require(throws: CommandFailure.self) {
            try command.output(
                progress: { _, _, _ in
                    try? FileManager.default.createDirectory(atPath: plot, withIntermediateDirectories: false)
                },
                emit: { printed += $0 })
        }
        #expect(error.description == "'\(plot)' is a folder; expected a file path")
        #expect(printed.hasPrefix("kolakowski-flat: 6 nodes, 20 truth rows scored"))
        #expect(printed.contains("\nweighted-centroid "))
        #expect(!printed.contains("plot:"))
        #expect(try scratch.listing() == ["p.svg"])
    }

    @Test func aPlotCannotBeADatasetFile() throws {
        let dataset = try sharedDataset("kolakowski-flat")
        let nodes = dataset + "/./nodes.csv"
        let before = try Data(contentsOf: URL(fileURLWithPath: dataset + "/nodes.csv"))
        let command = try EvaluateCommand.parse([dataset, "--plot", nodes, "--force"])
        let error = try #require(throws: CommandFailure.self) { _ = try command.output() }
        #expect(error.description.hasPrefix("'\(nodes)' is also an input of this command"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dataset + "/nodes.csv")) == before)
    }

    @Test func anExistingRowsFileNeedsForceAndIsCheckedBeforeScoring() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.put("rows.csv", "mine\n")
        var scored = false
        let arguments = [
            try sharedDataset("kolakowski-flat"), "--limit", "10", "--method", "weighted-centroid", "--rows",
            scratch.path("rows.csv"),
        ]
        let refused = failure { _ = try EvaluateCommand.parse(arguments).output { _, _, _ in scored = true } }
        #expect(refused?.message == "'\(scratch.path("rows.csv"))' already exists; pass --force to replace it")
        #expect(!scored)
        #expect(try scratch.read("rows.csv") == "mine\n")
        _ = try EvaluateCommand.parse(arguments + ["--force"]).output()
        #expect(try scratch.read("rows.csv").hasPrefix(RowReport.header))
        #expect(try scratch.listing() == ["rows.csv"])
    }

    @Test func rowsCannotGoToADatasetFileNorToThePlot() throws {
        let dataset = try sharedDataset("kolakowski-flat")
        let truth = dataset + "/test/truth.csv"
        let before = try Data(contentsOf: URL(fileURLWithPath: truth))
        let error = try #require(throws: CommandFailure.self) {
            _ = try EvaluateCommand.parse([dataset, "--rows", truth, "--force"]).output()
        }
        #expect(error.description.hasPrefix("'\(truth)' is also an input of this command"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: truth)) == before)
        do {
            _ = try EvaluateCommand.parse([dataset, "--rows", "x.csv", "--plot", "./x.csv"])
            Issue.record("--plot and --rows naming one file were accepted")
        } catch {
            #expect(
                EvaluateCommand.message(for: error) == "--plot and --rows name the same file 'x.csv'; give each its own"
            )
        }
    }

    @Test func calibrateNeedsForceToReplaceAFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.put("calibration.json", "{}")
        let output = scratch.path("calibration.json")
        let dataset = try sharedDataset("kolakowski-flat")
        let refused = failure { try CalibrateCommand.parse([dataset, "-o", output]).run() }
        #expect(refused?.message == "'\(output)' already exists; pass --force to replace it")
        #expect(try scratch.read("calibration.json") == "{}")
        var printed = ""
        try CalibrateCommand.parse([dataset, "-o", output, "--force"]).run { printed += $0 }
        #expect(printed.hasSuffix("written: \(output)\n"))
        #expect(try scratch.read("calibration.json").contains("\"pooled\""))
        #expect(try scratch.listing() == ["calibration.json"])
    }
}

@Suite("OutputFile")
struct OutputFileTests {
    @Test func aFailedWriteLeavesTheOldFileAndNoTemporaryFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.put("a.txt", "old")
        let file = try OutputFile(path: scratch.path("a.txt"), force: true)
        let writer = try file.open()
        try writer.write(Data("new".utf8))
        #expect(TemporaryFiles.shared.registered.contains(writer.temporaryURL.path))
        #expect(try scratch.listing().count == 2)  // a.txt and the hidden temporary file
        writer.discard()
        #expect(!TemporaryFiles.shared.registered.contains(writer.temporaryURL.path))
        #expect(try scratch.read("a.txt") == "old")
        #expect(try scratch.listing() == ["a.txt"])
    }

    @Test func aHardLinkIsTheSameFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.put("a", "x")
        try FileManager.default.linkItem(atPath: scratch.path("a"), toPath: scratch.path("b"))
        #expect(OutputFile.sameItem(scratch.path("a"), scratch.path("b")))
        #expect(OutputFile.sameItem(scratch.path("a"), scratch.url.path + "/./a"))
        #expect(!OutputFile.sameItem(scratch.path("a"), scratch.path("c")))
    }

    @Test func aPathEndingInASlashIsNotAFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let error = try #require(throws: CommandFailure.self) {
            try OutputFile(path: scratch.path("new") + "/", force: false)
        }
        #expect(error.description == "'\(scratch.path("new"))/' ends with '/', a folder path; expected a file path")
    }

    @Test func reasonsAreInPlainWords() {
        let error = NSError(
            domain: NSCocoaErrorDomain, code: 512,
            userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])
        #expect(CommandFailure.reason(error) == "No space left on device")
    }
}

@Suite("CommandProgress")
struct CommandProgressTests {
    @Test func theLineIsClearedBeforeResults() {
        var written: [String] = []
        let progress = CommandProgress(label: "evaluate", interactive: true, output: { written.append($0) })
        progress.show("evaluate: knn 45% (110/244)")
        progress.finish()
        progress.finish()
        #expect(written == ["\revaluate: knn 45% (110/244)\u{1B}[K", "\r\u{1B}[K"])
    }

    @Test func aLogGetsNoControlCharacters() {
        var written: [String] = []
        let progress = CommandProgress(label: "evaluate", interactive: false, output: { written.append($0) })
        progress.show("evaluate: knn 45% (110/244)")
        progress.finish()
        #expect(written == ["evaluate: knn 45% (110/244)\n"])
    }
}
