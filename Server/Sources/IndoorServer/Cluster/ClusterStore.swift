import Foundation

/// What several `indoor serve` instances sharing one database need of it beyond ``LocationStore``: who is alive, who
/// owns each venue (a lease with an expiry and an epoch), and notifications that wake the others.
///
/// Every time here is the database's clock (Unix seconds), so instances on machines whose clocks differ agree on
/// whether a lease has expired. ``PostgresStore`` is the one implementation; SQLite is one server's file.
public protocol ClusterStore: LocationStore {
    /// Says that `instance` is alive and reachable at `url`, and returns the instances seen within `within` seconds
    /// (this one among them), sorted by id.
    func heartbeat(instance: String, url: String, within: Double) async throws -> [ClusterMember]
    /// Every venue's lease, by venue id, each with whether it has expired by the database's clock.
    func leases() async throws -> [String: VenueLease]
    /// Takes `venue`'s lease for `owner` for `seconds`, when nobody holds it or its holder's lease has expired (or was
    /// released): the epoch goes up by one, so a commit fenced by an earlier holder's lease fails from now on.
    /// - Returns: The lease taken, or `nil` when another instance holds it.
    func acquireLease(venue: String, owner: String, seconds: Double) async throws -> VenueLease?
    /// Extends `lease` by `seconds` from now, while it is still `lease.owner`'s under the same epoch (expired or not:
    /// nobody took it meanwhile).
    /// - Returns: Whether it was extended; `false` means another instance took it.
    func renewLease(_ lease: VenueLease, seconds: Double) async throws -> Bool
    /// Gives `lease` up: it expires now, so the next instance to ask takes it.
    func releaseLease(_ lease: VenueLease) async throws
    /// Sends `message` to every instance listening (``listen(_:)``), including this one.
    func notifyCluster(_ message: String) async throws
    /// Calls `handle` with each message sent with ``notifyCluster(_:)`` and each venue whose events were committed
    /// (``ClusterNotice``), until the task is cancelled; reconnects after a lost connection (and calls `handle` with
    /// ``ClusterNotice/reconnected``, since messages sent meanwhile are lost).
    func listen(_ handle: @escaping @Sendable (ClusterNotice) -> Void) async
}

/// One `indoor serve` instance of a cluster, as its heartbeat left it.
public struct ClusterMember: Hashable, Sendable, Codable {
    /// The instance's id (`--instance`).
    public var id: String
    /// Where the other instances reach it (`--advertise-url`).
    public var url: String
    /// When it last said it was alive, Unix seconds (the database's clock).
    public var seen: Double

    public init(id: String, url: String, seen: Double) {
        self.id = id
        self.url = url
        self.seen = seen
    }
}

/// The lease by which one instance owns a venue: only the holder runs the venue's session and commits its batches.
public struct VenueLease: Hashable, Sendable, Codable {
    /// The venue.
    public var venue: String
    /// The instance holding it.
    public var owner: String
    /// Goes up by one each time the lease changes hands; a batch is committed only under the epoch it was made under.
    public var epoch: Int64
    /// When it expires unless renewed, Unix seconds (the database's clock).
    public var expires: Double
    /// Whether it had expired when it was read.
    public var expired: Bool

    public init(venue: String, owner: String, epoch: Int64, expires: Double, expired: Bool = false) {
        self.venue = venue
        self.owner = owner
        self.epoch = epoch
        self.expires = expires
        self.expired = expired
    }
}

/// What wakes an instance: another instance's message, events committed for a venue, or a lost and remade connection.
public enum ClusterNotice: Hashable, Sendable {
    /// ``ClusterStore/notifyCluster(_:)``'s message.
    case message(String)
    /// Events of this venue were committed.
    case events(venue: String)
    /// The listening connection was remade: notices may have been lost.
    case reconnected
}

/// A commit refused because the instance no longer holds the venue's lease: another instance owns the venue now.
public struct LeaseLostError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The venue.
    public var venue: String
    /// The lease the batch was made under.
    public var lease: VenueLease

    public var description: String {
        "venue '\(venue)' is no longer owned by instance '\(lease.owner)' (its lease of epoch \(lease.epoch) was "
            + "taken by another instance); nothing of the batch was stored"
    }
}
