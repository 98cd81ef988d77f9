import Foundation
import IndoorServer
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `indoor serve` killed with SIGKILL under load keeps every batch it acknowledged.
@Suite(.serialized) struct DurabilityTests {
    /// The built `indoor` binary beside the test bundle, or in the package's `.build/debug`.
    static var binary: URL? {
        var candidates: [URL] = []
        if let first = ProcessInfo.processInfo.arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent("indoor"))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/indoor"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// A running `indoor serve` child process and its port.
    final class Child: Sendable {
        let process: Process
        let port: Int
        /// What it printed up to the line naming its address.
        let startup: String

        init(
            binary: URL, database: String, port: Int = 0, options: [String] = [], environment: [String: String] = [:]
        ) throws {
            let process = Process()
            process.executableURL = binary
            if !environment.isEmpty {
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            }
            process.arguments =
                [
                    "serve", "--host", "127.0.0.1", "--port", String(port), "--database", database, "--admin-key",
                    "a-key-6f1c2a9e4b7d0358",
                    "--ingest-key", "i-key-93be0d5c71a4f826", "--read-key", "r-key-2d8a64f0c5e19b37", "--log-level",
                    "warning",
                ] + options
            let output = Pipe()
            process.standardOutput = output
            // INDOOR_TEST_SERVER_LOGS=FOLDER keeps each child's log there (for looking into a failing test).
            if let folder = ProcessInfo.processInfo.environment["INDOOR_TEST_SERVER_LOGS"] {
                let path = "\(folder)/serve-\(port)-\(UUID().uuidString.prefix(8)).log"
                _ = FileManager.default.createFile(atPath: path, contents: nil)
                process.standardError = FileHandle(forWritingAtPath: path) ?? FileHandle.nullDevice
            } else {
                process.standardError = FileHandle.nullDevice
            }
            try process.run()
            self.process = process
            // The first line names the address; wait for it at most 60 s.
            let found = Mutex<Int?>(nil)
            let printed = Mutex("")
            let reader = output.fileHandleForReading
            let deadline = Date().addingTimeInterval(60)
            let thread = Thread {
                var text = ""
                while found.withLock({ $0 }) == nil {
                    let data = reader.availableData
                    if data.isEmpty { break }
                    text += String(decoding: data, as: UTF8.self)
                    printed.withLock { $0 = text }
                    if let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                        let port = Int(text[range].split(separator: ":").last ?? "")
                        found.withLock { $0 = port }
                    }
                }
            }
            thread.start()
            while found.withLock({ $0 }) == nil && Date() < deadline && process.isRunning {
                Thread.sleep(forTimeInterval: 0.05)
            }
            guard let port = found.withLock({ $0 }) else {
                process.terminate()
                throw ChildError(message: "indoor serve printed no address within 60 s")
            }
            self.port = port
            startup = printed.withLock { $0 }
        }

        func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    struct ChildError: Error { var message: String }

    static func request(
        _ port: Int, _ method: String, _ path: String, key: String, body: String? = nil
    ) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 10
        if let body { request.httpBody = Data(body.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    final class Log: Sendable {
        let entries = Mutex<[Acknowledged]>([])
        /// Set once the server is killed: the workers stop posting.
        let stopped = Mutex(false)
    }

    struct Acknowledged: Sendable {
        var device: String
        var sightings: Int
        var eventIDs: [Int]
    }

    @Test(arguments: StoreKind.tested)
    func everyAcknowledgedBatchSurvivesSIGKILL(store: StoreKind) async throws {
        guard let binary = Self.binary else {
            print("DurabilityTests skipped: the indoor binary was not found beside the tests or in .build/debug")
            return
        }
        let testDatabase = try TestDatabase(store)
        defer { testDatabase.remove() }
        let database = testDatabase.argument

        let child = try Child(binary: binary, database: database, environment: testDatabase.environment)
        defer { child.stop() }
        let port = child.port
        let (created, _) = try await Self.request(
            port, "PUT", "/v1/venues/tiny", key: "a-key-6f1c2a9e4b7d0358", body: ServerFixture.venueJSON)
        #expect(created == 201)

        let acknowledged = Log()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var batch = 0
                    while !acknowledged.stopped.withLock({ $0 }) && batch < 10_000 {
                        batch += 1
                        let device = "w\(worker)-b\(batch)"
                        let items = (0..<50).map { i in
                            #"{"t": \#(Double(i) * 0.1), "device": "\#(device)", "node": "n\#(i % 2 + 1)", "rssi": -6\#(i % 10)}"#
                        }
                        let body = #"{"venue": "tiny", "sightings": [\#(items.joined(separator: ","))]}"#
                        guard
                            let (status, json) = try? await Self.request(
                                port, "POST", "/v1/sightings", key: "i-key-93be0d5c71a4f826", body: body),
                            status == 200
                        else { continue }
                        let fixes = (json["fixes"] as? [Any])?.count ?? 0
                        let events = (json["events"] as? [Any])?.count ?? 0
                        let last = json["lastEventId"] as? Int ?? 0
                        let ids = Array((last - fixes - events + 1)...last)
                        acknowledged.entries.withLock {
                            $0.append(
                                Acknowledged(device: device, sightings: json["accepted"] as? Int ?? 0, eventIDs: ids))
                        }
                    }
                }
            }
            // Kill while the workers are still posting, once a batch was acknowledged (a loaded machine may take
            // seconds for the first; give up after a minute).
            try await Task.sleep(for: .milliseconds(1000))
            for _ in 0..<1200 where acknowledged.entries.withLock({ $0.isEmpty }) {
                try await Task.sleep(for: .milliseconds(50))
            }
            child.kill()
            acknowledged.stopped.withLock { $0 = true }
            try await group.waitForAll()
        }
        let acked = acknowledged.entries.withLock { $0 }
        #expect(!acked.isEmpty, "no batch was acknowledged before the kill")
        print("DurabilityTests: \(acked.count) batches acknowledged before SIGKILL")

        // Restart on the same database: the server carries on and answers for every acknowledged batch.
        let again = try Child(binary: binary, database: database, environment: testDatabase.environment)
        defer { again.stop() }
        for ack in acked {
            let (status, fix) = try await Self.request(
                again.port, "GET", "/v1/venues/tiny/devices/\(ack.device)", key: "r-key-2d8a64f0c5e19b37")
            #expect(status == 200, "device \(ack.device) of an acknowledged batch has no fix after the restart")
            #expect(fix["device"] as? String == ack.device)
        }
        again.stop()

        let opened = try await testDatabase.open()
        #expect(try await opened.sightingCount(venue: "tiny") >= acked.reduce(0) { $0 + $1.sightings })
        let stored = Set(try await opened.events(venue: "tiny", after: 0, limit: 10_000_000).map { Int($0.id) })
        for ack in acked {
            #expect(ack.eventIDs.allSatisfy(stored.contains), "events of \(ack.device) are missing")
        }
    }
}
