import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Slow clients cost only themselves: stream subscribers that never read are ended once they fall
/// `--stream-buffer` events behind, and connections over `--max-connections-per-address` are closed as they come;
/// meanwhile the server's memory stays bounded and `/health` answers.
@Suite(.serialized) struct SlowClientTests {
    /// A TCP connection to 127.0.0.1:`port` with a small receive buffer, that has sent `text`; `nil` when it could
    /// not connect.
    static func connect(port: Int, sending text: String) -> Int32? {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { return nil }
        var size: Int32 = 4096
        setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            return nil
        }
        if !text.isEmpty { _ = text.withCString { send(socket, $0, strlen($0), 0) } }
        return socket
    }

    /// Whether the server closed `socket` within `seconds` (a read ends with no data).
    static func closedByServer(_ socket: Int32, seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 64)
        return recv(socket, &buffer, buffer.count, 0) == 0
    }

    /// The resident memory of process `pid`, bytes (Linux `/proc`); `nil` elsewhere.
    static func residentBytes(_ pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
    }

    static func metric(_ name: String, port: Int) async throws -> Double? {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/metrics")!)
        request.setValue("Bearer r-key-2d8a64f0c5e19b37", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test func streamsThatAreNeverReadAreEndedAndMemoryStaysBounded() async throws {
        guard let binary = DurabilityTests.binary else {
            Issue.record("no indoor binary: build it with swift build --package-path Server --product indoor")
            return
        }
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try DurabilityTests.Child(
            binary: binary, database: folder.appendingPathComponent("indoor.sqlite").path,
            options: ["--stream-buffer", "50"])
        defer { server.stop() }
        let port = server.port
        let (created, _) = try await DurabilityTests.request(
            port, "PUT", "/v1/venues/tiny", key: "a-key-6f1c2a9e4b7d0358", body: ServerFixture.venueJSON)
        #expect(created == 201)

        let request =
            "GET /v1/stream?venue=tiny HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer r-key-2d8a64f0c5e19b37\r\n\r\n"
        let readers = (0..<20).compactMap { _ in Self.connect(port: port, sending: request) }
        defer { for socket in readers { close(socket) } }
        #expect(readers.count == 20)
        try await Task.sleep(for: .seconds(1))
        let before = Self.residentBytes(server.process.processIdentifier)

        // 40 batches of 1,000 devices heard once each: about 40,000 fixes, which every stream would hold unbounded.
        var fixes = 0
        for second in 0..<40 {
            let items = (0..<1000).map { device in
                #"{"t": \#(second), "device": "d\#(device)", "node": "n\#(device % 2 + 1)", "rssi": -6\#(device % 10)}"#
            }
            let (status, json) = try await DurabilityTests.request(
                port, "POST", "/v1/sightings", key: "i-key-93be0d5c71a4f826",
                body: #"{"venue": "tiny", "sightings": [\#(items.joined(separator: ","))]}"#)
            #expect(status == 200)
            fixes += (json["fixes"] as? [Any])?.count ?? 0
        }
        #expect(fixes > 20_000)

        // Every stream fell behind and was ended; the server answers and its memory grew far less than the events
        // the streams would have held (20 × 40,000 events of about 400 bytes).
        var dropped = 0.0
        for _ in 0..<100 where dropped < 20 {
            dropped = try await Self.metric("indoor_stream_subscribers_dropped_total", port: port) ?? 0
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(dropped == 20)
        let (health, _) = try await DurabilityTests.request(port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37")
        #expect(health == 200)
        if let before, let after = Self.residentBytes(server.process.processIdentifier) {
            #expect(after - before < 250 << 20, "grew \((after - before) >> 20) MB")
        }
    }

    @Test func connectionsOverThePerAddressCapAreClosedAndHealthSaysSo() async throws {
        guard let binary = DurabilityTests.binary else {
            Issue.record("no indoor binary: build it with swift build --package-path Server --product indoor")
            return
        }
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try DurabilityTests.Child(
            binary: binary, database: folder.appendingPathComponent("indoor.sqlite").path,
            options: ["--max-connections-per-address", "10", "--idle-timeout", "600"])
        defer { server.stop() }
        // Ten half-sent requests hold every place 127.0.0.1 has; the eleventh connection is closed at once.
        let held = (0..<10).compactMap { _ in Self.connect(port: server.port, sending: "GET /health HTTP/1.1\r\n") }
        #expect(held.count == 10)
        try await Task.sleep(for: .milliseconds(500))
        if let extra = Self.connect(port: server.port, sending: "") {
            #expect(Self.closedByServer(extra, seconds: 20))
            close(extra)
        }
        for socket in held { close(socket) }
        // Places are given back when connections end: /health answers and counts the refused one. A /health
        // asked before the server has seen every close is itself refused and counted (and the HTTP client may
        // retry it unseen), so the count is at least one.
        try await Task.sleep(for: .milliseconds(300))
        var json: [String: Any] = [:]
        var unanswered = 0
        for _ in 0..<50 {
            if let (status, body) = try? await DurabilityTests.request(
                server.port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37"),
                status == 200
            {
                json = body
                break
            }
            unanswered += 1
            try await Task.sleep(for: .milliseconds(200))
        }
        let connections = json["connections"] as? [String: Any]
        let refused = connections?["refused"] as? Int ?? 0
        #expect(refused >= 1, "refused \(refused), unanswered /health \(unanswered)")
        #expect(connections?["perAddressLimit"] as? Int == 10)
        #expect((connections?["openFilesLimit"] as? Int ?? 0) >= 1024)
    }
}
