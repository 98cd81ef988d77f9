import ArgumentParser
import Foundation
import IndoorModel
import IndoorServer
import Testing

@testable import IndoorCommands

/// `indoor export` and `indoor forget` on a SQLite database (issue 50): the export has the device's rows and no other's;
/// forget deletes them, also when the device is named by the address its pseudonym was made from.
@Suite("indoor export and indoor forget")
struct PrivacyCommandTests {
    static func run(_ arguments: [String]) async throws {
        var command = try #require(try IndoorCommand.parseAsRoot(arguments) as? any AsyncParsableCommand)
        try await command.run()
    }

    static func sightings(_ device: String) -> [Sighting] {
        (0..<3).map { Sighting(time: Double($0), device: device, node: "n1", rssi: -60) }
    }

    @Test func exportWritesTheDevicesRowsAndForgetDeletesThem() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "indoor-privacy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("indoor.sqlite").path
        let store = try SQLiteStore(path: path)
        let pseudonyms = try await DevicePseudonyms.of(DeviceIDSettings(), store: store)
        let hashed = pseudonyms.device("AA:BB:CC:DD:EE:01")
        for device in ["phone-anna", "phone-bob", hashed] {
            _ = try await store.commit(
                IngestBatch(venue: "hq", sightings: Self.sightings(device), events: [], receivedAt: 1000))
        }

        let output = folder.appendingPathComponent("anna.ndjson").path
        try await Self.run(["export", "--database", path, "--device", "phone-anna", "-o", output])
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.contains(#""kind":"sighting""#) && $0.contains("phone-anna") })
        // An existing file is not replaced without --force.
        await #expect(throws: (any Error).self) {
            try await Self.run(["export", "--database", path, "--device", "phone-anna", "-o", output])
        }

        try await Self.run(["forget", "--database", path, "--device", "phone-anna"])
        try await Self.run(["forget", "--database", path, "--device", "AA:BB:CC:DD:EE:01"])
        #expect(try await store.sightingCount(venue: "hq") == 3)
        for device in ["phone-anna", hashed] {
            #expect(try await store.deviceRecords(DeviceRecordQuery(device: device, kind: .sighting)).isEmpty)
        }
        #expect(try await store.deviceRecords(DeviceRecordQuery(device: "phone-bob", kind: .sighting)).count == 3)
        // A database that does not exist is an error, not a new file.
        let missing = folder.appendingPathComponent("missing.sqlite").path
        await #expect(throws: (any Error).self) {
            try await Self.run(["forget", "--database", missing, "--device", "x"])
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
