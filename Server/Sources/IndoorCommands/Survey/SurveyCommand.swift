import ArgumentParser
import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorServer

/// `indoor survey export|import|check`: a venue's site survey between indoor serve's database and a dataset folder
/// (docs/SURVEY.md).
struct SurveyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "survey",
        abstract: "A venue's site survey between indoor serve's database and a dataset folder, and checked.",
        subcommands: [SurveyExportCommand.self, SurveyImportCommand.self, SurveyCheckCommand.self])
}

/// `indoor survey export`: a venue's stored survey as a dataset folder (`nodes.csv`, `train/`).
struct SurveyExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a venue's stored survey as a dataset folder: nodes.csv, train/sightings.csv, train/truth.csv.",
        discussion: """
            The survey as the server learns it: its stopped recordings, each walk's sightings between its first and \
            last mark with the truth its marks give (GET /v1/venues/{id}/survey/export answers the same files in a \
            zip). Add a test/ folder and indoor evaluate scores it.
            """)

    @OptionGroup var database: DatabaseOption

    @Option(help: "The venue whose survey to write.")
    var venue: String

    @Option(name: [.short, .long], help: "The dataset folder to write (new or empty).")
    var output: String

    @Flag(help: "Replace a folder an earlier indoor survey export wrote.")
    var force = false

    func run() async throws {
        let folder = try OutputFolder(
            path: output, force: force, ownedFiles: ["nodes.csv", "train/sightings.csv", "train/truth.csv"],
            command: "indoor survey export")
        let (store, lock) = try await database.open()
        defer { withExtendedLifetime(lock) {} }
        let read: (StoredVenue?, Recording?)
        do {
            read = (try await store.venue(id: venue), try await store.survey(venue: venue))
        } catch let error as StoreError {
            await DatabaseOption.close(store)
            throw CommandFailure(error.message)
        }
        await DatabaseOption.close(store)
        guard let stored = read.0 else { throw CommandFailure("the database has no venue '\(venue)'") }
        guard let survey = read.1 else {
            throw CommandFailure("venue '\(venue)' has no survey with a stopped recording in the database")
        }
        let nodes = try Venue.decodeJSON(stored.json, file: "venue '\(venue)'").nodes
        try folder.write(files: [
            ("nodes.csv", Data(DatasetCSV.nodesText(nodes).utf8)),
            ("train/sightings.csv", Data(DatasetCSV.sightingsText(survey.sightings).utf8)),
            ("train/truth.csv", Data(DatasetCSV.truthText(survey.truth).utf8)),
        ])
        print("\(output): \(survey.sightings.count) sightings, \(survey.truth.count) truth rows")
    }
}

/// `indoor survey import`: a dataset folder's survey as a venue's stored survey.
struct SurveyImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Store a dataset folder's survey (train/, or sightings.csv and truth.csv) as a venue's survey.",
        discussion: """
            Replaces the venue's whole survey in the database (recorded walks too), one recording per device with \
            truth rows, as PUT /v1/venues/{id}/survey does. A server running on a PostgreSQL database learns it at \
            the venue's next start; with a running server, PUT /v1/venues/{id}/survey relearns at once.
            """)

    @OptionGroup var database: DatabaseOption

    @Option(help: "The venue the survey is of (it must be in the database).")
    var venue: String

    @Argument(help: "A dataset folder with train/, or a folder with sightings.csv and truth.csv.")
    var folder: String

    func run() async throws {
        let (store, lock) = try await database.open()
        defer { withExtendedLifetime(lock) {} }
        do {
            guard let stored = try await store.venue(id: venue) else {
                throw CommandFailure("the database has no venue '\(venue)'; put it first (indoor serve, PUT)")
            }
            let survey = try SurveyInput.read(folder, venue: try Venue.decodeJSON(stored.json))
            let imports = SurveyImport.split(survey)
            try await store.replaceSurvey(
                venue: venue, with: imports, storedAt: Date().timeIntervalSince1970, keepingWalks: false)
            await DatabaseOption.close(store)
            print(
                "venue '\(venue)': \(imports.count) recordings, \(survey.sightings.count) sightings, "
                    + "\(survey.truth.count) truth rows")
        } catch let error as StoreError {
            await DatabaseOption.close(store)
            throw CommandFailure(error.message)
        } catch {
            await DatabaseOption.close(store)
            throw error
        }
    }
}

/// `indoor survey check`: what is wrong with a survey before it is used.
struct SurveyCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a survey: truth outside the floors, devices never heard, clocks out of step.",
        discussion: """
            Reads a dataset folder's train/ (or a folder with sightings.csv and truth.csv) and its venue (--venue, or \
            the folder's venue.json or nodes.csv). Prints each problem found and exits with status 1 when there is \
            one, 0 when there is none.
            """)

    @Argument(help: "A dataset folder with train/, or a folder with sightings.csv and truth.csv.")
    var folder: String

    @Option(help: "The venue: a venue JSON file or a dataset folder (default: the survey's folder).")
    var venue: String?

    func run() throws {
        let venue = try Venue.decodeJSON(try VenueInput.json(self.venue ?? folder).data)
        let survey = try DatasetReader.survey(folder: URL(fileURLWithPath: folder))
        let report = SurveyCheck(survey: survey, venue: venue)
        for line in report.lines { print(line) }
        if !report.problems.isEmpty { throw ExitCode(1) }
    }
}
