import ArgumentParser
import Dispatch
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import IndoorEvaluation
import IndoorModel
import IndoorServer
import Logging
import ServiceLifecycle
import Synchronization

/// `indoor serve`: the location server (HTTP API, SQLite or PostgreSQL store, live stream, map).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the location server: HTTP API, SQLite or PostgreSQL store, live event stream and map.",
        discussion: """
            Gateways and phones POST sightings to /v1/sightings; the server answers with the fixes and zone \
            events they caused, keeps the zone activity log with dwell times, streams fixes and events as \
            Server-Sent Events and shows the devices on a live map at /. Every option can also be set by the \
            environment variable named in its help; a flag wins over the environment. Stop with Ctrl-C or \
            SIGTERM: the server finishes the requests in flight and closes the database.
            Keys: an admin key (venues, keys), ingest keys (sightings), read keys (API, stream, map). Keys are \
            stored hashed in the database. A key given here must carry 128 bits or more (make one with \
            'openssl rand -hex 16'), and is accepted only while it is given: a start without it retires it. Keys \
            made with POST /v1/keys stay until revoked (DELETE /v1/keys/ID) or expired. When the database has no \
            admin key and none is given, one is made and printed once.
            """
    )

    @Option(help: "The address to listen on (INDOOR_HOST).")
    var host: String?

    @Option(help: "The TCP port; 0 picks a free one (INDOOR_PORT; default 8080).")
    var port: Int?

    @Option(
        help: ArgumentHelp(
            "The SQLite database file, created when missing, or a PostgreSQL database as "
                + "postgres://user@host:port/dbname (INDOOR_DATABASE; default ./indoor.sqlite).",
            discussion: """
                An existing file must be an Indoor database; it is never deleted or replaced. A PostgreSQL database \
                must be empty or an Indoor one; its password is read from INDOOR_DATABASE_PASSWORD (a password in \
                the URL works but shows in process lists); ?sslmode=disable, prefer, require or verify-full chooses \
                TLS (default: off on a loopback host, prefer elsewhere). See docs/SERVER.md, PostgreSQL.
                """,
            valueName: "path-or-url"))
    var database: String?

    @Option(
        help:
            "How hard a commit waits for the disk: normal (survives a killed process) or full (survives a power cut too) (INDOOR_DURABILITY)."
    )
    var durability: String?

    @Option(
        help:
            "An admin key to accept while given, stored hashed; 128 bits or more, e.g. from 'openssl rand -hex 16' (INDOOR_ADMIN_KEY)."
    )
    var adminKey: String?

    @Option(help: "An ingest key to accept while given (repeatable; INDOOR_INGEST_KEYS, comma-separated).")
    var ingestKey: [String] = []

    @Option(help: "A read key to accept while given (repeatable; INDOOR_READ_KEYS, comma-separated).")
    var readKey: [String] = []

    @Flag(
        help: ArgumentHelp(
            "Answer /metrics and the detailed /health without a key (INDOOR_PUBLIC_METRICS=1).",
            discussion: "By default they need a read key, and /health without one says only whether the server is up."))
    var publicMetrics = false

    @Option(help: "The most sightings in one batch; more is answered 413 (INDOOR_MAX_BATCH; default 10000).")
    var maxBatch: Int?

    @Option(help: "The largest request body in bytes; more is answered 413 (INDOOR_MAX_BODY_BYTES; default 8388608).")
    var maxBodyBytes: Int?

    @Option(
        help: ArgumentHelp(
            "Seconds a sighting may be older than its venue's present; also how far ahead of it a recording-time "
                + "sighting may be. Others are refused, naming t and the window.",
            valueName: "seconds"))
    var maxLateness: Double = 3600

    @Option(
        help: ArgumentHelp(
            "Seconds a Unix-time sighting may be ahead of the server's clock.", valueName: "seconds"))
    var maxClockSkew: Double = 60

    @Option(
        help: ArgumentHelp(
            "How long stored sightings are kept after they were received: 90s, 30m, 12h, 7d, or forever; older ones "
                + "are deleted once a minute, a few thousand at a time.",
            valueName: "duration"))
    var retainSightings: String = "7d"

    @Option(
        help: ArgumentHelp(
            "How long stored fixes and zone events (what a stream resumes from with Last-Event-ID) are kept, as for "
                + "--retain-sightings.",
            valueName: "duration"))
    var retainEvents: String = "30d"

    @Option(
        help: ArgumentHelp(
            "How long closed zone visits (the activity log) are kept after their check-out; open visits always stay.",
            valueName: "duration"))
    var retainVisits: String = "400d"

    @Option(
        help: ArgumentHelp(
            "How long audit log entries (who read devices, activity and streams, and every admin action) are kept, "
                + "as for --retain-sightings.",
            valueName: "duration"))
    var retainAudit: String = "90d"

    @Option(
        help: ArgumentHelp(
            "Seconds a connection may wait with a request half sent, or idle between requests, before it is closed; "
                + "live streams are not closed.",
            valueName: "seconds"))
    var idleTimeout: Int = 30

    @Option(
        help: ArgumentHelp(
            "The most connections open at once; more are closed as they come (default 4000, and at most the "
                + "open-files limit less 64, which the server raises to its hard limit where it may).",
            valueName: "count"))
    var maxConnections: Int?

    @Option(
        help: ArgumentHelp(
            "The most connections open at once from one client address.", valueName: "count"))
    var maxConnectionsPerAddress: Int = 200

    @Option(
        help: ArgumentHelp(
            "The most devices each venue holds at once; beyond it a new device lets go of the one silent longest "
                + "(its open visits checked out, lost), so a flood of new ids cannot exhaust memory.",
            valueName: "count"))
    var maxDevices: Int = 100_000

    @Option(
        help: ArgumentHelp(
            "The most live events a stream client may have waiting; one further behind is ended and may resume with "
                + "Last-Event-ID.",
            valueName: "events"))
    var streamBuffer: Int = 5000

    @Option(
        help: ArgumentHelp(
            "Serve HTTPS with this PEM certificate chain (the server's certificate first); needs --tls-key "
                + "(INDOOR_TLS_CERT).",
            valueName: "path"))
    var tlsCert: String?

    @Option(
        help: ArgumentHelp("The PEM private key of --tls-cert (INDOOR_TLS_KEY).", valueName: "path"))
    var tlsKey: String?

    @Flag(
        help: ArgumentHelp(
            "Accept webhook targets in private, loopback and link-local ranges (INDOOR_WEBHOOK_ALLOW_PRIVATE=1).",
            discussion: "By default a webhook whose host resolves to such an address is refused, at creation and "
                + "at each delivery."))
    var webhookAllowPrivate = false

    @Option(
        help: ArgumentHelp(
            "How long a webhook may fail without a success before it is disabled (GET /v1/webhooks/ID says why), as "
                + "for --retain-sightings.",
            valueName: "duration"))
    var webhookDisableAfter: String = "24h"

    @OptionGroup(title: "Gateways over MQTT")
    var gateways: ServeMQTTOptions

    @OptionGroup(title: "Several instances")
    var cluster: ServeClusterOptions

    @OptionGroup(title: "Privacy")
    var privacy: ServePrivacyOptions

    @Option(help: "Log level: trace, debug, info, notice, warning, error (INDOOR_LOG_LEVEL; default info).")
    var logLevel: String?

    @Flag(
        help: ArgumentHelp(
            "Serve a simulated office with walkers moving through the real ingest path, and print its keys.",
            discussion: "It learns from the office's simulated survey in the background, as --survey does."))
    var demo = false

    @Option(
        help: ArgumentHelp(
            "A venue's site survey, VENUE=FOLDER (repeatable): sightings.csv and truth.csv, or a dataset with train/.",
            discussion: """
                The venue's session and its scans then track over a radio map learned from the survey. It is \
                learned in the background when the venue starts or is put (seconds in a release build, minutes in \
                a debug one); the venue is served without it until then, and its zone visits carry on across the \
                change.
                """))
    var survey: [String] = []

    func validate() throws {
        if let port = try resolvedPort(), !(0...65535).contains(port) {
            throw ValidationError("--port \(port) is not in 0...65535")
        }
        if let maxBatch = try resolvedInt(maxBatch, "INDOOR_MAX_BATCH"), maxBatch < 1 {
            throw ValidationError("--max-batch must be at least 1")
        }
        guard maxLateness.isFinite, maxLateness > 0 else {
            throw ValidationError("--max-lateness must be a number of seconds > 0")
        }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
        guard maxConnectionsPerAddress >= 1 else {
            throw ValidationError("--max-connections-per-address must be at least 1")
        }
        guard streamBuffer >= 1 else { throw ValidationError("--stream-buffer must be at least 1") }
        guard maxDevices >= 1 else { throw ValidationError("--max-devices must be at least 1") }
        guard (1...86400).contains(idleTimeout) else {
            throw ValidationError("--idle-timeout must be 1...86400 seconds")
        }
        for (option, text) in [
            ("--retain-sightings", retainSightings), ("--retain-events", retainEvents),
            ("--retain-visits", retainVisits), ("--retain-audit", retainAudit),
            ("--webhook-disable-after", webhookDisableAfter),
        ] where Self.duration(text) == nil {
            throw ValidationError("\(option) '\(text)': expected a duration such as 90s, 30m, 12h, 7d, or forever")
        }
        guard maxClockSkew.isFinite, maxClockSkew >= 0 else {
            throw ValidationError("--max-clock-skew must be a number of seconds ≥ 0")
        }
        if let bytes = try resolvedInt(maxBodyBytes, "INDOOR_MAX_BODY_BYTES"), bytes < 1024 {
            throw ValidationError("--max-body-bytes must be at least 1024")
        }
        if let text = durability ?? Self.environment("INDOOR_DURABILITY"), SQLiteStore.Durability(rawValue: text) == nil
        {
            throw ValidationError("--durability '\(text)' is not normal or full")
        }
        if let text = database ?? Self.environment("INDOOR_DATABASE"), PostgresURL.isPostgres(text) {
            do {
                _ = try PostgresURL(text)
            } catch let error as StoreError {
                throw ValidationError("--database: \(error.message)")
            }
            if durability != nil {
                throw ValidationError(
                    "--durability is for a SQLite database; with PostgreSQL, the server's synchronous_commit decides")
            }
        }
        switch (tlsCert ?? Self.environment("INDOOR_TLS_CERT"), tlsKey ?? Self.environment("INDOOR_TLS_KEY")) {
        case (.some, nil): throw ValidationError("--tls-cert needs --tls-key, the certificate's private key")
        case (nil, .some): throw ValidationError("--tls-key needs --tls-cert, the certificate chain it belongs to")
        default: break
        }
        for (option, key) in operatorKeys() {
            if let problem = KeyStrength.problem(key.key, option: option) { throw ValidationError(problem) }
        }
        if let text = logLevel ?? Self.environment("INDOOR_LOG_LEVEL"), Logger.Level(rawValue: text) == nil {
            throw ValidationError("--log-level '\(text)' is not one of trace, debug, info, notice, warning, error")
        }
    }

    func run() async throws {
        try await serve()
    }

    private func serve() async throws {
        var logger = Logger(label: "indoor.serve") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel =
            (logLevel ?? Self.environment("INDOOR_LOG_LEVEL")).flatMap { Logger.Level(rawValue: $0) } ?? .info

        var path = database ?? Self.environment("INDOOR_DATABASE")
        var temporaryFolder: URL?
        if demo && path == nil {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "indoor-demo-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            temporaryFolder = folder
            path = folder.appendingPathComponent("demo.sqlite").path
        }
        defer {
            // Only the demo's own temporary folder, which this run created, is removed.
            if let temporaryFolder { try? FileManager.default.removeItem(at: temporaryFolder) }
        }
        let databasePath = path ?? "indoor.sqlite"
        let host = host ?? Self.environment("INDOOR_HOST") ?? "127.0.0.1"
        let port = try resolvedPort() ?? 8080
        // Both said in one line before the set-up, which can take seconds (a demo, surveys).
        try ListeningPort.check(host: host, port: port)
        let tls = try serveTLS()
        let clusterIdentity = try cluster.identity(
            database: databasePath, host: host, port: port, scheme: tls == nil ? "http" : "https")
        let openFiles = ConnectionLimiter.raiseOpenFilesLimit()
        let (store, shownDatabase, lock) = try await openStore(databasePath, logger: logger)
        defer { withExtendedLifetime(lock) {} }
        var settings = ServerConfiguration(
            host: host, port: port,
            maxBatch: try resolvedInt(maxBatch, "INDOOR_MAX_BATCH") ?? 10_000,
            maxBodyBytes: try resolvedInt(maxBodyBytes, "INDOOR_MAX_BODY_BYTES") ?? 8 << 20,
            streamBuffer: streamBuffer,
            maxConnections: maxConnections ?? min(4000, max(1, Int(clamping: openFiles ?? 4064) - 64)),
            maxConnectionsPerAddress: maxConnectionsPerAddress, openFilesLimit: openFiles,
            maxLateness: maxLateness, maxClockSkew: maxClockSkew,
            retention: Retention(
                sightings: Self.duration(retainSightings) ?? 7 * 86400,
                events: Self.duration(retainEvents) ?? 30 * 86400,
                visits: Self.duration(retainVisits) ?? 400 * 86400,
                audit: Self.duration(retainAudit) ?? 90 * 86400, openVisits: privacy.openVisits),
            cluster: clusterIdentity, maxDevices: maxDevices)
        settings.tls = tls != nil
        settings.publicMetrics = publicMetrics || Self.environment("INDOOR_PUBLIC_METRICS") == "1"
        settings.deviceIDs = try privacy.settings(readable: try gateways.irkNames())
        settings.webhooks = WebhookSettings(
            allowPrivate: webhookAllowPrivate || Self.environment("INDOOR_WEBHOOK_ALLOW_PRIVATE") == "1",
            disableAfterSeconds: Self.duration(webhookDisableAfter) ?? 86400)
        let configuration = settings
        if tls == nil && !LoopbackHost.contains(host) {
            let warning =
                "listening on \(host) without TLS: keys and where people are cross the network in plain text; give "
                + "--tls-cert and --tls-key, or serve behind a TLS proxy"
            logger.warning("\(warning)")
        }
        var surveys = try readSurveys()
        let demoVenue = demo ? try DemoVenue() : nil
        // The demo learns from its simulated survey unless one is given for it.
        if let demoVenue, surveys[demoVenue.venue.id] == nil { surveys[demoVenue.venue.id] = demoVenue.survey }
        if !surveys.isEmpty {
            FileHandle.standardError.write(
                Data(
                    ("indoor serve: learning from the surveys of \(surveys.keys.sorted().joined(separator: ", ")) "
                        + "in the background (seconds for each venue in a release build, minutes in a debug one); "
                        + "each venue is served without its survey until then\n").utf8))
        }
        var server = try await LocationServer(
            store: store, configuration: configuration, surveys: surveys, logger: logger)
        server.mqtt = try gateways.bridge(
            hub: server.hub, retention: configuration.retention, metrics: server.metrics, logger: logger)

        var printed: [String] = []
        let retired = try await server.keys.setOperatorKeys(operatorKeys().map { $0.key })
        if !retired.isEmpty {
            logger.notice(
                "operator keys of an earlier start not given now are retired",
                metadata: ["ids": "\(retired.joined(separator: ", "))"])
        }
        var readKeyForMap: String?
        if let venue = demoVenue {
            let json = try venue.venue.encodeJSON()
            _ = try await server.hub.putVenue(id: venue.venue.id, json: json)
            for kind in KeyKind.allCases {
                let key = KeyRing.generate(kind: kind)
                try await server.keys.add(key, kind: kind, label: "\(kind) (demo)", origin: .generated)
                printed.append("  \(kind) key: \(key)")
                if kind == .read { readKeyForMap = key }
            }
        } else if !server.keys.hasKey(of: .admin) {
            let key = KeyRing.generate(kind: .admin)
            try await server.keys.add(key, kind: .admin, label: "admin (generated)", origin: .generated)
            printed.append("  admin key: \(key)   (made now and shown only this once; keep it)")
        }

        let demoID = demoVenue?.venue.id
        let shownHost = configuration.host
        let banner = printed
        let mapKey = readKeyForMap
        let connections = server.connections
        let http = HTTPServerBuilder.http1(
            configuration: .init(
                additionalChannelHandlers: [connections.handler()], idleTimeout: .seconds(Int64(idleTimeout))))
        let scheme = tls == nil ? "http" : "https"
        let app = Application(
            router: server.router(),
            server: try tls.map { try .tls(http, tlsConfiguration: $0.configuration) } ?? http,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                var lines = [
                    "Indoor server listening on \(scheme)://\(shownHost):\(port) (database \(shownDatabase))"
                ]
                lines += banner
                if let demoID, let mapKey {
                    // The key in the fragment, which the browser never sends: not in any request's address or log.
                    lines.append("  map: \(scheme)://\(shownHost):\(port)/?venue=\(demoID)#key=\(mapKey)")
                }
                FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            },
            logger: logger)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: app),
            .init(
                service: HubService(
                    hub: server.hub, demo: demoVenue, retention: configuration.retention, logger: logger)),
        ]
        if let bridge = server.mqtt { services.append(.init(service: bridge)) }
        if let clusterService = server.clusterService { services.append(.init(service: clusterService)) }
        services.append(.init(service: server.webhookService(logger: logger)))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
        if let postgres = store as? PostgresStore { await postgres.close() }
    }

    /// The store of `--database`: a PostgreSQL database for a `postgres://` URL, else the SQLite file at that path,
    /// locked for this server (``DatabaseLock``).
    /// - Returns: The store, the database as the startup line names it (never a password), and the SQLite file's lock.
    /// - Throws: ``CommandFailure`` in one line: the URL is wrong, the server cannot be reached, the file is held or
    ///   is not an Indoor database.
    private func openStore(
        _ database: String, logger: Logger
    ) async throws -> (store: any LocationStore, shown: String, lock: DatabaseLock?) {
        do {
            if PostgresURL.isPostgres(database) {
                let url = try PostgresURL(database, environmentPassword: Self.environment("INDOOR_DATABASE_PASSWORD"))
                return (try await PostgresStore.open(url, logger: logger), "\(url)", nil)
            }
            let lock = try DatabaseLock(path: database)
            let store = try SQLiteStore(
                path: database,
                durability: (durability ?? Self.environment("INDOOR_DURABILITY")).flatMap(SQLiteStore.Durability.init)
                    ?? .normal)
            return (store, database, lock)
        } catch let error as StoreError {
            throw CommandFailure(error.message)
        }
    }

    /// Seconds in a duration written `90s`, `30m`, `12h`, `7d` or as plain seconds; infinity for `forever`; `nil` for
    /// anything else, zero or less.
    static func duration(_ text: String) -> Double? {
        if text == "forever" { return .infinity }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var number = Substring(text)
        var unit = 1.0
        if let last = text.last, let scale = units[last] {
            number = number.dropLast()
            unit = scale
        }
        guard let value = Double(number), value.isFinite, value > 0 else { return nil }
        return value * unit
    }

    /// The certificate and key of `--tls-cert` / `--tls-key` (or their variables), read now; `nil` for plain HTTP.
    private func serveTLS() throws -> ServeTLS? {
        guard let certificate = tlsCert ?? Self.environment("INDOOR_TLS_CERT"),
            let key = tlsKey ?? Self.environment("INDOOR_TLS_KEY")
        else { return nil }
        return try ServeTLS(certificatePath: certificate, keyPath: key)
    }

    /// The `--survey VENUE=FOLDER` surveys by venue id, read whole (a bad row is an error naming its file and line).
    private func readSurveys() throws -> [String: Recording] {
        var surveys: [String: Recording] = [:]
        for given in survey {
            guard let equals = given.firstIndex(of: "="), equals != given.startIndex,
                given.index(after: equals) != given.endIndex
            else {
                throw ValidationError("--survey '\(given)': expected VENUE=FOLDER, e.g. --survey hq=./survey")
            }
            let id = String(given[..<equals])
            guard surveys[id] == nil else { throw ValidationError("--survey: venue '\(id)' is given twice") }
            surveys[id] = try DatasetReader.survey(
                folder: URL(fileURLWithPath: String(given[given.index(after: equals)...])))
        }
        return surveys
    }

    private func resolvedPort() throws -> Int? {
        try resolvedInt(port, "INDOOR_PORT")
    }

    private func resolvedInt(_ flag: Int?, _ variable: String) throws -> Int? {
        if let flag { return flag }
        guard let text = Self.environment(variable) else { return nil }
        guard let value = Int(text) else { throw ValidationError("\(variable) '\(text)' is not an integer") }
        return value
    }

    private static func environment(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// The keys given on the command line or in the environment, each with its option (for errors) and label.
    private func operatorKeys() -> [(option: String, key: (key: String, kind: KeyKind, label: String))] {
        var keys: [(option: String, key: (key: String, kind: KeyKind, label: String))] = []
        if let key = adminKey ?? Self.environment("INDOOR_ADMIN_KEY") {
            keys.append(("--admin-key", (key, .admin, "admin (command line)")))
        }
        for key in ingestKey + Self.list("INDOOR_INGEST_KEYS") {
            keys.append(("--ingest-key", (key, .ingest, "ingest (command line)")))
        }
        for key in readKey + Self.list("INDOOR_READ_KEYS") {
            keys.append(("--read-key", (key, .read, "read (command line)")))
        }
        return keys
    }

    private static func list(_ name: String) -> [String] {
        (environment(name) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
    }
}
