/// What a store keeps about access: the hashed keys with their lifecycle, and the audit log of who read what.
///
/// A part of ``LocationStore``; both stores give the same answers to the same calls.
public protocol AccessStore: Sendable {
    /// The stored keys, oldest first (hashes, never the keys themselves).
    func keys() async throws -> [StoredKey]
    /// Stores a key, unless its hash is already stored.
    func addKey(_ key: StoredKey) async throws
    /// Deletes the key with public id `id`.
    /// - Returns: `true` when there was such a key.
    @discardableResult func revokeKey(id: String) async throws -> Bool
    /// Marks the keys with these hashes as given by the operator (``KeyOrigin/operator``), and deletes every other
    /// operator key: one given at an earlier start but not at this one.
    /// - Returns: The ids of the keys deleted.
    @discardableResult func retireOperatorKeys(keeping hashes: Set<String>) async throws -> [String]
    /// Records when keys were last used: Unix seconds by key id (a later time than stored wins).
    func touchKeys(_ lastUsed: [String: Double]) async throws

    /// Appends entries to the audit log, in their order.
    func appendAudit(_ entries: [AuditEntry]) async throws
    /// Audit entries matching `query`, newest first.
    func audit(_ query: AuditQuery) async throws -> [AuditEntry]
    /// Deletes audit entries recorded before `recordedBefore` (Unix seconds), at most `limit`, oldest first.
    /// - Returns: How many were deleted (fewer than `limit`: none older is left).
    func pruneAudit(recordedBefore cutoff: Double, limit: Int) async throws -> Int
}

/// One audited request: who (key id and label), what (method, route, path, venue, device), when, from where and
/// with what result.
public struct AuditEntry: Hashable, Sendable, Codable {
    /// Increasing id, given when stored (0 before).
    public var id: Int64
    /// When the request was answered, Unix seconds.
    public var time: Double
    /// The id of the key that was accepted; `nil` when none was (a refused request).
    public var keyId: String?
    /// That key's label.
    public var keyLabel: String?
    /// The HTTP method.
    public var method: String
    /// The route's pattern, e.g. `/v1/venues/{venue}/devices/{device}`.
    public var route: String
    /// The path asked for (never the query, which may carry a key).
    public var path: String
    /// The venue asked about, when the request named one (path or query).
    public var venue: String?
    /// The device asked about, when the request named one (path or query).
    public var device: String?
    /// The client's address, when known.
    public var address: String?
    /// The answer's HTTP status.
    public var status: Int

    /// An entry.
    public init(
        id: Int64 = 0, time: Double, keyId: String?, keyLabel: String?, method: String, route: String, path: String,
        venue: String?, device: String?, address: String?, status: Int
    ) {
        self.id = id
        self.time = time
        self.keyId = keyId
        self.keyLabel = keyLabel
        self.method = method
        self.route = route
        self.path = path
        self.venue = venue
        self.device = device
        self.address = address
        self.status = status
    }
}

/// A filter over the audit log.
public struct AuditQuery: Hashable, Sendable {
    /// Only entries at or after this time, Unix seconds.
    public var from: Double?
    /// Only entries before this time, Unix seconds.
    public var to: Double?
    /// Only entries with a lower id (the previous page's cursor).
    public var before: Int64?
    /// Page size.
    public var limit: Int

    /// A query; the newest 100 entries by default.
    public init(from: Double? = nil, to: Double? = nil, before: Int64? = nil, limit: Int = 100) {
        self.from = from
        self.to = to
        self.before = before
        self.limit = limit
    }
}
