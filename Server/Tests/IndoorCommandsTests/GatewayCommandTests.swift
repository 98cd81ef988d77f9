import Foundation
import IndoorAdvertising
import IndoorGateways
import IndoorModel
import IndoorServerTestSupport
import Synchronization
import Testing

@testable import IndoorCommands

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `indoor gateway`: decoding a growing btsnoop stream, the disk queue, ESPresense's layout, and the binary
/// against a live `indoor serve`.
@Suite(.serialized) struct GatewayCommandTests {
    static let beacon = BeaconID(
        uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0") ?? UUID(), major: 1, minor: 7)

    /// A capture of `count` iBeacon advertisements of ``beacon``, one every 0.5 s from `start` (Unix seconds).
    static func capture(count: Int, start: Double, header: Bool = true) throws -> [UInt8] {
        var writer = BtsnoopWriter(datalink: .hciUART)
        if !header { _ = writer.takeBytes() }
        let data = IBeacon(id: beacon, measuredPowerDBm: -59).advertisingData
        for index in 0..<count {
            let report = AdvertisingReport(
                address: BluetoothAddress(rawValue: 0xC0FF_EE00_0001), rssiDBm: -60 - Int8(index % 5), data: data)
            try writer.appendAdvertisingReports([report], unixTime: start + Double(index) * 0.5)
        }
        return writer.takeBytes()
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "indoor-gateway-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theDecoderNamesBeaconsAndTimesSightingsByTheirRecords() throws {
        let start = 1_700_000_000.25
        let bytes = try Self.capture(count: 4, start: start)
        var decoder = GatewayDecoder(node: "hall", resolver: nil, addresses: false)
        var sightings: [ForwardedSighting] = []
        // Fed in pieces of 7 bytes, as a stream arrives.
        var pending: [UInt8] = []
        for piece in stride(from: 0, to: bytes.count, by: 7) {
            pending += bytes[piece..<min(piece + 7, bytes.count)]
            let used = try pending.withUnsafeBytes { buffer in
                try decoder.decode(buffer, isEnd: false, onSighting: { sightings.append($0) }, onProblem: { _ in })
            }
            pending.removeFirst(used)
        }
        #expect(sightings.count == 4)
        #expect(sightings.first?.device == Self.beacon.text)
        #expect(sightings.first?.node == "hall")
        #expect(sightings.first?.tx == -59)
        #expect(sightings.map(\.t) == [start, start + 0.5, start + 1, start + 1.5])
    }

    @Test func theQueueDropsItsOldestBatchesBeyondItsBoundAndLeavesOtherFilesAlone() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let foreign = folder.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: foreign)
        let queue = try DiskQueue(folder: folder, limitBytes: 2_000)
        let batch = (0..<10).map { ForwardedSighting(t: Double($0), device: "d", node: "n", rssi: -60, tx: nil) }
        var dropped = DiskQueue.Dropped()
        for _ in 0..<5 {
            let more = try queue.enqueue(batch)
            dropped.batches += more.batches
            dropped.sightings += more.sightings
        }
        #expect(dropped.batches > 0)
        #expect(queue.totalBytes <= 2_000)
        #expect(dropped.sightings + queue.sightingCount == 50)
        // A new queue on the same folder finds the same batches, oldest first.
        let again = try DiskQueue(folder: folder, limitBytes: 2_000)
        #expect(again.count == queue.count)
        let oldest = try #require(again.oldest())
        #expect(oldest.0.sequence == UInt64(dropped.batches + 1))
        while case (let next, _)? = again.oldest() { again.remove(next) }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left == ["notes.txt"])
    }

    @Test func mqttMessagesAreReadBackByTheServersESPresenseReader() throws {
        let parser = GatewayMessageParser()
        let sighting = ForwardedSighting(t: 1, device: Self.beacon.text, node: "hall", rssi: -61, tx: -59)
        let id = try #require(MQTTForwarder.espresenseID(sighting.device))
        #expect(id.hasPrefix("iBeacon:"))
        let message = try parser.parse(
            topic: "espresense/devices/\(id)/hall", payload: MQTTForwarder.payload(id: id, sighting))
        #expect(
            message
                == .sighting(
                    GatewaySighting(
                        gateway: .espresense, node: "hall", device: Self.beacon.text, rssiDBm: -61, txPowerDBm: -59)))
        let address = try #require(MQTTForwarder.espresenseID("AA:BB:CC:DD:EE:01"))
        let read = try parser.parse(
            topic: "espresense/devices/\(address)/hall",
            payload: MQTTForwarder.payload(
                id: address, ForwardedSighting(t: 1, device: "AA:BB:CC:DD:EE:01", node: "hall", rssi: -70)))
        #expect(
            read
                == .sighting(
                    GatewaySighting(gateway: .espresense, node: "hall", device: "AA:BB:CC:DD:EE:01", rssiDBm: -70)))
        #expect(MQTTForwarder.espresenseID("eddystone-url:https://x.example/a") == nil)
    }

    // MARK: - The binary

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

    static let venueJSON = """
        {"id": "tiny", "name": "Tiny", "anchor": {"latitude": 52.5, "longitude": 13.4},
         "floors": [{"level": 0, "outline": [[-5, -10], [25, -10], [25, 10], [-5, 10]]}],
         "nodes": [{"id": "n1", "x": 0, "y": 0}, {"id": "n2", "x": 20, "y": 0}]}
        """

    struct Failure: Error { var message: String }

    /// A free TCP port on 127.0.0.1.
    static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(socket, raw, length) == 0 && getsockname(socket, raw, &length) == 0
            }
        }
        guard bound else { throw Failure(message: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts `indoor serve` on `port` and waits until it answers.
    static func serve(
        _ binary: URL, port: Int, database: String, options: [String] = [], environment: [String: String] = [:]
    ) async throws -> Process {
        let process = Process()
        process.executableURL = binary
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.arguments =
            [
                "serve", "--host", "127.0.0.1", "--port", "\(port)", "--database", database, "--admin-key",
                "a-key-6f1c2a9e4b7d0358",
                "--ingest-key", "i-key-93be0d5c71a4f826", "--read-key", "r-key-2d8a64f0c5e19b37", "--log-level",
                "warning",
            ] + options
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<600 {
            if let (status, _) = try? await request(port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37"),
                status == 200
            {
                return process
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.terminate()
        throw Failure(message: "indoor serve did not answer within 60 s")
    }

    static func request(_ port: Int, _ method: String, _ path: String, key: String, body: String? = nil)
        async throws -> (Int, Data)
    {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { throw Failure(message: path) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 10
        if let body { request.httpBody = Data(body.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// Runs `indoor gateway` with `arguments`; its stderr is collected in the returned pipe.
    static func gateway(
        _ binary: URL, _ arguments: [String], stdin: Pipe? = nil, environment extra: [String: String] = [:]
    ) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["gateway"] + arguments
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["INDOOR_INGEST_KEY"] = "i-key-93be0d5c71a4f826"
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        if let stdin { process.standardInput = stdin }
        try process.run()
        return (process, errors)
    }

    /// The sightings the server counted as ingested (`/metrics`).
    static func ingested(_ port: Int) async throws -> Double {
        let (_, data) = try await request(port, "GET", "/metrics", key: "r-key-2d8a64f0c5e19b37")
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first {
            $0.hasPrefix("indoor_sightings_ingested_total")
        }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } ?? 0
    }

    static func batchFiles(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("batch-") }
    }

    @Test func aFollowedFileIsQueuedWhileTheServerIsDownAndDeliveredWhenItComesUp() async throws {
        let binary = try #require(
            Self.binary, "no indoor binary: build it with swift build --package-path Server --product indoor")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = folder.appendingPathComponent("hci.btsnoop")
        let queue = folder.appendingPathComponent("queue")
        try FileManager.default.createDirectory(at: queue, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: queue.appendingPathComponent("README"))
        let start = Date().timeIntervalSince1970 - 30
        try Data(try Self.capture(count: 10, start: start)).write(to: capture)
        let port = try Self.freePort()

        let (agent, errors) = try Self.gateway(
            binary,
            [
                capture.path, "--node", "n1", "--server", "http://127.0.0.1:\(port)", "--venue", "tiny", "--queue",
                queue.path, "--batch-interval", "0.2", "--status-interval", "1",
            ])
        defer { if agent.isRunning { agent.terminate() } }
        // More records appended while it follows the file.
        try await Task.sleep(for: .seconds(1))
        let handle = try FileHandle(forWritingTo: capture)
        handle.seekToEndOfFile()
        handle.write(Data(try Self.capture(count: 10, start: start + 5, header: false)))
        try handle.close()
        try await Task.sleep(for: .seconds(2))
        #expect(!Self.batchFiles(queue).isEmpty)

        let database = folder.appendingPathComponent("indoor.sqlite").path
        let server = try await Self.serve(binary, port: port, database: database)
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let (created, _) = try await Self.request(
            port, "PUT", "/v1/venues/tiny", key: "a-key-6f1c2a9e4b7d0358", body: Self.venueJSON)
        #expect(created == 201)
        var delivered = 0.0
        for _ in 0..<150 where delivered < 20 {
            try await Task.sleep(for: .milliseconds(200))
            delivered = try await Self.ingested(port)
        }
        #expect(delivered == 20)
        let (status, body) = try await Self.request(
            port, "GET", "/v1/venues/tiny/devices?within=3600", key: "r-key-2d8a64f0c5e19b37")
        #expect(status == 200)
        let text = String(decoding: body, as: UTF8.self)
        // The tag's beacon id is gateway-derived: the server keeps it as its pseudonym (docs/PRIVACY.md).
        #expect(text.contains(#""device":"anon-"#))
        #expect(!text.contains(Self.beacon.uuid.uuidString))
        agent.terminate()
        agent.waitUntilExit()
        #expect(agent.terminationStatus == 0)
        #expect(Self.batchFiles(queue).isEmpty)
        #expect(FileManager.default.fileExists(atPath: queue.appendingPathComponent("README").path))
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("queued"))
        #expect(log.contains("read 20, sent 20"))
    }

    @Test func standardInputIsReadToItsEndAndSent() async throws {
        let binary = try #require(
            Self.binary, "no indoor binary: build it with swift build --package-path Server --product indoor")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try Self.freePort()
        let server = try await Self.serve(binary, port: port, database: folder.appendingPathComponent("i.sqlite").path)
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        _ = try await Self.request(port, "PUT", "/v1/venues/tiny", key: "a-key-6f1c2a9e4b7d0358", body: Self.venueJSON)
        let input = Pipe()
        let (agent, errors) = try Self.gateway(
            binary,
            [
                "-", "--node", "n2", "--server", "http://127.0.0.1:\(port)", "--venue", "tiny", "--queue",
                folder.appendingPathComponent("q").path,
            ], stdin: input)
        input.fileHandleForWriting.write(Data(try Self.capture(count: 6, start: Date().timeIntervalSince1970 - 10)))
        try input.fileHandleForWriting.close()
        agent.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(agent.terminationStatus == 0, "\(log)")
        #expect(try await Self.ingested(port) == 6)
        #expect(log.contains("read 6, sent 6"))
    }

    @Test(.needsBroker) func overMQTTInESPresensesLayoutTheServerTakesEverySighting() async throws {
        let binary = try #require(
            Self.binary, "no indoor binary: build it with swift build --package-path Server --product indoor")
        let broker = try Broker()
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try Self.freePort()
        let server = try await Self.serve(
            binary, port: port, database: folder.appendingPathComponent("m.sqlite").path,
            options: ["--mqtt", broker.url, "--mqtt-client-id", "server"], environment: broker.environment)
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        _ = try await Self.request(port, "PUT", "/v1/venues/tiny", key: "a-key-6f1c2a9e4b7d0358", body: Self.venueJSON)
        // The server subscribes before the gateway publishes: its session is new, so nothing would be kept for it.
        for _ in 0..<300 {
            let (_, health) = try await Self.request(port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37")
            if String(decoding: health, as: UTF8.self).contains(#""state":"connected""#) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let input = Pipe()
        let (agent, errors) = try Self.gateway(
            binary,
            [
                "-", "--node", "n1", "--mqtt", broker.url, "--queue", folder.appendingPathComponent("q").path,
            ], stdin: input, environment: broker.environment)
        input.fileHandleForWriting.write(Data(try Self.capture(count: 8, start: Date().timeIntervalSince1970 - 5)))
        try input.fileHandleForWriting.close()
        agent.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(agent.terminationStatus == 0, "\(log)")
        var taken = 0.0
        for _ in 0..<300 where taken < 8 {
            taken = try await Self.ingested(port)
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(taken == 8)
        // The beacon's first fix, made by the server's tick when its first-fix delay has passed.
        var devices = ""
        for _ in 0..<300 where !devices.contains(#""device":"anon-"#) {
            let (_, body) = try await Self.request(
                port, "GET", "/v1/venues/tiny/devices?within=3600", key: "r-key-2d8a64f0c5e19b37")
            devices = String(decoding: body, as: UTF8.self)
            try await Task.sleep(for: .milliseconds(100))
        }
        // The tag's beacon id is gateway-derived: the server keeps it as its pseudonym (docs/PRIVACY.md).
        #expect(devices.contains(#""device":"anon-"#))
        #expect(!devices.contains(Self.beacon.uuid.uuidString))
    }

    /// A broker slow to accept the connection (its CONNACK held back 300 ms by a proxy, as amqtt's password hashing
    /// does): a file read with --no-follow is sent whole before the command ends, with MQTT 3.1.1 and with MQTT 5 (a
    /// broker that speaks only 3.1.1, amqtt, refuses the MQTT 5 CONNECT, and the gateway falls back to 3.1.1).
    @Test(.needsBroker, arguments: ["3.1.1", "5"])
    func overMQTTAFileIsSentWholeToABrokerSlowToAccept(version: String) async throws {
        let binary = try #require(
            Self.binary, "no indoor binary: build it with swift build --package-path Server --product indoor")
        let broker = try Broker()
        let proxy = try BrokerProxy(to: broker.port, mode: .delayConnAck(milliseconds: 300))
        defer { proxy.stop() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try Self.freePort()
        let server = try await Self.serve(
            binary, port: port, database: folder.appendingPathComponent("s.sqlite").path,
            options: ["--mqtt", broker.url, "--mqtt-client-id", "server"], environment: broker.environment)
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        _ = try await Self.request(port, "PUT", "/v1/venues/tiny", key: "a-key-6f1c2a9e4b7d0358", body: Self.venueJSON)
        for _ in 0..<300 {
            let (_, health) = try await Self.request(port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37")
            if String(decoding: health, as: UTF8.self).contains(#""state":"connected""#) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let capture = folder.appendingPathComponent("hci.btsnoop")
        try Data(try Self.capture(count: 8, start: Date().timeIntervalSince1970 - 5)).write(to: capture)
        let queue = folder.appendingPathComponent("q")
        let (agent, errors) = try Self.gateway(
            binary,
            [
                capture.path, "--no-follow", "--node", "n1", "--mqtt", broker.url(port: proxy.port),
                "--mqtt-version", version, "--queue", queue.path,
            ], environment: broker.environment)
        agent.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(agent.terminationStatus == 0, "\(log)")
        #expect(log.contains("read 8, sent 8"), "\(log)")
        #expect(log.contains("the queue is empty"), "\(log)")
        #expect(Self.batchFiles(queue).isEmpty)
        #expect(proxy.connections.mqtt5 == (version == "5" ? 1 : 0))
        var taken = 0.0
        for _ in 0..<300 where taken < 8 {
            taken = try await Self.ingested(port)
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(taken == 8)
    }

    /// amqtt, logged in (it hashes the password before it answers): a file read with --no-follow is sent whole, with
    /// MQTT 5 asked for and refused (the gateway falls back to 3.1.1).
    @Test(.needsAMQTT) func overMQTTAFileIsSentWholeToAmqtt() async throws {
        let binary = try #require(
            Self.binary, "no indoor binary: build it with swift build --package-path Server --product indoor")
        let broker = try Broker(kind: .amqtt)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = folder.appendingPathComponent("hci.btsnoop")
        try Data(try Self.capture(count: 8, start: Date().timeIntervalSince1970 - 5)).write(to: capture)
        let queue = folder.appendingPathComponent("q")
        let (agent, errors) = try Self.gateway(
            binary,
            [
                capture.path, "--no-follow", "--node", "n1", "--mqtt", broker.url, "--mqtt-version", "5", "--queue",
                queue.path,
            ], environment: broker.environment)
        agent.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(agent.terminationStatus == 0, "\(log)")
        #expect(log.contains("read 8, sent 8"), "\(log)")
        #expect(log.contains("refused MQTT 5"), "\(log)")
        #expect(Self.batchFiles(queue).isEmpty)
    }

    /// A broker that refuses the gateway (no password where one is needed): the command ends with an error saying
    /// so, and the batches stay queued for the next run.
    @Test(.needsBroker) func overMQTTABrokerThatRefusesTheGatewayEndsItWithTheBatchesQueued() async throws {
        let binary = try #require(
            Self.binary, "no indoor binary: build it with swift build --package-path Server --product indoor")
        let broker = try Broker(requiresLogin: true)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = folder.appendingPathComponent("hci.btsnoop")
        try Data(try Self.capture(count: 4, start: Date().timeIntervalSince1970 - 5)).write(to: capture)
        let queue = folder.appendingPathComponent("q")
        let (agent, errors) = try Self.gateway(
            binary,
            [
                capture.path, "--no-follow", "--node", "n1", "--mqtt", broker.url, "--queue", queue.path,
            ])
        agent.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(agent.terminationStatus == 1, "\(log)")
        #expect(log.contains("refused the connection"), "\(log)")
        #expect(log.contains("stay queued"), "\(log)")
        #expect(log.contains("read 4, sent 0"), "\(log)")
        #expect(!Self.batchFiles(queue).isEmpty)
    }

    /// At the end of the input, a server that turns the gateway away (404: no such venue) ends it with an error, the
    /// batches left queued, instead of trying for ever.
    @Test func aServerThatTurnsTheGatewayAwayEndsItWithTheBatchesQueued() async throws {
        let binary = try #require(
            Self.binary, "no indoor binary: build it with swift build --package-path Server --product indoor")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try Self.freePort()
        let server = try await Self.serve(binary, port: port, database: folder.appendingPathComponent("t.sqlite").path)
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let capture = folder.appendingPathComponent("hci.btsnoop")
        try Data(try Self.capture(count: 3, start: Date().timeIntervalSince1970 - 5)).write(to: capture)
        let queue = folder.appendingPathComponent("q")
        let (agent, errors) = try Self.gateway(
            binary,
            [
                capture.path, "--no-follow", "--node", "n1", "--server", "http://127.0.0.1:\(port)", "--venue",
                "nosuch", "--queue", queue.path,
            ])
        agent.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(agent.terminationStatus == 1, "\(log)")
        #expect(log.contains("check the venue 'nosuch'"), "\(log)")
        #expect(log.contains("stay queued"), "\(log)")
        #expect(!Self.batchFiles(queue).isEmpty)
    }

    @Test func aFIFOIsReadToItsEndAndSent() async throws {
        let binary = try #require(
            Self.binary, "no indoor binary: build it with swift build --package-path Server --product indoor")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try Self.freePort()
        let server = try await Self.serve(binary, port: port, database: folder.appendingPathComponent("f.sqlite").path)
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        _ = try await Self.request(port, "PUT", "/v1/venues/tiny", key: "a-key-6f1c2a9e4b7d0358", body: Self.venueJSON)
        let fifo = folder.appendingPathComponent("btmon.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let (agent, errors) = try Self.gateway(
            binary,
            [
                fifo.path, "--node", "n1", "--server", "http://127.0.0.1:\(port)", "--venue", "tiny", "--queue",
                folder.appendingPathComponent("q").path,
            ])
        // Opening the FIFO for writing waits for the gateway to open it for reading.
        let writer = try FileHandle(forWritingTo: fifo)
        writer.write(Data(try Self.capture(count: 5, start: Date().timeIntervalSince1970 - 10)))
        try writer.close()
        agent.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(agent.terminationStatus == 0, "\(log)")
        #expect(try await Self.ingested(port) == 5)
    }

    @Test func inputThatIsNotBtsnoopIsOneLineNamingTheFile() throws {
        let binary = try #require(
            Self.binary, "no indoor binary: build it with swift build --package-path Server --product indoor")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try Data("this is not a capture, just text".utf8).write(to: file)
        for path in [file.path, folder.appendingPathComponent("missing.btsnoop").path] {
            let (agent, errors) = try Self.gateway(
                binary,
                [
                    path, "--no-follow", "--node", "n1", "--server", "http://127.0.0.1:9", "--venue", "tiny",
                    "--queue", folder.appendingPathComponent("q").path,
                ])
            agent.waitUntilExit()
            let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(agent.terminationStatus == 1)
            let error = log.split(separator: "\n").filter { $0.hasPrefix("Error:") }
            #expect(error.count == 1)
            #expect(error.first?.contains(path) == true, "\(log)")
        }
        let (agent, errors) = try Self.gateway(
            binary, [file.path, "--node", "n1", "--server", "ftp://x", "--venue", "v"])
        agent.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(agent.terminationStatus != 0)
        #expect(log.contains("--server 'ftp://x'"))
    }
}
