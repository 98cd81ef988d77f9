import Foundation

/// What a store keeps about webhooks (docs/WEBHOOKS.md): each hook with its secret, its cursors (the last event
/// delivered of each venue), its health and its lease, and the recent attempts to deliver to it.
///
/// A part of ``LocationStore``; both stores give the same answers to the same calls. The secret is stored as given
/// (not hashed): signing a delivery with HMAC needs it. Deleting the hook deletes it, its cursors and its attempts.
public protocol WebhookStore: Sendable {
    /// Stores a new hook.
    func addWebhook(_ hook: StoredWebhook) async throws
    /// Every stored hook, oldest first.
    func webhooks() async throws -> [StoredWebhook]
    /// One stored hook, or `nil`.
    func webhook(id: String) async throws -> StoredWebhook?
    /// Deletes a hook with its cursors and recorded attempts.
    /// - Returns: `true` when there was such a hook.
    @discardableResult func deleteWebhook(id: String) async throws -> Bool
    /// The hook's cursors: the id of the last event delivered of each venue (venues it never delivered are absent:
    /// their cursor is the hook's ``StoredWebhook/startCursor``).
    func webhookCursors(id: String) async throws -> [String: Int64]
    /// After a delivery the target acknowledged (2xx): moves the hook's cursor of each venue forward to the id given
    /// (never back), and clears its failing time, in one transaction, while `owner` holds the hook's lease.
    /// - Returns: `false` when `owner` does not hold the lease (another instance delivers the hook now) or the hook
    ///   is gone: nothing was changed.
    func advanceWebhook(id: String, cursors: [String: Int64], owner: String) async throws -> Bool
    /// Records the hook's health after a failed attempt: failing since `failingSince` (Unix seconds; kept when it is
    /// failing already), and disabled with `disabledReason` when given.
    func markWebhookFailing(id: String, failingSince: Double, disabledReason: String?) async throws
    /// Takes or renews the hook's lease for `owner` for `seconds`: when nobody holds it, `owner` does, or its
    /// holder's lease has expired. In a cluster one instance delivers each hook.
    /// - Returns: Whether `owner` holds it now.
    func claimWebhook(id: String, owner: String, seconds: Double) async throws -> Bool
    /// Gives the hook's lease up when `owner` holds it: it expires now.
    func releaseWebhook(id: String, owner: String) async throws
    /// Appends an attempt to the hook's history, keeping its `keeping` latest attempts.
    func recordWebhookDelivery(_ delivery: WebhookDelivery, keeping: Int) async throws
    /// The hook's latest recorded attempts, newest first, at most `limit`.
    func webhookDeliveries(id: String, limit: Int) async throws -> [WebhookDelivery]
}

/// A webhook as stored.
public struct StoredWebhook: Hashable, Sendable {
    /// Its id (random, given when made).
    public var id: String
    /// Where deliveries are POSTed (`http` or `https`).
    public var url: String
    /// The names of the events delivered (``WebhookEvents``), sorted.
    public var events: [String]
    /// The venues whose events are delivered, sorted; `nil`: every venue.
    public var venues: [String]?
    /// The HMAC-SHA-256 key of the signatures (stored because signing needs it).
    public var secret: String
    /// When it was made, Unix seconds.
    public var created: Double
    /// The id of the newest stored event when it was made: the cursor of every venue it has not delivered yet.
    public var startCursor: Int64
    /// Since when every attempt failed, Unix seconds; `nil` when the latest attempt succeeded.
    public var failingSince: Double?
    /// Why it was disabled (failing for longer than `--webhook-disable-after`); `nil` while enabled.
    public var disabledReason: String?

    public init(
        id: String, url: String, events: [String], venues: [String]?, secret: String, created: Double,
        startCursor: Int64, failingSince: Double? = nil, disabledReason: String? = nil
    ) {
        self.id = id
        self.url = url
        self.events = events
        self.venues = venues
        self.secret = secret
        self.created = created
        self.startCursor = startCursor
        self.failingSince = failingSince
        self.disabledReason = disabledReason
    }

    /// The events' JSON as stored.
    var eventsJSON: String { Self.json(events) }
    /// The venues' JSON as stored, `nil` for every venue.
    var venuesJSON: String? { venues.map(Self.json) }

    static func json(_ list: [String]) -> String {
        (try? JSONEncoder.sorted.encode(list)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    static func list(json: String?) -> [String]? {
        guard let json else { return nil }
        return try? JSONDecoder().decode([String].self, from: Data(json.utf8))
    }
}

/// One attempt to deliver a batch to a hook.
public struct WebhookDelivery: Hashable, Sendable, Codable {
    /// The hook.
    public var hook: String
    /// When the attempt started, Unix seconds.
    public var time: Double
    /// The target's HTTP status, when it answered.
    public var status: Int?
    /// What went wrong when it did not answer (or answered other than 2xx).
    public var error: String?
    /// The id of the batch's first and last event.
    public var firstEvent: Int64
    public var lastEvent: Int64
    /// How many events the batch held.
    public var events: Int
    /// How long the attempt took, seconds.
    public var durationSeconds: Double

    public init(
        hook: String, time: Double, status: Int?, error: String?, firstEvent: Int64, lastEvent: Int64, events: Int,
        durationSeconds: Double
    ) {
        self.hook = hook
        self.time = time
        self.status = status
        self.error = error
        self.firstEvent = firstEvent
        self.lastEvent = lastEvent
        self.events = events
        self.durationSeconds = durationSeconds
    }

    /// Whether the target acknowledged the batch (2xx).
    public var delivered: Bool { status.map { (200..<300).contains($0) } ?? false }
}
