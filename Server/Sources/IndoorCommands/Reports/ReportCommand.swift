import ArgumentParser
import Foundation
import IndoorModel
import IndoorServer

/// `indoor report`: a venue's zone report as CSV, the same as `GET /v1/venues/{id}/reports/zones` with
/// `Accept: text/csv` answers, read from the database (docs/SERVER.md).
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a venue's zone report (visits, devices, dwell, occupancy per hour, day or week) as CSV.",
        discussion: """
            One line per zone and bucket: zone, name, start, end, localStart, visits, devices, dwellMedianSeconds, \
            dwell90Seconds, meanOccupancy, peakOccupancy. Buckets fall on the venue's local hours, days or weeks \
            (its timeZone, default UTC); the period is widened to whole buckets. A SQLite database must not be in use \
            by a running indoor serve (ask the server's GET /v1/venues/{id}/reports/zones then).
            """)

    @OptionGroup var database: DatabaseOption

    @Option(help: "The venue's id.")
    var venue: String

    @Option(
        help: ArgumentHelp(
            "The period's start: data time in Unix seconds, or ISO 8601 (2026-11-28T00:00:00+01:00).",
            valueName: "time"))
    var from: String

    @Option(help: ArgumentHelp("The period's end (as --from), after it.", valueName: "time"))
    var to: String

    @Option(help: "The buckets' length: hour, day or week.")
    var bucket: String = ReportBucket.hour.rawValue

    @Option(
        name: [.short, .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "path"))
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    /// `text` as Unix seconds: a number, or an ISO 8601 date and time with its offset.
    static func time(_ text: String, option: String) throws -> Double {
        if let seconds = Double(text), seconds.isFinite { return seconds }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        throw ValidationError(
            "\(option) '\(text)' is neither Unix seconds nor an ISO 8601 time such as 2026-11-28T00:00:00Z")
    }

    func validate() throws {
        guard !venue.isEmpty else { throw ValidationError("--venue must not be empty") }
        guard ReportBucket(rawValue: bucket) != nil else {
            throw ValidationError("--bucket '\(bucket)' is not one of hour, day, week")
        }
        let start = try Self.time(from, option: "--from")
        guard try Self.time(to, option: "--to") > start else { throw ValidationError("--to must be after --from") }
    }

    func run() async throws {
        let file = try output.map { try OutputFile(path: $0, force: force, inputs: [database.given]) }
        let start = try Self.time(from, option: "--from")
        let end = try Self.time(to, option: "--to")
        let length = ReportBucket(rawValue: bucket) ?? .hour
        let (store, lock) = try await database.open()
        defer { withExtendedLifetime(lock) {} }
        let report: ZoneReport
        do {
            guard let stored = try await store.venue(id: venue) else {
                throw CommandFailure("the database holds no venue '\(venue)'")
            }
            let model = try Venue.decodeJSON(stored.json, file: "venue '\(venue)'")
            report = try await ZoneReport.make(store: store, venue: model, from: start, to: end, bucket: length)
        } catch let error as StoreError {
            await DatabaseOption.close(store)
            throw CommandFailure(error.message)
        } catch let error as ZoneReportError {
            await DatabaseOption.close(store)
            let option = ["from", "to", "bucket"].contains(error.field) ? "--\(error.field): " : ""
            throw CommandFailure(option + error.message)
        } catch {
            await DatabaseOption.close(store)
            throw error
        }
        await DatabaseOption.close(store)
        let csv = Data(report.csv().utf8)
        if let file { try file.write(csv) } else { FileHandle.standardOutput.write(csv) }
    }
}
