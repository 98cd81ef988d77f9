import Foundation
import Testing

/// `indoor serve` says in one line why it cannot start, before its set-up: a busy port, a database another server
/// holds.
@Suite(.serialized) struct ServeStartupTests {
    /// Runs `indoor serve` with `arguments` to its end (at most 60 s): its exit status and standard error.
    static func serve(_ binary: URL, _ arguments: [String]) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments =
            ["serve", "--host", "127.0.0.1", "--admin-key", "a-key", "--log-level", "warning"] + arguments
        let error = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = error
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        )
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "indoor-startup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aSecondServerOnTheSameDatabaseIsRefused() throws {
        guard let binary = DurabilityTests.binary else {
            Issue.record("no indoor binary: build it with swift build --package-path Server --product indoor")
            return
        }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("indoor.sqlite").path
        let first = try DurabilityTests.Child(binary: binary, database: database)
        defer { first.stop() }
        let second = try Self.serve(binary, ["--port", "0", "--database", database])
        #expect(second.status != 0)
        #expect(
            second.error.contains("the database '\(database)' is in use by another indoor serve"), "\(second.error)")
        #expect(second.error.split(separator: "\n").count == 1, "\(second.error)")
    }

    @Test func aBusyPortIsSaidNamingIt() throws {
        guard let binary = DurabilityTests.binary else {
            Issue.record("no indoor binary: build it with swift build --package-path Server --product indoor")
            return
        }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try DurabilityTests.Child(binary: binary, database: folder.appendingPathComponent("a.sqlite").path)
        defer { first.stop() }
        let second = try Self.serve(
            binary, ["--port", "\(first.port)", "--database", folder.appendingPathComponent("b.sqlite").path])
        #expect(second.status != 0)
        #expect(
            second.error.contains("port \(first.port) on 127.0.0.1 is in use by another program"), "\(second.error)")
        #expect(second.error.split(separator: "\n").count == 1, "\(second.error)")
        // The refused server created no database of its own.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("b.sqlite").path))
    }
}
