import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorModel
import IndoorServerTestSupport
import NIOCore
import Synchronization
import Testing

@testable import IndoorServer

/// The server's protections: private database files, the browser's headers on every answer, the status routes'
/// details behind a key, failed keys slowed per address, 500s that say nothing but a request id, weak operator keys
/// refused at start.
@Suite struct HardeningTests {
    @Test func theDatabaseFilesAreReadableByTheirOwnerOnly() async throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        let store = try SQLiteStore(path: database.name)
        _ = try await store.commit(
            IngestBatch(
                venue: "v", sightings: [Sighting(time: 1, device: "p", node: "n1", rssi: -60)], events: [],
                receivedAt: 1))
        for suffix in ["", "-wal", "-shm"] {
            let path = database.name + suffix
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let mode =
                (attributes[.posixPermissions] as? Int) ?? (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            #expect(mode == 0o600, "\(path) has mode \(String(mode, radix: 8))")
        }
    }

    @Test func everyAnswerCarriesTheBrowsersProtections() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let referrer = try #require(HTTPField.Name("Referrer-Policy"))
        try await fixture.test { client in
            for (uri, key) in [
                ("/", nil), ("/assets/main.js", nil), ("/v1/venues", ServerFixture.read), ("/v1/venues", nil),
                ("/nowhere", nil),
            ] {
                let response = try await client.get(uri, key: key)
                let policy = response.headers[.contentSecurityPolicy] ?? ""
                #expect(policy.contains("default-src 'self'"), "\(uri)")
                #expect(policy.contains("frame-ancestors 'none'"), "\(uri)")
                #expect(policy.contains("img-src 'self' blob:"), "\(uri): floor images are shown from blob: addresses")
                #expect(response.headers[referrer] == "no-referrer", "\(uri)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(uri)")
                #expect(response.headers[.strictTransportSecurity] == nil, "\(uri): no HSTS without TLS")
            }
        }
        var configuration = ServerConfiguration()
        configuration.tls = true
        let tls = try await ServerFixture(configuration: configuration)
        defer { tls.remove() }
        try await tls.test { client in
            let response = try await client.get("/", key: nil)
            #expect(response.headers[.strictTransportSecurity]?.hasPrefix("max-age=") == true)
        }
    }

    @Test func healthWithoutAKeySaysOnlyWhetherTheServerIsUp() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            let bare = try await client.get("/health", key: nil)
            #expect(bare.status == .ok)
            #expect(bare.json.keys.sorted() == ["status"])
            let detailed = try await client.get("/health")
            #expect(detailed.json["venues"] as? Int == 0)
            #expect(detailed.json["database"] as? String == "ok")
            #expect(try await client.get("/health", key: "wrong").status == .unauthorized)
            let metrics = try await client.get("/metrics", key: nil)
            #expect(metrics.status == .unauthorized)
            #expect(!metrics.text.contains("indoor_devices_tracked"))
        }
        var configuration = ServerConfiguration()
        configuration.publicMetrics = true
        let open = try await ServerFixture(configuration: configuration)
        defer { open.remove() }
        try await open.test { client in
            let metrics = try await client.get("/metrics", key: nil)
            #expect(metrics.text.contains("indoor_devices_tracked"))
            let health = try await client.get("/health", key: nil)
            #expect(health.json["venues"] as? Int == 0)
        }
    }

    @Test func failedKeysAreSlowedPerAddress() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        // The block's clock stands still: a loaded machine taking seconds between requests changes nothing.
        var server = fixture.server
        server.failedKeys = FailedKeyLimiter(clock: { 1_000_000 })
        let app = Application(router: server.router())
        try await app.test(.live) { client in
            for _ in 0..<(FailedKeyLimiter.freeFailures - 1) {
                #expect(try await client.get("/v1/venues", key: "guess").status == .unauthorized)
            }
            // A good key clears the count.
            #expect(try await client.get("/v1/venues").status == .ok)
            for _ in 0..<FailedKeyLimiter.freeFailures {
                #expect(try await client.get("/v1/venues", key: "guess").status == .unauthorized)
            }
            // Blocked now, even with a good key, saying when to try again.
            let blocked = try await client.get("/v1/venues")
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.headers[.retryAfter].flatMap { Int($0) } ?? 0 >= 1)
            #expect(blocked.json["code"] as? String == "tooManyFailures")
        }
        let limiter = FailedKeyLimiter()
        for _ in 0..<FailedKeyLimiter.freeFailures { limiter.failed("a", now: 100) }
        #expect(limiter.wait(for: "a", now: 100) == 5)
        limiter.failed("a", now: 100)
        #expect(limiter.wait(for: "a", now: 100) == 10)
        #expect(limiter.wait(for: "a", now: 109) == 1)
        #expect(limiter.wait(for: "a", now: 111) == nil)
        #expect(limiter.wait(for: "b", now: 100) == nil)
        for index in 0..<(FailedKeyLimiter.capacity + 10) { limiter.failed("x\(index)", now: 200) }
        #expect(limiter.wait(for: "a", now: 100) == nil, "the table stays bounded")
    }

    @Test func aServerErrorSaysOnlyARequestID() async throws {
        struct Secret: Error, CustomStringConvertible {
            var description: String { "the table 'sighting' at /srv/secret/indoor.sqlite is locked" }
        }
        let router = Router()
        router.add(middleware: ErrorMiddleware(routes: RouteMethods()))
        router.get("/fails") { _, _ -> String in throw Secret() }
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: "/fails", method: .get)
            #expect(response.status == .internalServerError)
            let body = String(buffer: response.body)
            #expect(!body.contains("secret") && !body.contains("sighting"), "\(body)")
            let id = try #require(HTTPField.Name("X-Request-Id").flatMap { response.headers[$0] })
            #expect(id.count == 16)
            #expect(body.contains("request id \(id)"))
        }
    }

    /// `indoor serve` listening beyond loopback without TLS, and with a plain `mqtt://` broker elsewhere, warns of each.
    @Test func plainTextBeyondThisMachineIsWarnedOf() throws {
        guard let binary = DurabilityTests.binary else {
            Issue.record("no indoor binary: build it with swift build --package-path Server --product indoor")
            return
        }
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = binary
        // 192.0.2.1 (TEST-NET-1) is never this machine: the bridge only keeps trying to connect.
        process.arguments = [
            "serve", "--host", "0.0.0.0", "--port", "0", "--database", folder.appendingPathComponent("a.sqlite").path,
            "--admin-key", "a-key-6f1c2a9e4b7d0358", "--mqtt", "mqtt://192.0.2.1:1883", "--log-level", "warning",
        ]
        let error = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = error
        let said = Mutex("")
        error.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            said.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            error.fileHandleForReading.readabilityHandler = nil
        }
        let deadline = Date().addingTimeInterval(60)
        func both() -> Bool {
            said.withLock { $0.contains("listening on 0.0.0.0 without TLS") && $0.contains("192.0.2.1:1883 is not on") }
        }
        while !both() && Date() < deadline && process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        #expect(both(), "\(said.withLock { $0 })")
    }

    @Test func weakOperatorKeysAreRefusedAtStartNamingTheFlag() throws {
        #expect(KeyStrength.problem("x", option: "--admin-key") != nil)
        #expect(KeyStrength.problem(String(repeating: "a", count: 64), option: "--admin-key") != nil)
        #expect(KeyStrength.problem("change-me-admin", option: "--admin-key") != nil)
        #expect(KeyStrength.problem("3f9a1c0b7e2d4a6f8b1c3e5d7a9f0b2c", option: "--admin-key") == nil)
        #expect(KeyStrength.problem(KeyRing.generate(kind: .read), option: "--read-key") == nil)
        guard let binary = DurabilityTests.binary else {
            Issue.record("no indoor binary: build it with swift build --package-path Server --product indoor")
            return
        }
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("indoor.sqlite").path
        let refused = try ServeStartupTests.serve(binary, ["--port", "0", "--database", database, "--read-key", "x"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("--read-key"), "\(refused.error)")
        #expect(refused.error.contains("openssl rand -hex 16"), "\(refused.error)")
        #expect(!FileManager.default.fileExists(atPath: database), "refused before the database is made")
    }
}
