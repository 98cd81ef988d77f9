/// This instance's part in a cluster of `indoor serve` instances sharing one PostgreSQL database.
public struct ClusterIdentity: Hashable, Sendable {
    /// The instance's id, unique in the cluster (`--instance`).
    public var instance: String
    /// Where the other instances reach this one's API, e.g. `http://10.0.0.5:8080` (`--advertise-url`).
    public var url: String
    /// How long a venue's lease (and an instance's heartbeat) lasts unless renewed, seconds: a dead instance's venues
    /// are taken over within about this plus ``roundSeconds``.
    public var leaseSeconds: Double

    /// The default ``leaseSeconds``.
    public static let defaultLeaseSeconds = 8.0

    /// An identity; `leaseSeconds` at least 1.
    public init(instance: String, url: String, leaseSeconds: Double = ClusterIdentity.defaultLeaseSeconds) {
        self.instance = instance
        self.url = url
        self.leaseSeconds = max(1, leaseSeconds)
    }

    /// Seconds between two rounds (heartbeat, lease renewals, take-overs): a quarter of the lease, so three rounds
    /// can fail before a healthy instance loses a venue.
    public var roundSeconds: Double { leaseSeconds / 4 }
}

/// What an instance last read of its cluster: the live instances and every venue's lease.
public struct ClusterView: Hashable, Sendable {
    /// The instances whose heartbeat is younger than a lease, sorted by id.
    public var members: [ClusterMember] = []
    /// Each venue's lease by venue id.
    public var leases: [String: VenueLease] = [:]

    /// The live instance holding `venue`'s unexpired lease, or `nil` (nobody does: it is moving).
    public func owner(of venue: String) -> ClusterMember? {
        guard let lease = leases[venue], !lease.expired else { return nil }
        return members.first { $0.id == lease.owner }
    }
}

/// The venue's session runs in another instance of the cluster (or in none at the moment): the request goes there.
struct VenueElsewhereError: Error, Hashable, Sendable {
    var venue: String
}
