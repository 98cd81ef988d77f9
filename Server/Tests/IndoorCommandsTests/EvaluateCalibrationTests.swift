import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import Testing

@testable import IndoorCommands

/// `indoor evaluate --calibration FILE` uses a calibration from `indoor calibrate` instead of fitting one.
@Suite("indoor evaluate --calibration")
struct EvaluateCalibrationTests {
    static func write(_ calibration: Calibration) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cal-\(UUID().uuidString).json")
        try CalibrateCommand.json(calibration).write(to: url)
        return url
    }

    static func median(_ arguments: [String]) throws -> Double {
        let line = try EvaluateCommand.parse(arguments).output()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try #require(object["median_m"] as? Double)
    }

    @Test func theCalibrationFromCalibrateGivesTheSameScoresAndAWrongOneWorse() throws {
        let dataset = try sharedDataset("kolakowski-flat")
        let data = try DatasetReader.read(folder: URL(fileURLWithPath: dataset))
        let (fitted, _) = CalibrateCommand.calibrate(data)
        let base = [dataset, "--json", "--limit", "150", "--method", "nonlinear"]

        let same = try Self.write(fitted)
        defer { try? FileManager.default.removeItem(at: same) }
        #expect(try Self.median(base + ["--calibration", same.path]) == Self.median(base))

        // Every node 15 dB too strong at 1 m: every range about 5.6 times too long.
        var wrong = fitted
        for (id, node) in wrong.nodes {
            wrong.nodes[id] = NodeCalibration(
                rssiAtOneMeter: node.rssiAtOneMeter + 15, pathLossExponent: node.pathLossExponent)
        }
        wrong.pooled.rssiAtOneMeter += 15
        let bad = try Self.write(wrong)
        defer { try? FileManager.default.removeItem(at: bad) }
        #expect(try Self.median(base + ["--calibration", bad.path]) > Self.median(base) + 0.3)
    }

    @Test func aMissingOrMalformedCalibrationIsOneClearError() throws {
        let dataset = try sharedDataset("kolakowski-flat")
        let missing = try EvaluateCommand.parse([dataset, "--calibration", "/nonexistent/cal.json"])
        #expect(throws: (any Error).self) { try missing.output() }
        do {
            _ = try missing.output()
        } catch {
            #expect("\(error)" == "cannot read calibration '/nonexistent/cal.json': no such file")
        }

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cal-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(#"{"pooled": 3}"#.utf8).write(to: url)
        do {
            _ = try EvaluateCommand.parse([dataset, "--calibration", url.path]).output()
            Issue.record("a malformed calibration was accepted")
        } catch let error as FormatError {
            #expect(error.file == url.path)
            #expect(error.message.contains("pooled") || error.message.contains("nodes"))
        }
    }

    @Test(arguments: ["nonlinear+track", "weighted-centroid+track", "knn"])
    func trackedNamesAreKnown(name: String) throws {
        #expect(MethodCatalog.isKnown(name))
        _ = try EvaluateCommand.parse(["/tmp", "--method", name])
    }

    @Test(arguments: ["+track", "nonlinear+track+track", "no-such", ""])
    func otherNamesAreNot(name: String) {
        #expect(!MethodCatalog.isKnown(name))
    }
}
