import Foundation
import Logging
import PostgresNIO

extension PostgresStore: ClusterStore {
    /// The channel of every cluster notification: `e:VENUE` for committed events, `m:TEXT` for messages.
    static let eventsChannel = "indoor_cluster"
    /// The database's clock, Unix seconds, in SQL.
    private static let now = "extract(epoch FROM clock_timestamp())"

    package func heartbeat(instance: String, url: String, within: Double) async throws -> [ClusterMember] {
        try await mapped {
            try await client.query(
                """
                INSERT INTO cluster_instance (id, url, seen) VALUES (\(instance), \(url), \(unescaped: Self.now))
                ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, seen = EXCLUDED.seen
                """, logger: logger)
            return try await client.query(
                """
                SELECT id, url, seen FROM cluster_instance WHERE seen > \(unescaped: Self.now) - \(within) ORDER BY id
                """, logger: logger
            ).collect().map { row in
                let (id, url, seen) = try row.decode((String, String, Double).self)
                return ClusterMember(id: id, url: url, seen: seen)
            }
        }
    }

    package func leases() async throws -> [String: VenueLease] {
        try await mapped {
            var leases: [String: VenueLease] = [:]
            for row in try await client.query(
                "SELECT venue, owner, epoch, expires, expires <= \(unescaped: Self.now) FROM venue_lease",
                logger: logger
            ).collect() {
                let (venue, owner, epoch, expires, expired) = try row.decode((String, String, Int64, Double, Bool).self)
                leases[venue] = VenueLease(venue: venue, owner: owner, epoch: epoch, expires: expires, expired: expired)
            }
            return leases
        }
    }

    package func acquireLease(venue: String, owner: String, seconds: Double) async throws -> VenueLease? {
        try await mapped {
            try await client.query(
                """
                INSERT INTO venue_lease (venue, owner, epoch, expires)
                VALUES (\(venue), \(owner), 1, \(unescaped: Self.now) + \(seconds))
                ON CONFLICT (venue) DO UPDATE
                SET owner = EXCLUDED.owner, epoch = venue_lease.epoch + 1, expires = EXCLUDED.expires
                WHERE venue_lease.expires <= \(unescaped: Self.now)
                RETURNING epoch, expires
                """, logger: logger
            ).collect().first.map { row in
                let (epoch, expires) = try row.decode((Int64, Double).self)
                return VenueLease(venue: venue, owner: owner, epoch: epoch, expires: expires)
            }
        }
    }

    package func renewLease(_ lease: VenueLease, seconds: Double) async throws -> Bool {
        try await mapped {
            !(try await client.query(
                """
                UPDATE venue_lease SET expires = \(unescaped: Self.now) + \(seconds)
                WHERE venue = \(lease.venue) AND owner = \(lease.owner) AND epoch = \(lease.epoch)
                RETURNING epoch
                """, logger: logger
            ).collect().isEmpty)
        }
    }

    package func releaseLease(_ lease: VenueLease) async throws {
        try await mapped {
            try await client.query(
                """
                UPDATE venue_lease SET expires = 0
                WHERE venue = \(lease.venue) AND owner = \(lease.owner) AND epoch = \(lease.epoch)
                """, logger: logger)
        }
    }

    package func notifyCluster(_ message: String) async throws {
        try await mapped {
            try await client.query("SELECT pg_notify(\(Self.eventsChannel), \("m:" + message))", logger: logger)
        }
    }

    package func listen(_ handle: @escaping @Sendable (ClusterNotice) -> Void) async {
        var first = true
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: connectionConfiguration, id: 1, logger: logger)
                defer { Task { try? await connection.close() } }
                try await connection.listen(on: Self.eventsChannel) { notifications in
                    if !first { handle(.reconnected) }
                    first = false
                    for try await notification in notifications {
                        let payload = notification.payload
                        if payload.hasPrefix("e:") {
                            handle(.events(venue: String(payload.dropFirst(2))))
                        } else if payload.hasPrefix("m:") {
                            handle(.message(String(payload.dropFirst(2))))
                        }
                    }
                }
            } catch {
                logger.warning("cluster notifications: \(Self.describe(error)); listening again in 1 s")
                first = false
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Fails the transaction of `connection` unless `lease` is still `venue`'s, and holds the lease's row until the
    /// transaction ends, so an instance taking the lease over waits for this commit to finish.
    static func checkLease(_ lease: VenueLease, venue: String, on connection: PostgresConnection) async throws {
        let rows = try await connection.query(
            """
            SELECT epoch FROM venue_lease
            WHERE venue = \(venue) AND owner = \(lease.owner) AND epoch = \(lease.epoch) FOR SHARE
            """, logger: Logger(label: "indoor.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        ).collect()
        if rows.isEmpty { throw LeaseLostError(venue: venue, lease: lease) }
    }
}
