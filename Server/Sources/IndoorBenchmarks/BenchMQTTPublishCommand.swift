import ArgumentParser
import Foundation
import IndoorCommands
import IndoorMQTT
import IndoorModel
import Logging
import Synchronization

/// `indoor-bench mqtt-publish`: sightings per second through a running `indoor serve --mqtt`, from the first
/// ESPresense message published to the broker until the server's `/metrics` counts the last one ingested.
struct BenchMQTTPublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mqtt-publish",
        abstract: "Sightings per second through `indoor serve --mqtt`: publish ESPresense messages, wait for ingest.",
        discussion: """
            Publishes COUNT ESPresense device messages (`<root>/devices/<device>/<node>`, payload {"rssi":…}, one \
            sighting each) made from the rows of SIGHTINGS (`indoor simulate`'s test/sightings.csv, replayed in \
            order: the workload of scripts/bench-serve.sh) to the broker, from PUBLISHERS connections with IN-FLIGHT \
            publishes outstanding on each (at QoS 1 a publish ends at the broker's PUBACK). Then reads the \
            server's indoor_sightings_ingested_total every 10 ms until it has grown by COUNT, and reports COUNT \
            divided by the seconds from the first publish to that reading. The server must be subscribed to the \
            broker (`indoor serve --mqtt`) and have a venue with the file's nodes; nothing else should feed it \
            meanwhile. Build with `-c release`; scripts/bench-mqtt.sh runs it beside the HTTP benchmark.
            """)

    @Option(help: ArgumentHelp("The broker: mqtt://host[:port].", valueName: "url"))
    var broker = "mqtt://127.0.0.1:1883"

    @Option(help: ArgumentHelp("The server whose /metrics is read: http://host:port.", valueName: "url"))
    var server: String

    @Option(help: ArgumentHelp("A read key of the server, for /metrics (INDOOR_READ_KEY).", valueName: "key"))
    var readKey: String?

    @Option(help: ArgumentHelp("The sightings CSV (t,device,node,rssi) the messages are made of.", valueName: "path"))
    var sightings: String

    @Option(parsing: .unconditional, help: "Messages (sightings) to publish, 1...100000000.")
    var count = 200_000

    @Option(help: "QoS of the publishes: 0 or 1.")
    var qos = 0

    @Option(parsing: .unconditional, help: "Publishing connections to the broker, 1...64.")
    var publishers = 2

    @Option(parsing: .unconditional, help: "Publishes outstanding at once on each connection, 1...10000.")
    var inFlight = 200

    @Option(help: ArgumentHelp("ESPresense's root topic.", valueName: "topic"))
    var espresenseRoot = "espresense"

    @Option(parsing: .unconditional, help: "Seconds to wait for the server to count every sighting.")
    var timeout = 120.0

    @Flag(help: "Print one JSON object.")
    var json = false

    /// What one run measured.
    struct Result: Encodable, Sendable {
        var benchmark = "mqtt-publish"
        var qos: Int
        var sightings: Int
        var devices: Int
        var nodes: Int
        var publishers: Int
        var inFlight: Int
        /// Seconds from the first publish until every publish had returned.
        var publishSeconds: Double
        /// Seconds from the first publish until the server counted the last sighting.
        var seconds: Double
        /// Growth of `indoor_sightings_ingested_total` during the run.
        var ingested: Int
        /// `sightings / seconds`.
        var sightingsPerSecond: Double
    }

    func validate() throws {
        guard (1...100_000_000).contains(count) else { throw ValidationError("--count must be 1...100000000") }
        guard qos == 0 || qos == 1 else { throw ValidationError("--qos must be 0 or 1") }
        guard (1...64).contains(publishers) else { throw ValidationError("--publishers must be 1...64") }
        guard (1...10_000).contains(inFlight) else { throw ValidationError("--in-flight must be 1...10000") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be positive") }
        do {
            let url = try MQTTURL(parsing: broker)
            if url.isTLS { throw ValidationError("--broker must be mqtt:// (the benchmark does not use TLS)") }
        } catch let error as MQTTURLError {
            throw ValidationError("--broker: \(error)")
        }
    }

    func run() throws {
        let outcome = Mutex<Swift.Result<Result, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let command = self
        Task {
            do {
                let result = try await command.measure()
                outcome.withLock { $0 = .success(result) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        guard let result = try outcome.withLock({ $0 })?.get() else { return }
        if json {
            print(String(decoding: try JSONFormat.encoder().encode(result), as: UTF8.self))
        } else {
            print(
                "mqtt-publish: \(result.sightings) sightings (\(result.devices) devices, \(result.nodes) nodes) at QoS "
                    + "\(result.qos) from \(result.publishers) × \(result.inFlight) publishers: "
                    + String(
                        format: "%.3f s to ingest (%.3f s to publish): %.0f sightings/s", result.seconds,
                        result.publishSeconds, result.sightingsPerSecond))
        }
        if result.ingested < result.sightings {
            throw CommandFailure(
                "the server counted \(result.ingested) of \(result.sightings) sightings within \(timeout) s "
                    + "(dropped by the broker, refused, or not a node of a venue: see its indoor_mqtt_refused_total)")
        }
    }

    /// Connects the publishers, publishes, waits for the server's counter and disconnects.
    func measure() async throws -> Result {
        let workload = try MQTTPublishWorkload(csvAt: sightings, root: espresenseRoot)
        let probe = try IngestCounterProbe(
            server: server, readKey: readKey ?? ProcessInfo.processInfo.environment["INDOOR_READ_KEY"])
        let url = try MQTTURL(parsing: broker)
        var logger = Logger(label: "indoor-bench.mqtt") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        let process = ProcessInfo.processInfo.processIdentifier
        let clients = (0..<publishers).map { index in
            MQTTClient(
                configuration: MQTTConfiguration(
                    host: url.host, port: url.port, clientID: "indoor-bench-\(process)-\(index)", cleanSession: true,
                    reconnectBackoff: MQTTReconnectBackoff(minimum: .milliseconds(100), maximum: .seconds(1))),
                logger: logger)
        }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients {
                group.addTask { try await client.run(subscriptions: []) { _ in } }
            }
            defer { group.cancelAll() }
            do {
                let result = try await measure(clients: clients, workload: workload, probe: probe)
                for client in clients { await client.disconnect() }
                return result
            } catch {
                for client in clients { await client.disconnect() }
                throw error
            }
        }
    }

    /// The timed part: publishes `count` messages over `clients`, then polls the counter.
    private func measure(clients: [MQTTClient], workload: MQTTPublishWorkload, probe: IngestCounterProbe)
        async throws -> Result
    {
        let clock = ContinuousClock()
        let connectDeadline = clock.now + .seconds(10)
        while clients.contains(where: { $0.connectionState != .connected }) {
            guard clock.now < connectDeadline else {
                let reasons = clients.compactMap(\.lastDisconnectReason)
                throw MQTTPublishBenchError(
                    "could not connect to the broker \(broker) within 10 s: \(reasons.first ?? "no answer")")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let baseline = try await probe.ingested()
        let target = baseline + Double(count)
        let quality: MQTTQoS = qos == 1 ? .atLeastOnce : .atMostOnce
        let workers = publishers * inFlight
        let count = count
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
                let client = clients[worker % clients.count]
                group.addTask {
                    var index = worker
                    while index < count {
                        let message = workload.message(index)
                        try await client.publish(topic: message.topic, payload: message.payload, qos: quality)
                        index += workers
                    }
                }
            }
            try await group.waitForAll()
        }
        let published = clock.now
        let deadline = published + .seconds(timeout)
        var ingested = try await probe.ingested()
        var end = clock.now
        while ingested < target, end < deadline {
            try await Task.sleep(for: .milliseconds(10))
            ingested = try await probe.ingested()
            end = clock.now
        }
        let seconds = BenchStopwatch.seconds(end - start)
        let taken = Int(ingested - baseline)
        return Result(
            qos: qos, sightings: count, devices: workload.devices, nodes: workload.nodes, publishers: publishers,
            inFlight: inFlight, publishSeconds: BenchStopwatch.seconds(published - start), seconds: seconds,
            ingested: taken, sightingsPerSecond: Double(min(taken, count)) / seconds)
    }
}
