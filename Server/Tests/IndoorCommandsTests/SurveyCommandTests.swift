import ArgumentParser
import Foundation
import IndoorModel
import IndoorServer
import IndoorServerTestSupport
import Testing

@testable import IndoorCommands

/// `indoor survey import|export|check` on a SQLite database and a real dataset (datasets/openhps-room).
@Suite("indoor survey")
struct SurveyCommandTests {
    static func run(_ arguments: [String]) async throws {
        var command = try #require(try IndoorCommand.parseAsRoot(arguments) as? any AsyncParsableCommand)
        try await command.run()
    }

    @Test func aDatasetsSurveyIsImportedExportedAndChecked() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-survey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dataset = RepositoryFiles.url("datasets/openhps-room").path
        let path = folder.appendingPathComponent("indoor.sqlite").path
        let store = try SQLiteStore(path: path)
        let venue = try VenueInput.json(dataset)
        try await store.putVenue(StoredVenue(id: "hq", json: venue.data))
        try await Self.run(["survey", "import", "--database", path, "--venue", "hq", dataset])
        let recordings = try await store.surveyRecordings(venue: "hq")
        #expect(recordings.count == 60 && recordings.allSatisfy { $0.source == .imported })

        let output = folder.appendingPathComponent("exported").path
        try await Self.run(["survey", "export", "--database", path, "--venue", "hq", "-o", output])
        let train = try String(contentsOfFile: output + "/train/truth.csv", encoding: .utf8)
        let original = try String(contentsOfFile: dataset + "/train/truth.csv", encoding: .utf8)
        #expect(train.split(separator: "\n").count == original.split(separator: "\n").count)
        #expect(FileManager.default.fileExists(atPath: output + "/nodes.csv"))
        // An unknown venue is an error naming it.
        await #expect(throws: CommandFailure.self) {
            try await Self.run(["survey", "import", "--database", path, "--venue", "elsewhere", dataset])
        }

        // The exported folder checks clean; one with its clocks out of step, truth off the floor and a device never
        // heard does not.
        var command = try #require(try IndoorCommand.parseAsRoot(["survey", "check", output]) as? SurveyCheckCommand)
        try command.run()
        var venueWithFloor = try Venue.decodeJSON(venue.data)
        venueWithFloor.floors = [
            Floor(level: 0, name: "Ground", outline: .rectangle(from: Point2D(x: -1, y: -1), to: Point2D(x: 5, y: 4)))
        ]
        let survey = Recording(
            sightings: [Sighting(time: 1000, device: "late", node: "BEACON_1", rssi: -60)],
            truth: [
                TruthPoint(time: 0, device: "late", point: Point2D(x: 1, y: 1), floor: 0),
                TruthPoint(time: 0, device: "silent", point: Point2D(x: 50, y: 1), floor: 0),
            ])
        let report = SurveyCheck(survey: survey, venue: venueWithFloor)
        #expect(report.problems.count == 3, "\(report.problems)")
        #expect(report.problems.contains { $0.hasPrefix("1 truth rows are outside every floor outline") })
        #expect(report.problems.contains { $0.hasPrefix("device 'silent' has truth rows but was never heard") })
        #expect(report.problems.contains { $0.hasPrefix("the clocks of 'late' are out of step") })
        command = try #require(
            try IndoorCommand.parseAsRoot(["survey", "check", dataset, "--venue", dataset]) as? SurveyCheckCommand)
        try command.run()
    }
}
