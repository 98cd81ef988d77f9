import ArgumentParser
import Foundation
import IndoorModel
import IndoorServer

/// `indoor export`: a device's stored data as NDJSON, as `GET /v1/devices/{device}/export` gives it, all pages
/// (docs/PRIVACY.md).
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write one device's stored data (latest fixes, sightings, fixes, zone events, visits) as NDJSON.",
        discussion: """
            One JSON object a line: {"kind": "latest" | "sighting" | "fix" | "event" | "visit", "venue": …, "id": …, \
            "data": {…}} (docs/PRIVACY.md). The device may be named as the server stores it or as a gateway reports \
            it (an address): both are exported. A SQLite database must not be in use by a running indoor serve (ask \
            the server's GET /v1/devices/{device}/export then).
            """)

    @OptionGroup var database: DatabaseOption

    @Option(help: "The device to export.")
    var device: String

    @Option(help: ArgumentHelp("Only data at or after this data time, seconds.", valueName: "seconds"))
    var from: Double?

    @Option(help: ArgumentHelp("Only data before this data time, seconds.", valueName: "seconds"))
    var to: Double?

    @Option(
        name: [.short, .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "path"))
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    func validate() throws {
        guard !device.isEmpty, device.count <= VenueHub.maximumIDLength else {
            throw ValidationError("--device must have 1…\(VenueHub.maximumIDLength) characters")
        }
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, !value.isFinite { throw ValidationError("\(name) must be a finite number of seconds") }
        }
    }

    func run() async throws {
        let file = try output.map { try OutputFile(path: $0, force: force, inputs: [database.given]) }
        let (store, lock) = try await database.open()
        defer { withExtendedLifetime(lock) {} }
        var bytes = Data()
        do {
            let pseudonyms = try await DevicePseudonyms.of(DeviceIDSettings(), store: store)
            for id in pseudonyms.storedIDs(for: device) {
                try await DeviceExport(store: store, device: id, from: from, to: to).all { line in
                    if file == nil { FileHandle.standardOutput.write(line) } else { bytes.append(line) }
                }
            }
        } catch let error as StoreError {
            await DatabaseOption.close(store)
            throw CommandFailure(error.message)
        }
        await DatabaseOption.close(store)
        try file?.write(bytes)
    }
}
