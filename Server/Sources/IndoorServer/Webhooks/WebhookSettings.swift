/// How the server delivers webhooks (docs/WEBHOOKS.md): which targets it accepts, how long it waits, how much it
/// sends and reads, how it retries and when it gives a hook up.
public struct WebhookSettings: Hashable, Sendable {
    /// Whether targets in private, loopback and link-local ranges are accepted (`--webhook-allow-private`); refused by
    /// default, so a key holder cannot make the server reach into its own network.
    public var allowPrivate: Bool
    /// How long a hook may fail without a success before it is disabled, seconds (`--webhook-disable-after`).
    public var disableAfterSeconds: Double
    /// How long one delivery may take (connect, send, answer), seconds.
    public var timeoutSeconds: Double
    /// The most events one delivery carries.
    public var maxBatchEvents: Int
    /// The most bytes of a target's answer that are read; the rest is dropped.
    public var maxResponseBytes: Int
    /// How often each hook looks for new events when it has delivered all, seconds.
    public var pollSeconds: Double
    /// The first retry's delay, seconds; each further retry doubles it up to ``retryMaxSeconds``, each with jitter.
    public var retryBaseSeconds: Double
    /// The longest delay between two retries, seconds.
    public var retryMaxSeconds: Double
    /// The seed of the retries' jitter; `nil`: a random one.
    public var jitterSeed: UInt64?
    /// How many of its latest attempts each hook keeps (`GET /v1/webhooks/{id}/deliveries`).
    public var keptDeliveries: Int
    /// How long a hook's lease lasts unless renewed, seconds: another instance (or this one restarted under another
    /// id) takes a hook over at most this long after its deliverer died.
    public var leaseSeconds: Double

    public init(
        allowPrivate: Bool = false, disableAfterSeconds: Double = 86400, timeoutSeconds: Double = 10,
        maxBatchEvents: Int = 100, maxResponseBytes: Int = 65536, pollSeconds: Double = 1,
        retryBaseSeconds: Double = 1, retryMaxSeconds: Double = 300, jitterSeed: UInt64? = nil,
        keptDeliveries: Int = 100, leaseSeconds: Double = 30
    ) {
        self.allowPrivate = allowPrivate
        self.disableAfterSeconds = disableAfterSeconds
        self.timeoutSeconds = timeoutSeconds
        self.maxBatchEvents = max(1, maxBatchEvents)
        self.maxResponseBytes = max(0, maxResponseBytes)
        self.pollSeconds = max(0.01, pollSeconds)
        self.retryBaseSeconds = max(0.001, retryBaseSeconds)
        self.retryMaxSeconds = max(self.retryBaseSeconds, retryMaxSeconds)
        self.jitterSeed = jitterSeed
        self.keptDeliveries = max(1, keptDeliveries)
        self.leaseSeconds = max(1, leaseSeconds)
    }
}
