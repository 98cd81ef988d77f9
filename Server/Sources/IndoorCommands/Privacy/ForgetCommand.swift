import ArgumentParser
import Foundation
import IndoorModel
import IndoorServer

/// `indoor forget`: erases a device's data from a database, as `DELETE /v1/devices/{device}` does (docs/PRIVACY.md).
struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Erase every stored row of one device (sightings, fixes, zone events, latest fixes, visits).",
        discussion: """
            The device may be named as the server stores it (anon-…, phone-anna) or as a gateway reports it (an \
            address, an irk: id): both are erased. A SQLite database must not be in use by a running indoor serve \
            (use DELETE /v1/devices/{device} on the server then: it also forgets the device in its live sessions and \
            clears its retained MQTT topics). Prints the counts of rows deleted, as JSON. Deleted rows are \
            overwritten in a SQLite file (secure_delete).
            """)

    @OptionGroup var database: DatabaseOption

    @Option(help: "The device to erase.")
    var device: String

    @Option(help: "Only its data of this venue.")
    var venue: String?

    func validate() throws {
        guard !device.isEmpty, device.count <= VenueHub.maximumIDLength else {
            throw ValidationError("--device must have 1…\(VenueHub.maximumIDLength) characters")
        }
    }

    func run() async throws {
        let (store, lock) = try await database.open()
        defer { withExtendedLifetime(lock) {} }
        let pseudonyms = try await DevicePseudonyms.of(DeviceIDSettings(), store: store)
        let ids = pseudonyms.storedIDs(for: device)
        var counts = DataCounts()
        do {
            for id in ids { counts = counts + (try await store.eraseDevice(id, venue: venue)) }
        } catch let error as StoreError {
            await DatabaseOption.close(store)
            throw CommandFailure(error.message)
        }
        await DatabaseOption.close(store)
        let answer = ForgetAnswer(device: device, ids: ids, venue: venue, erased: counts)
        FileHandle.standardOutput.write(try JSONFormat.encoder(pretty: true).encode(answer) + Data("\n".utf8))
    }

    /// What `indoor forget` prints: the answer of `DELETE /v1/devices/{device}`.
    struct ForgetAnswer: Encodable {
        var device: String
        var ids: [String]
        var venue: String?
        var erased: DataCounts
    }
}
