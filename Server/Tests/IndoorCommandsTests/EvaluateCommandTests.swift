import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorServerTestSupport
import Testing

@testable import IndoorCommands

/// `<package root>/datasets/<name>` (vendored), failing with a clear message when absent.
func sharedDataset(_ name: String) throws -> String {
    let url = RepositoryFiles.url("datasets/\(name)")
    try #require(
        FileManager.default.fileExists(atPath: url.appendingPathComponent("nodes.csv").path),
        "shared dataset '\(name)' not found at \(url.path); the repository vendors the datasets in datasets/")
    return url.path
}

@Suite("indoor evaluate")
struct EvaluateCommandTests {
    @Test func jsonLinesHaveExactlyTheDocumentedKeys() throws {
        let command = try EvaluateCommand.parse([
            try sharedDataset("kolakowski-flat"), "--json", "--limit", "120", "--method", "weighted-centroid",
        ])
        let output = try command.output()
        let lines = output.split(separator: "\n")
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.hasPrefix(#"{"method":"weighted-centroid","count":120,"misses":"#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(
            Set(object.keys) == Set(ScoreReport.jsonKeys))
        #expect(
            ScoreReport.jsonKeys == [
                "method", "count", "misses", "mean_m", "median_m", "p90_m", "max_m", "floor_accuracy",
                "radius_coverage",
                "floor_flips_per_hour", "wrong_room_rate", "room_changes_per_hour", "truth_room_changes_per_hour",
                "truth_floor_flips_per_hour", "held_wrong_room_rate", "unknown_room_rate", "held_room_changes_per_hour",
                "estimator", "validated_median_m",
            ])
        #expect(object["wrong_room_rate"] is NSNull)  // kolakowski-flat has no venue.json, so no rooms
        let coverage = try #require(object["radius_coverage"] as? Double)
        #expect(coverage > 0 && coverage <= 1)
        #expect(object["floor_flips_per_hour"] is NSNull)  // kolakowski-flat has no floors
        #expect(object["floor_accuracy"] is NSNull)
        let mean = try #require(object["mean_m"] as? Double)
        let median = try #require(object["median_m"] as? Double)
        let p90 = try #require(object["p90_m"] as? Double)
        let max = try #require(object["max_m"] as? Double)
        #expect(mean > 0.3 && mean < 6)
        #expect(median <= p90 && p90 <= max)
    }

    @Test func tableAndPlot() throws {
        let plot = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: plot) }
        let command = try EvaluateCommand.parse([
            try sharedDataset("kolakowski-flat"), "--limit", "50", "--plot", plot.path, "--method", "weighted-centroid",
            "--no-survey",
        ])
        let lines = try command.output().split(separator: "\n").map(String.init)
        #expect(lines.first == "kolakowski-flat: 6 nodes, 50 truth rows scored, no survey")
        #expect(lines.count >= 4)
        #expect(lines[1].hasPrefix("method"))
        #expect(
            lines[1].split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                == [
                    "method", "count", "misses", "mean m", "median m", "p90 m", "max m", "floor", "flips/h",
                    "in radius",
                ])
        #expect(lines[2].hasPrefix("weighted-centroid"))
        #expect(lines.last == "plot: \(plot.path)")
        let svg = try String(contentsOf: plot, encoding: .utf8)
        #expect(svg.contains("horizontal error (m)"))
    }

    @Test func rowsListEveryScoredRowOfEveryMethodAsTheScoresCountThem() throws {
        let rows = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: rows) }
        let command = try EvaluateCommand.parse([
            try sharedDataset("kolakowski-flat"), "--json", "--limit", "40", "--method", "weighted-centroid",
            "--method", "nonlinear", "--no-survey", "--rows", rows.path,
        ])
        let scores = try command.output().split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let lines = try String(contentsOf: rows, encoding: .utf8).split(separator: "\n")
        #expect(
            lines.first
                == "method,device,t,truth_x,truth_y,truth_floor,x,y,floor,error_m,accuracy_m,within_radius,no_fix")
        let fields = lines.dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        #expect(fields.count == 80)
        #expect(fields.allSatisfy { $0.count == 13 })
        // Row by row, every method's answer to it, in the order given.
        #expect(fields.prefix(4).map { $0[0] } == ["weighted-centroid", "nonlinear", "weighted-centroid", "nonlinear"])
        for (index, name) in ["weighted-centroid", "nonlinear"].enumerated() {
            let mine = fields.filter { $0[0] == name }
            let located = mine.filter { $0[12].isEmpty }
            #expect(mine.count - located.count == scores[index]["misses"] as? Int)
            // The error is the distance between the truth's and the fix's columns, within the millimetre rounding.
            for row in located {
                let values = try [3, 4, 6, 7, 9, 10].map { try #require(Double(row[$0])) }
                #expect(abs(hypot(values[2] - values[0], values[3] - values[1]) - values[4]) < 0.002)
                #expect(row[11] == (values[4] <= values[5] ? "1" : "0"))
            }
            let errors = try located.map { try #require(Double($0[9])) }.sorted()
            let median = (errors[(errors.count - 1) / 2] + errors[errors.count / 2]) / 2
            #expect(abs(median - (scores[index]["median_m"] as? Double ?? .nan)) < 0.002)
            let covered = Double(located.filter { $0[11] == "1" }.count) / Double(located.count)
            #expect(abs(covered - (scores[index]["radius_coverage"] as? Double ?? .nan)) < 0.0001)
        }
    }

    @Test func sightingsOfUnknownNodesAreNoted() throws {
        let beacon = try BeaconID(parsing: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/2")
        let nodes = [
            Node(id: "b1", position: Point3D(x: 0, y: 0, z: 0)),
            Node(id: "b2", beacon: beacon, position: Point3D(x: 1, y: 0, z: 0)),
        ]
        let sightings = [
            Sighting(time: 1, device: "d", node: "b1", rssi: -60),
            Sighting(time: 2, device: "d", source: .beacon(beacon), rssi: -60),
            Sighting(time: 3, device: "d", node: "B1", rssi: -60),
            Sighting(time: 4, device: "d", node: "b9", rssi: -60),
        ]
        var dataset = Dataset(name: "x", nodes: nodes, test: Recording(sightings: sightings, truth: []))
        #expect(
            EvaluateCommand.unknownNodesNote(dataset)
                == "2 of 4 sightings in test/sightings.csv name a node that nodes.csv lacks (first: 'B1'); they are ignored"
        )
        dataset.test.sightings.removeLast(2)
        #expect(EvaluateCommand.unknownNodesNote(dataset) == nil)
    }

    @Test func anUnwritablePlotIsFoundBeforeScoring() throws {
        var scored = false
        let command = try EvaluateCommand.parse([
            try sharedDataset("kolakowski-flat"), "--plot", "/nonexistent-folder/p.svg",
        ])
        let error = try #require(throws: CommandFailure.self) { try command.output { _, _, _ in scored = true } }
        #expect(
            error.description == "cannot write '/nonexistent-folder/p.svg': folder '/nonexistent-folder' does not exist"
        )
        #expect(!scored)
    }

    @Test func aSurveyMethodWithNoSurveySaysWhy() throws {
        let command = try EvaluateCommand.parse([
            try sharedDataset("kolakowski-flat"), "--method", "knn", "--no-survey",
        ])
        let error = try #require(throws: CommandFailure.self) { try command.output() }
        #expect(error.description.hasPrefix("method 'knn' learns from a survey"))
        #expect(error.description.hasSuffix(" (--no-survey leaves train/ unread)"))
    }

    /// Long learning is not silent: the methods' building is reported before the rows are scored.
    @Test func learningFromTheSurveyIsReportedBeforeTheRows() throws {
        let command = try EvaluateCommand.parse([
            try sharedDataset("kolakowski-flat"), "--method", "knn", "--method", "nonlinear", "--limit", "5",
        ])
        var reports: [(task: String, done: Int, total: Int)] = []
        _ = try command.output { reports.append(($0, $1, $2)) }
        let learning = reports.filter { $0.task == "learning from train/" }
        #expect(learning.map(\.done) == [0, 1, 2])
        #expect(learning.allSatisfy { $0.total == 2 })
        let firstRow = try #require(reports.firstIndex { $0.task == "2 methods" })
        #expect(reports.prefix(firstRow).count == learning.count)
    }

    @Test func progressLines() {
        #expect(
            CommandProgress.line(label: "evaluate", task: "knn", done: 110, total: 244) == "evaluate: knn 45% (110/244)"
        )
        #expect(CommandProgress.line(label: "evaluate", task: "knn", done: 0, total: 0) == "evaluate: knn 100% (0/0)")
    }

    @Test func unknownMethodIsRejected() {
        #expect(throws: (any Error).self) {
            try EvaluateCommand.parse(["/tmp", "--method", "no-such-method"])
        }
        #expect(throws: (any Error).self) { try EvaluateCommand.parse(["/tmp", "--limit", "0"]) }
    }

    @Test func missingDatasetNamesThePath() throws {
        let command = try EvaluateCommand.parse(["/nonexistent/dataset"])
        #expect(throws: (any Error).self) { try command.output() }
        do {
            _ = try command.output()
        } catch {
            #expect("\(error)" == "dataset folder '/nonexistent/dataset' does not exist")
        }
    }
}
