import Foundation
import IndoorAdvertising
import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import Testing

@testable import IndoorCommands

/// Issue "Hardening": `simulate` streams what it writes; `evaluate` and `calibrate` check a file's header
/// first, read in pieces, and answer clearly when the input cannot give a result.
@Suite("Commands stream their input and say what is wrong with it")
struct CommandInputErrorTests {
    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("indoor-stream-\(UUID().uuidString)")
    }

    static func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        ["--duration", "40", "--devices", "2", "--rooms", "3", "--beacons", "6", "--seed", "11"],
        ["--duration", "30", "--devices", "3", "--floors", "2", "--seed", "7"],
    ])
    func streamedFilesAreTheBytesOfTheInMemoryDataset(arguments: [String]) throws {
        let base = Self.temporaryFolder()
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = base.appendingPathComponent("data")
        let capture = base.appendingPathComponent("office.btsnoop")
        let command = try SimulateCommand.parse(arguments + ["-o", folder.path, "--btsnoop", capture.path])
        let summary = try command.writeDataset()

        let held = try Simulator(options: command.options).run()
        for (path, contents) in try held.files() {
            let written = try Data(contentsOf: folder.appendingPathComponent(path))
            #expect(written == Data(contents.utf8), "\(path)")
        }
        let sightings = held.dataset.test.sightings
        let expected = try BeaconCapture.btsnoop(sightings: held.beaconSightings(sightings))
        #expect(try Data(contentsOf: capture) == Data(expected))
        let counts = held.counts
        #expect(
            summary
                == "wrote \(folder.path): \(held.venue.floors.count) floor\(held.venue.floors.count == 1 ? "" : "s"), "
                + "\(held.venue.nodes.count) beacons; test: \(counts.testSightings) sightings, \(counts.testTruth) "
                + "truth rows; train: \(counts.trainSightings) sightings, \(counts.trainTruth) truth rows\n"
                + "wrote \(capture.path): \(counts.testSightings) advertisements from \(held.venue.nodes.count) beacons\n"
        )
    }

    @Test func aCaptureInsideTheDatasetFolderIsWrittenWithIt() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = folder.appendingPathComponent("captures/office.btsnoop")
        let command = try SimulateCommand.parse(
            ["--duration", "20", "--devices", "2", "--seed", "5", "-o", folder.path, "--btsnoop", capture.path])
        _ = try command.writeDataset()
        let held = try Simulator(options: command.options).run()
        let expected = try BeaconCapture.btsnoop(sightings: held.beaconSightings(held.dataset.test.sightings))
        #expect(try Data(contentsOf: capture) == Data(expected))
    }

    /// A dataset folder with good files, whose `file` is then replaced by `data` (or a folder when nil).
    static func dataset(replacing file: String? = nil, with data: Data? = nil) throws -> URL {
        let folder = temporaryFolder()
        _ = try SimulateCommand.parse(["--duration", "20", "--devices", "1", "--seed", "3", "-o", folder.path])
            .writeDataset()
        if let file {
            let url = folder.appendingPathComponent(file)
            try FileManager.default.removeItem(at: url)
            if let data {
                try data.write(to: url)
            } else {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            }
        }
        return folder
    }

    @Test(arguments: [
        ("test/sightings.csv", "t,device,node,rssi"), ("test/truth.csv", "t,device,x,y,z,floor"),
        ("nodes.csv", "id,x,y,z,floor"),
    ])
    func aLargeFileOfZeroBytesIsRefusedByItsHeader(file: String, header: String) throws {
        let folder = try Self.dataset(replacing: file, with: Data(count: 8 << 20))
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(file).path
        let expected =
            "\(file):1: '\(path)' is not a CSV file of this layout (no line end in its first 64 KiB); "
            + "expected the header row \(header) (the file starts with zero bytes)"
        #expect(Self.failure { _ = try EvaluateCommand.parse([folder.path]).output() } == expected)
        let output = folder.appendingPathComponent("calibration.json")
        #expect(Self.failure { try CalibrateCommand.parse([folder.path, "-o", output.path]).run { _ in } } == expected)
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func folderAndFileMixUpsAreSaidInWords() throws {
        let sightingsFolder = try Self.dataset(replacing: "test/sightings.csv")
        defer { try? FileManager.default.removeItem(at: sightingsFolder) }
        let path = sightingsFolder.appendingPathComponent("test/sightings.csv").path
        #expect(
            Self.failure { _ = try EvaluateCommand.parse([sightingsFolder.path]).output() }
                == "test/sightings.csv: '\(path)' is a folder; expected a CSV file starting with the header "
                + "t,device,node,rssi")

        let testFile = try Self.dataset(replacing: "test", with: Data("not a folder\n".utf8))
        defer { try? FileManager.default.removeItem(at: testFile) }
        #expect(
            Self.failure { _ = try EvaluateCommand.parse([testFile.path]).output() }
                == "'\(testFile.appendingPathComponent("test").path)' is a file; expected a folder holding "
                + "sightings.csv and truth.csv")

        let venueFolder = try Self.dataset(replacing: "venue.json")
        defer { try? FileManager.default.removeItem(at: venueFolder) }
        #expect(
            Self.failure {
                try CalibrateCommand.parse([venueFolder.path, "-o", venueFolder.appendingPathComponent("c.json").path])
                    .run { _ in }
            }
                == "venue.json: '\(venueFolder.appendingPathComponent("venue.json").path)' is a folder; expected the "
                + "venue JSON file (or nothing)")

        let dataset = try Self.dataset()
        defer { try? FileManager.default.removeItem(at: dataset) }
        let nodesFile = dataset.appendingPathComponent("nodes.csv").path
        #expect(
            Self.failure { _ = try EvaluateCommand.parse([nodesFile]).output() }
                == "'\(nodesFile)' is a file, not a dataset folder (nodes.csv, test/, optional train/)")
        #expect(
            Self.failure { _ = try EvaluateCommand.parse([dataset.path, "--calibration", dataset.path]).output() }
                == "calibration '\(dataset.path)' is a folder; expected a calibration JSON file (from "
                + "`indoor calibrate`)")
        #expect(
            Self.failure { _ = try EvaluateCommand.parse([dataset.path, "--calibration", nodesFile]).output() }
                == "calibration '\(nodesFile)' is not a calibration JSON file: it does not start with '{' (write "
                + "one with `indoor calibrate DATASET -o FILE.json`)")
    }

    @Test func calibrateWithNoUsableSurveySampleFailsAndWritesNothing() throws {
        // The survey's sightings name nodes that nodes.csv lacks.
        let folder = try Self.dataset(
            replacing: "train/sightings.csv", with: Data("t,device,node,rssi\n1,survey,elsewhere,-60\n".utf8))
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("calibration.json")
        var printed = ""
        #expect(
            Self.failure { try CalibrateCommand.parse([folder.path, "-o", output.path]).run { printed += $0 } }
                == "\(folder.path): no usable survey samples in train/ (1 sightings, \(try Self.truthRows(folder)) "
                + "truth rows): no sighting names a node of nodes.csv; nothing to calibrate, no file written")
        #expect(printed.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: output.path))

        let empty = try Self.dataset(replacing: "train/sightings.csv", with: Data("t,device,node,rssi\n".utf8))
        defer { try? FileManager.default.removeItem(at: empty) }
        let message = Self.failure {
            try CalibrateCommand.parse([empty.path, "-o", empty.appendingPathComponent("c.json").path]).run { _ in }
        }
        #expect(message?.hasSuffix("train/sightings.csv has no rows; nothing to calibrate, no file written") == true)
    }

    static func truthRows(_ folder: URL) throws -> Int {
        try DatasetCSV.parseTruth(
            String(contentsOf: folder.appendingPathComponent("train/truth.csv"), encoding: .utf8)
        ).rows.count
    }

    @Test func evaluateRefusesACalibrationThatSharesNoNode() throws {
        let dataset = try Self.dataset()
        defer { try? FileManager.default.removeItem(at: dataset) }
        var calibration = Calibration()
        calibration.nodes = ["x1": NodeCalibration(rssiAtOneMeter: -60, pathLossExponent: 2)]
        calibration.samples = ["x1": 40]
        let file = dataset.appendingPathComponent("other.json")
        try CalibrateCommand.json(calibration).write(to: file)
        let message = Self.failure {
            _ = try EvaluateCommand.parse([dataset.path, "--calibration", file.path, "--method", "nonlinear"]).output()
        }
        #expect(
            message
                == "calibration '\(file.path)' shares no node with dataset '\(dataset.lastPathComponent)' (it "
                + "calibrates x1; the dataset has b0-1, b0-10, b0-11, … (14 in all)); calibrate this dataset with "
                + "`indoor calibrate`")
    }
}
