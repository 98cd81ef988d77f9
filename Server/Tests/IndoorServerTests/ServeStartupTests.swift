import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `indoor serve` says in one line why it cannot start, before its set-up: a busy port, a database another server
/// holds.
@Suite(.serialized) struct ServeStartupTests {
    /// Runs `indoor serve` with `arguments` to its end (at most 60 s): its exit status and standard error.
    static func serve(_ binary: URL, _ arguments: [String]) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments =
            ["serve", "--host", "127.0.0.1", "--admin-key", "a-key-6f1c2a9e4b7d0358", "--log-level", "warning"]
            + arguments
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

    /// Sends `text` on a new TCP connection to 127.0.0.1:`port` and waits up to `seconds` for the server to close it.
    /// - Returns: Whether the server closed the connection in that time without answering.
    static func closesHalfSentRequest(port: Int, text: String, seconds: Int) -> Bool {
        #if canImport(Glibc)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, stream, 0)
        #else
            let socket = Darwin.socket(AF_INET, stream, 0)
        #endif
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return false }
        _ = text.withCString { send(socket, $0, strlen($0), 0) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 512)
        // 0: the server closed the connection; -1: the wait ran out; more: it answered.
        return recv(socket, &buffer, buffer.count, 0) == 0
    }

    @Test func aHalfSentRequestIsClosedAfterTheIdleTimeout() throws {
        guard let binary = DurabilityTests.binary else {
            Issue.record("no indoor binary: build it with swift build --package-path Server --product indoor")
            return
        }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try DurabilityTests.Child(
            binary: binary, database: folder.appendingPathComponent("indoor.sqlite").path,
            options: ["--idle-timeout", "1"])
        defer { server.stop() }
        // The request line and one header, never the blank line that ends the head: closed after about 1 s.
        #expect(Self.closesHalfSentRequest(port: server.port, text: "GET /health HTTP/1.1\r\nHost: x\r\n", seconds: 20))
    }
}
