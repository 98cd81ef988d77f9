import IndoorSession

/// The server's settings: where it listens and what it takes.
public struct ServerConfiguration: Sendable {
    /// The address to listen on.
    public var host: String
    /// The TCP port; 0 picks a free one (printed at start).
    public var port: Int
    /// The most sightings one `POST /v1/sightings` may carry; more is answered 413.
    public var maxBatch: Int
    /// The largest request body, bytes; more is answered 413.
    public var maxBodyBytes: Int
    /// A device is active when its latest fix is at most this many seconds (data time) older than the venue's
    /// newest fix.
    public var activeWindow: Double
    /// The most stored events a resuming stream (`Last-Event-ID`) is sent before it goes live.
    public var streamBacklog: Int
    /// Seconds between two comment lines on an idle stream (keeps proxies from closing it).
    public var heartbeatSeconds: Double
    /// The most live events one stream subscriber may have waiting to be sent; a subscriber further behind (one that
    /// stopped reading) is sent what it has waiting and then its stream ends, so it costs at most this much memory.
    /// It can resume with `Last-Event-ID`.
    public var streamBuffer: Int
    /// The most connections open at once, and from one client address (``ConnectionLimiter``).
    public var maxConnections: Int
    public var maxConnectionsPerAddress: Int
    /// The process's limit of open files, when known (said in `/health`).
    public var openFilesLimit: UInt64?
    /// How much older than a venue's present a sighting may be, seconds; also how far ahead of it a recording-time
    /// sighting may be (``SightingTimeWindow``).
    public var maxLateness: Double
    /// How far ahead of the server's clock a Unix-time sighting may be, seconds (``SightingTimeWindow``).
    public var maxClockSkew: Double
    /// How long stored sightings, events and visits are kept (``Retention``).
    public var retention: Retention
    /// This instance's part in a cluster of servers sharing a PostgreSQL database, or `nil` for a server alone.
    public var cluster: ClusterIdentity?
    /// Whether the server is served over TLS (answers then carry Strict-Transport-Security).
    public var tls: Bool = false
    /// Whether `/metrics` and the detailed `/health` are open to anyone (`--public-metrics`); by default they need a
    /// read key, and `/health` without one says only whether the server is up.
    public var publicMetrics: Bool = false
    /// How the devices reported by gateways are named (``DevicePseudonyms``): pseudonymous unless kept raw.
    public var deviceIDs: DeviceIDSettings = DeviceIDSettings()
    /// The most devices each venue's session holds at once (at least 1): beyond it, a new device evicts the one
    /// silent longest (``VenueHub/maximumDevices``), so a flood of new ids cannot exhaust memory.
    public var maxDevices: Int
    /// How webhooks are delivered (``WebhookSettings``).
    public var webhooks: WebhookSettings = WebhookSettings()

    /// The default settings, listening on `host`:`port`.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, maxBatch: Int = 10_000, maxBodyBytes: Int = 8 << 20,
        activeWindow: Double = 300, streamBacklog: Int = 10_000, heartbeatSeconds: Double = 15,
        streamBuffer: Int = 5000,
        maxConnections: Int = 4000, maxConnectionsPerAddress: Int = 200, openFilesLimit: UInt64? = nil,
        maxLateness: Double = 3600, maxClockSkew: Double = 60, retention: Retention = Retention(),
        cluster: ClusterIdentity? = nil, maxDevices: Int = SessionConfiguration.defaultMaximumDevices
    ) {
        self.maxDevices = maxDevices
        self.retention = retention
        self.cluster = cluster
        self.maxLateness = maxLateness
        self.maxClockSkew = maxClockSkew
        self.host = host
        self.port = port
        self.maxBatch = maxBatch
        self.maxBodyBytes = maxBodyBytes
        self.activeWindow = activeWindow
        self.streamBacklog = streamBacklog
        self.heartbeatSeconds = heartbeatSeconds
        self.streamBuffer = streamBuffer
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.openFilesLimit = openFilesLimit
    }
}

/// How the server names the devices gateways report (``DevicePseudonyms``, docs/PRIVACY.md).
public struct DeviceIDSettings: Hashable, Sendable {
    /// Keeps gateway-derived ids (addresses, `irk:` ids, beacon ids) as they are (`--raw-device-ids`).
    public var raw: Bool
    /// Enrolled devices: a raw id (an address in any case) → the readable name the server calls it
    /// (`--device-names`).
    public var names: [String: String]
    /// Names that are never replaced, such as the IRK file's devices (`--irks`).
    public var readable: Set<String>

    /// Pseudonymous ids, nobody enrolled, unless given.
    public init(raw: Bool = false, names: [String: String] = [:], readable: Set<String> = []) {
        self.raw = raw
        self.names = names
        self.readable = readable
    }
}
