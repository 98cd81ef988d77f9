import ArgumentParser
import Dispatch
import Foundation
import IndoorGateways
import IndoorMQTT
import Synchronization

/// `indoor gateway INPUT`: a Linux gateway agent forwarding the beacons a btsnoop stream hears.
struct GatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        abstract: "Forward the beacons a live btsnoop stream (btmon -w) hears to a server or an MQTT broker.",
        discussion: """
            Reads a btsnoop stream as it is written: a file (followed like tail -f), a FIFO, or standard input \
            (-). Beacon advertisements (iBeacon, AltBeacon, Eddystone) become sightings of this gateway's node, \
            timed by their records. They are sent in batches to a server (POST /v1/sightings, the ingest key \
            from INDOOR_INGEST_KEY) or published to a broker as an ESPresense node would (password from \
            INDOOR_MQTT_PASSWORD). Every batch is queued on disk until it is acknowledged, so nothing is lost while \
            the destination is down; queued batches are sent first on the next start. A status line comes every \
            10 s. At the end of the input (a FIFO, standard input, or a file with --no-follow) it keeps trying \
            until every queued batch is sent, then ends; it ends with an error when the broker refuses its \
            connection (the batches stay queued). SIGINT or SIGTERM sends what can be sent at once and stops.

            Example: btmon -w /var/tmp/hci.btsnoop & indoor gateway /var/tmp/hci.btsnoop --node hall \
            --server https://indoor.example:8080 --venue hq
            """)

    @Argument(help: ArgumentHelp("The btsnoop stream: a file, a FIFO, or - for standard input.", valueName: "input"))
    var input: String

    @Option(help: ArgumentHelp("This gateway's node id, as the venue names it.", valueName: "id"))
    var node: String

    @Option(help: ArgumentHelp("The location server: http(s)://host:port.", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("The venue the sightings belong to (with --server).", valueName: "id"))
    var venue: String?

    @Option(
        help: ArgumentHelp(
            "An MQTT broker to publish to as an ESPresense node: mqtt://[user@]host[:port] or mqtts://….",
            valueName: "url"))
    var mqtt: String?

    @Option(help: ArgumentHelp("The MQTT client id (default indoor-gateway-NODE).", valueName: "id"))
    var mqttClientID: String?

    @Option(help: MQTTVersionOption.help)
    var mqttVersion: MQTTVersionOption = .mqtt311

    @Option(help: ArgumentHelp("ESPresense's root topic (default espresense).", valueName: "topic"))
    var espresenseRoot: String = "espresense"

    @Option(
        help: ArgumentHelp(
            "A JSON file of identity resolving keys by device name, {\"anna-iphone\": \"<32 hex digits>\"}: "
                + "advertisements from resolvable private addresses are forwarded under the name.",
            valueName: "path"))
    var irks: String?

    @Flag(help: "Forward non-beacon advertisements from public and static addresses, with the address as device.")
    var addresses = false

    @Option(help: ArgumentHelp("The folder of batches waiting to be sent.", valueName: "dir"))
    var queue: String = "indoor-gateway-queue"

    @Option(help: ArgumentHelp("The most the queue may hold, MB; beyond it the oldest batches are dropped."))
    var queueLimit: Double = 100

    @Option(help: ArgumentHelp("A batch is sent this long after its first sighting, seconds.", valueName: "seconds"))
    var batchInterval: Double = 1

    @Option(help: ArgumentHelp("A batch is sent at this many sightings.", valueName: "count"))
    var batchSize: Int = 500

    @Option(help: ArgumentHelp("Seconds between status lines.", valueName: "seconds"))
    var statusInterval: Double = 10

    @Flag(help: "Stop at the end of a file instead of following it.")
    var noFollow = false

    func validate() throws {
        switch (server, mqtt) {
        case (nil, nil): throw ValidationError("give --server (with --venue) or --mqtt: where to send the sightings")
        case (.some, .some): throw ValidationError("give either --server or --mqtt, not both")
        default: break
        }
        if let server {
            do {
                _ = try HTTPForwarder.serverURL(server)
            } catch {
                throw ValidationError(error.description)
            }
            guard let venue, !venue.isEmpty else { throw ValidationError("--server needs --venue, the venue's id") }
        } else if venue != nil {
            throw ValidationError("--venue goes with --server")
        }
        if mqtt == nil && mqttVersion != .mqtt311 { throw ValidationError("--mqtt-version goes with --mqtt") }
        if let mqtt {
            do {
                _ = try MQTTURL(parsing: mqtt)
            } catch {
                throw ValidationError("--mqtt '\(mqtt)': \(error)")
            }
            if espresenseRoot.isEmpty || espresenseRoot.contains(where: { $0 == "+" || $0 == "#" }) {
                throw ValidationError("--espresense-root '\(espresenseRoot)' must be a topic without wildcards")
            }
        }
        if node.isEmpty || node.count > 128 || node.contains(where: { $0 == "/" || $0 == "+" || $0 == "#" })
            || node.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        {
            throw ValidationError(
                "--node '\(node)' cannot be a node id: 1 to 128 characters, without '/', '+', '#' or control characters"
            )
        }
        if !(queueLimit > 0 && queueLimit.isFinite) { throw ValidationError("--queue-limit must be more than 0 MB") }
        if !(batchInterval > 0 && batchInterval <= 3600) {
            throw ValidationError("--batch-interval must be more than 0 and at most 3600 seconds")
        }
        if !(1...10_000).contains(batchSize) { throw ValidationError("--batch-size must be 1 to 10000") }
        if !(statusInterval > 0 && statusInterval.isFinite) {
            throw ValidationError("--status-interval must be more than 0 seconds")
        }
    }

    func run() async throws {
        try await forward()
    }

    private func forward() async throws {
        let environment = ProcessInfo.processInfo.environment
        do {
            try BtsnoopFollower(path: input, follow: false).checkInput()
        } catch {
            throw CommandFailure(error.description)
        }
        let resolver = try readIRKs()
        let diskQueue: DiskQueue
        do {
            diskQueue = try DiskQueue(
                folder: URL(fileURLWithPath: queue), limitBytes: Int(queueLimit * 1_048_576))
        } catch {
            throw CommandFailure(error.description)
        }
        let forwarder: any SightingForwarder
        if let server, let venue {
            let key = environment["INDOOR_INGEST_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            forwarder = HTTPForwarder(server: try HTTPForwarder.serverURL(server), venue: venue, key: key)
        } else if let mqtt {
            let mqttForwarder = MQTTForwarder(
                url: try MQTTURL(parsing: mqtt), clientID: mqttClientID ?? "indoor-gateway-\(node)",
                password: environment[MQTTConfiguration.passwordEnvironmentVariable].flatMap { $0.isEmpty ? nil : $0 },
                root: espresenseRoot, node: node, version: mqttVersion)
            mqttForwarder.start()
            forwarder = mqttForwarder
        } else {
            throw ValidationError("give --server (with --venue) or --mqtt")
        }
        let run = GatewayRun(
            settings: GatewayRun.Settings(
                input: input, follow: !noFollow, batchSeconds: batchInterval, batchSize: batchSize,
                statusSeconds: statusInterval),
            queue: diskQueue, forwarder: forwarder,
            decoder: GatewayDecoder(node: node, resolver: resolver, addresses: addresses))
        let signals = Self.handleSignals { run.requestStop() }
        defer { for source in signals { source.cancel() } }
        do {
            _ = try await run.run()
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// SIGINT and SIGTERM call `stop` (a second one ends the process at once).
    private static func handleSignals(_ stop: @escaping @Sendable () -> Bool) -> [any DispatchSourceSignal] {
        let queue = DispatchQueue(label: "indoor.gateway.signals")
        return [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if stop() {
                    GatewayLog.line("indoor gateway: stopping: sending what is queued, then ending")
                } else {
                    Foundation.exit(128 + number)
                }
            }
            source.resume()
            return source
        }
    }

    /// The resolver of `--irks`, when given.
    private func readIRKs() throws -> IRKResolver? {
        try irks.map { try IRKFile.resolver(path: $0) }
    }
}
