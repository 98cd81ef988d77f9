import Foundation
import IndoorGeofencing
import IndoorModel
import Logging
import NIOSSL
import PostgresNIO

/// A store on a PostgreSQL server, through PostgresNIO's `PostgresClient` (a pool of connections), for
/// `indoor serve --database postgres://…`.
///
/// It gives the same answers as ``SQLiteStore`` to the same calls. The schema is ``PostgresMigrations``: the SQLite
/// migrations in PostgreSQL's types, applied when the store opens. A batch (``commit(_:)``) is one transaction, and the
/// call returns once its `COMMIT` has returned. Batches are committed one at a time (a transaction-level advisory
/// lock), as SQLite's single writer does: so each batch's event ids are consecutive and a stream that resumed after an
/// id never misses an event committed later with a lower one. A partial unique index keeps one open visit per device
/// and zone; a check-in while one is open (a session that started afresh after a restart) leaves the open visit as it
/// is. Nothing waits on a thread: every call is a network round trip awaited.
///
/// The store runs its pool in a task of its own from ``open(_:logger:)`` until ``close()``.
package final class PostgresStore: LocationStore {
    /// Where the database is (its ``PostgresURL/description`` never shows the password).
    package let url: PostgresURL
    let client: PostgresClient
    /// How to open a connection of its own (the listening one of ``listen(_:)``).
    let connectionConfiguration: PostgresConnection.Configuration
    private let runner: Task<Void, Never>
    let logger: Logger

    /// The key of the advisory lock each commit holds until it ends.
    static let commitLockKey: Int64 = 0x1D00_C0AA
    /// How long ``ping()`` waits for an answer, seconds.
    static let pingSeconds = 5
    /// Rows per `INSERT` statement (PostgreSQL takes at most 65535 parameters in one statement).
    static let rowsPerStatement = 1000

    package var kind: String { "postgres" }

    private init(
        url: PostgresURL, client: PostgresClient, connectionConfiguration: PostgresConnection.Configuration,
        logger: Logger
    ) {
        self.url = url
        self.client = client
        self.connectionConfiguration = connectionConfiguration
        self.logger = logger
        runner = Task { await client.run() }
    }

    deinit { runner.cancel() }

    /// Connects to the database of `url`, brings its schema up to date and starts the pool.
    ///
    /// One connection is made first, so that a server that cannot be reached, a refused password or a missing database
    /// is said at once in one line.
    /// - Throws: ``StoreError`` naming `host:port` and what to do: when the server cannot be reached or refuses the
    ///   user, the database is missing, belongs to another program or to a newer Indoor.
    package static func open(
        _ url: PostgresURL,
        logger: Logger = Logger(label: "indoor.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> PostgresStore {
        if let roots = url.rootCertificates, !FileManager.default.isReadableFile(atPath: roots) {
            throw StoreError("sslrootcert '\(roots)' cannot be read: give a PEM file of the certificates to trust")
        }
        let connection: PostgresConnection
        let connectionConfiguration: PostgresConnection.Configuration
        do {
            var configuration = PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
                tls: try connectionTLS(url))
            configuration.options.connectTimeout = .seconds(10)
            connectionConfiguration = configuration
            connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        } catch {
            throw StoreError(connectionProblem(error, url: url))
        }
        do {
            try await PostgresMigrations.migrate(connection, name: "\(url)", logger: logger)
            try? await connection.close()
        } catch let error as StoreError {
            try? await connection.close()
            throw error
        } catch {
            try? await connection.close()
            throw StoreError("\(url): \(describe(error))")
        }
        var configuration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: try clientTLS(url))
        configuration.options.maximumConnections = 10
        configuration.options.connectTimeout = .seconds(10)
        return PostgresStore(
            url: url, client: PostgresClient(configuration: configuration),
            connectionConfiguration: connectionConfiguration, logger: logger)
    }

    /// Stops the pool: the store answers no more calls after this.
    package func close() async {
        runner.cancel()
        await runner.value
    }

    // MARK: Venues

    package func venues() async throws -> [StoredVenue] {
        try await mapped {
            try await client.query("SELECT id, json FROM venue ORDER BY id", logger: logger).collect().map {
                let (id, json) = try $0.decode((String, Data).self)
                return StoredVenue(id: id, json: json)
            }
        }
    }

    package func venue(id: String) async throws -> StoredVenue? {
        try await mapped {
            try await client.query("SELECT id, json FROM venue WHERE id = \(id)", logger: logger).collect().first.map {
                let (id, json) = try $0.decode((String, Data).self)
                return StoredVenue(id: id, json: json)
            }
        }
    }

    @discardableResult package func putVenue(_ venue: StoredVenue) async throws -> Bool {
        let now = Date().timeIntervalSince1970
        return try await mapped {
            // The CTE sees the table as it was before the upsert.
            let rows = try await client.query(
                """
                WITH old AS (SELECT 1 FROM venue WHERE id = \(venue.id))
                INSERT INTO venue (id, json, updated_at) VALUES (\(venue.id), \(venue.json), \(now))
                ON CONFLICT (id) DO UPDATE SET json = EXCLUDED.json, updated_at = EXCLUDED.updated_at
                RETURNING NOT EXISTS (SELECT 1 FROM old)
                """, logger: logger
            ).collect()
            return try rows.first?.decode(Bool.self) ?? false
        }
    }

    @discardableResult package func deleteVenue(id: String) async throws -> Bool {
        try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                let deleted = try await connection.query(
                    "DELETE FROM venue WHERE id = \(id) RETURNING id", logger: logger
                ).collect()
                try await connection.query("DELETE FROM device WHERE venue = \(id)", logger: logger)
                try await connection.query("DELETE FROM floor_image WHERE venue = \(id)", logger: logger)
                return !deleted.isEmpty
            }
        }
    }

    package func floorImage(venue: String, level: Int) async throws -> StoredFloorImage? {
        try await mapped {
            try await client.query(
                """
                SELECT content_type, data, placement, updated_at FROM floor_image
                WHERE venue = \(venue) AND level = \(level)
                """, logger: logger
            ).collect().first.map {
                let (type, data, placement, updatedAt) = try $0.decode((String, Data, Data?, Double).self)
                return StoredFloorImage(
                    venue: venue, level: level, contentType: type, data: data, placement: placement,
                    updatedAt: updatedAt)
            }
        }
    }

    @discardableResult package func putFloorImage(_ image: StoredFloorImage) async throws -> Bool {
        try await mapped {
            // The CTE sees the table as it was before the upsert.
            let rows = try await client.query(
                """
                WITH old AS (SELECT 1 FROM floor_image WHERE venue = \(image.venue) AND level = \(image.level))
                INSERT INTO floor_image (venue, level, content_type, data, placement, updated_at)
                VALUES (\(image.venue), \(image.level), \(image.contentType), \(image.data), \(image.placement),
                    \(image.updatedAt))
                ON CONFLICT (venue, level) DO UPDATE SET content_type = EXCLUDED.content_type, data = EXCLUDED.data,
                    placement = EXCLUDED.placement, updated_at = EXCLUDED.updated_at
                RETURNING NOT EXISTS (SELECT 1 FROM old)
                """, logger: logger
            ).collect()
            return try rows.first?.decode(Bool.self) ?? false
        }
    }

    @discardableResult package func deleteFloorImage(venue: String, level: Int) async throws -> Bool {
        try await mapped {
            !(try await client.query(
                "DELETE FROM floor_image WHERE venue = \(venue) AND level = \(level) RETURNING venue", logger: logger
            ).collect().isEmpty)
        }
    }

    // MARK: Commit

    package func commit(batches: [IngestBatch]) async throws -> [[StoredEvent]] {
        guard !batches.isEmpty else { return [] }
        let encoded = try batches.map { try $0.encodedEvents().map { String(decoding: $0, as: UTF8.self) } }
        let logger = logger
        return try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                // Each lease checked once, before the commit lock (so the lock is held no longer than the writes),
                // and each venue with events notified once (at COMMIT, to every instance's event relay), however
                // many of the batches share them.
                var checked: Set<VenueLease> = []
                for batch in batches {
                    guard let lease = batch.lease, checked.insert(lease).inserted else { continue }
                    try await Self.checkLease(lease, venue: batch.venue, on: connection)
                }
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.commitLockKey))", logger: logger)
                var notified: [String] = []
                var all: [[StoredEvent]] = []
                all.reserveCapacity(batches.count)
                for (batch, encoded) in zip(batches, encoded) {
                    let stored = try await Self.write(batch, encoded: encoded, on: connection, logger: logger)
                    if batch.lease != nil && !stored.isEmpty && !notified.contains(batch.venue) {
                        notified.append(batch.venue)
                    }
                    all.append(stored)
                }
                for venue in notified {
                    try await connection.query("SELECT pg_notify(\(Self.eventsChannel), \(venue))", logger: logger)
                }
                return all
            }
        }
    }

    /// Writes `batch` (its events' JSON `encoded`) inside the transaction of `connection`, which holds the commit
    /// lock and has checked its lease: its sightings, events, visits and latest fixes. Returns its events with their
    /// ids.
    private static func write(
        _ batch: IngestBatch, encoded: [String], on connection: PostgresConnection, logger: Logger
    ) async throws -> [StoredEvent] {
        try await Self.insertSightings(batch, on: connection, logger: logger)
        let ids = try await Self.insertEvents(batch, json: encoded, on: connection, logger: logger)
        var stored: [StoredEvent] = []
        stored.reserveCapacity(batch.events.count)
        var latest: [String: (fix: Fix, json: String)] = [:]
        var latestOrder: [String] = []
        for (index, event) in batch.events.enumerated() {
            stored.append(StoredEvent(id: ids[index], venue: batch.venue, event: event))
            switch event {
            case .fix(let fix):
                if let known = latest[fix.device], known.fix.time > fix.time { break }
                if latest[fix.device] == nil { latestOrder.append(fix.device) }
                latest[fix.device] = (fix, encoded[index])
            case .zone(let zone):
                try await Self.record(
                    zone, venue: batch.venue, at: batch.receivedAt, on: connection, logger: logger)
            }
        }
        try await Self.upsertDevices(
            latestOrder.compactMap { latest[$0] }, venue: batch.venue, on: connection, logger: logger)
        return stored
    }

    private static func insertSightings(
        _ batch: IngestBatch, on connection: PostgresConnection, logger: Logger
    ) async throws {
        var start = 0
        while start < batch.sightings.count {
            let chunk = batch.sightings[start..<min(start + rowsPerStatement, batch.sightings.count)]
            var binds = PostgresBindings(capacity: chunk.count * 8)
            var rows: [String] = []
            rows.reserveCapacity(chunk.count)
            for sighting in chunk {
                var node: String?
                var beacon: String?
                switch sighting.source {
                case .node(let id): node = id
                case .beacon(let id): beacon = id.description
                }
                let first = binds.count + 1
                rows.append("(" + (first..<first + 8).map { "$\($0)" }.joined(separator: ",") + ")")
                binds.append(batch.venue)
                binds.append(sighting.time)
                binds.append(sighting.device)
                binds.append(node)
                binds.append(beacon)
                binds.append(sighting.rssi)
                binds.append(sighting.txPower)
                binds.append(batch.receivedAt)
            }
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO sighting (venue, t, device, node, beacon, rssi, tx, received_at) VALUES "
                        + rows.joined(separator: ","), binds: binds),
                logger: logger)
            start += chunk.count
        }
    }

    /// Inserts the batch's events in their order and answers their ids, in the same order.
    ///
    /// The ids come from the `event` table's sequence, drawn row after row as a statement's `VALUES` are inserted;
    /// under the commit lock no other batch draws in between, so the sorted ids are the events' ids in order.
    private static func insertEvents(
        _ batch: IngestBatch, json: [String], on connection: PostgresConnection, logger: Logger
    ) async throws -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(batch.events.count)
        var start = 0
        while start < batch.events.count {
            let end = min(start + rowsPerStatement, batch.events.count)
            var binds = PostgresBindings(capacity: (end - start) * 7)
            var rows: [String] = []
            for index in start..<end {
                let event = batch.events[index]
                let first = binds.count + 1
                rows.append(
                    "($\(first),$\(first + 1),$\(first + 2),$\(first + 3),$\(first + 4)::jsonb,$\(first + 5))")
                binds.append(batch.venue)
                binds.append(event.type)
                binds.append(event.time)
                binds.append(event.device)
                binds.append(json[index])
                binds.append(batch.receivedAt)
            }
            let returned = try await connection.query(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO event (venue, type, t, device, json, stored_at) VALUES "
                        + rows.joined(separator: ",") + " RETURNING id", binds: binds),
                logger: logger
            ).collect()
            ids += try returned.map { try $0.decode(Int64.self) }.sorted()
            start = end
        }
        guard ids.count == batch.events.count else {
            throw StoreError("PostgreSQL stored \(ids.count) of \(batch.events.count) events")
        }
        return ids
    }

    /// Keeps the visit log as ``SQLiteStore`` does: a check-in opens a visit, a check-out closes the device's open
    /// visit of that zone; `storedAt` (Unix seconds) is when a closed visit was closed, for retention.
    private static func record(
        _ zone: ZoneEvent, venue: String, at storedAt: Double, on connection: PostgresConnection, logger: Logger
    ) async throws {
        switch zone.kind {
        case .checkIn where zone.willCheckOut == false:
            // A crossing (a geoline, or a zone without check-out): a visit that ends where it begins.
            try await connection.query(
                """
                INSERT INTO visit (venue, zone, zone_name, device, trigger, check_in, check_out, dwell, reason,
                closed_at) VALUES (\(venue), \(zone.zone), \(zone.zoneName), \(zone.device),
                \(zone.trigger.rawValue), \(zone.time), \(zone.time), 0, 'crossing', \(storedAt))
                """, logger: logger)
        case .checkIn:
            // One open visit per device and zone (the partial unique index): one still open stays as it is.
            try await connection.query(
                """
                INSERT INTO visit (venue, zone, zone_name, device, trigger, check_in)
                VALUES (\(venue), \(zone.zone), \(zone.zoneName), \(zone.device), \(zone.trigger.rawValue),
                \(zone.time))
                ON CONFLICT (venue, zone, device) WHERE check_out IS NULL DO NOTHING
                """, logger: logger)
        case .checkOut:
            let closed = try await connection.query(
                """
                UPDATE visit SET check_out = \(zone.time), departure = \(zone.departure), dwell = \(zone.dwell),
                reason = \(zone.reason?.rawValue), closed_at = \(storedAt)
                WHERE venue = \(venue) AND zone = \(zone.zone) AND device = \(zone.device) AND check_out IS NULL
                RETURNING id
                """, logger: logger
            ).collect()
            if closed.isEmpty {
                // The check-in happened before a restart of the server (its session started afresh): keep the
                // visit with what the check-out event says.
                try await connection.query(
                    """
                    INSERT INTO visit (venue, zone, zone_name, device, trigger, check_in, check_out, departure,
                    dwell, reason, closed_at) VALUES (\(venue), \(zone.zone), \(zone.zoneName), \(zone.device),
                    \(zone.trigger.rawValue), \(zone.checkIn ?? zone.time), \(zone.time), \(zone.departure),
                    \(zone.dwell), \(zone.reason?.rawValue), \(storedAt))
                    """, logger: logger)
            }
        case .dwell:
            break
        }
    }

    private static func upsertDevices(
        _ fixes: [(fix: Fix, json: String)], venue: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        var start = 0
        while start < fixes.count {
            let chunk = fixes[start..<min(start + rowsPerStatement, fixes.count)]
            var binds = PostgresBindings(capacity: chunk.count * 4)
            var rows: [String] = []
            for (fix, json) in chunk {
                let first = binds.count + 1
                rows.append("($\(first),$\(first + 1),$\(first + 2),$\(first + 3)::jsonb)")
                binds.append(venue)
                binds.append(fix.device)
                binds.append(fix.time)
                binds.append(json)
            }
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO device (venue, device, t, fix) VALUES " + rows.joined(separator: ",")
                        + """
                         ON CONFLICT (venue, device) DO UPDATE SET t = EXCLUDED.t, fix = EXCLUDED.fix
                        WHERE EXCLUDED.t >= device.t
                        """, binds: binds),
                logger: logger)
            start += chunk.count
        }
    }

    // MARK: Reads

    package func latestFix(venue: String, device: String) async throws -> Fix? {
        try await mapped {
            try await client.query(
                "SELECT fix::text FROM device WHERE venue = \(venue) AND device = \(device)", logger: logger
            ).collect().first.map { try JSONDecoder().decode(Fix.self, from: Data(try $0.decode(String.self).utf8)) }
        }
    }

    package func devices(venue: String, since: Double) async throws -> [Fix] {
        try await mapped {
            let decoder = JSONDecoder()
            return try await client.query(
                "SELECT fix::text FROM device WHERE venue = \(venue) AND t >= \(since) ORDER BY device",
                logger: logger
            ).collect().map { try decoder.decode(Fix.self, from: Data(try $0.decode(String.self).utf8)) }
        }
    }

    package func visits(_ query: VisitQuery) async throws -> VisitPage {
        var sql = """
            SELECT id, venue, zone, zone_name, device, trigger, check_in, check_out, departure, dwell, reason
            FROM visit WHERE venue = $1
            """
        var binds = PostgresBindings()
        binds.append(query.venue)
        if let zone = query.zone {
            binds.append(zone)
            sql += " AND zone = $\(binds.count)"
        }
        if let device = query.device {
            binds.append(device)
            sql += " AND device = $\(binds.count)"
        }
        if let from = query.from {
            binds.append(from)
            sql += " AND (check_out IS NULL OR check_out >= $\(binds.count))"
        }
        if let to = query.to {
            binds.append(to)
            sql += " AND check_in < $\(binds.count)"
        }
        if let before = query.before {
            binds.append(before)
            sql += " AND id < $\(binds.count)"
        }
        if query.openOnly { sql += " AND check_out IS NULL" }
        binds.append(Int64(query.limit) + 1)
        sql += " ORDER BY id DESC LIMIT $\(binds.count)"
        let statement = PostgresQuery(unsafeSQL: sql, binds: binds)
        let rows = try await mapped { try await client.query(statement, logger: logger).collect() }
        let visits = try rows.prefix(query.limit).map { row in
            let (id, venue, zone, zoneName, device, trigger, checkIn, checkOut, departure, dwell, reason) =
                try row.decode(
                    (Int64, String, String, String, String, String, Double, Double?, Double?, Double?, String?).self)
            return Visit(
                id: id, venue: venue, zone: zone, zoneName: zoneName, device: device, trigger: trigger,
                checkIn: checkIn, checkOut: checkOut, departure: departure, dwell: dwell, reason: reason)
        }
        return VisitPage(visits: visits, nextBefore: rows.count > query.limit ? visits.last?.id : nil)
    }

    package func events(venue: String, after: Int64, limit: Int) async throws -> [StoredEvent] {
        let rows = try await mapped {
            try await client.query(
                """
                SELECT id, type, json::text FROM event WHERE venue = \(venue) AND id > \(after) ORDER BY id
                LIMIT \(Int64(limit))
                """, logger: logger
            ).collect()
        }
        let decoder = JSONDecoder()
        return try rows.map { row in
            let (id, type, text) = try row.decode((Int64, String, String).self)
            let json = Data(text.utf8)
            let event: ServerEvent =
                type == "fix"
                ? .fix(try decoder.decode(Fix.self, from: json)) : .zone(try decoder.decode(ZoneEvent.self, from: json))
            return StoredEvent(id: id, venue: venue, event: event)
        }
    }

    package func latestEventID() async throws -> Int64 {
        try await mapped {
            try await client.query("SELECT COALESCE(MAX(id), 0) FROM event", logger: logger).collect().first?.decode(
                Int64.self) ?? 0
        }
    }

    package func sightingCount(venue: String) async throws -> Int {
        try await mapped {
            Int(
                try await client.query("SELECT COUNT(*) FROM sighting WHERE venue = \(venue)", logger: logger)
                    .collect().first?.decode(Int64.self) ?? 0)
        }
    }

    package func recentSightings(venue: String, seconds: Double, limit: Int) async throws -> [ReceivedSighting] {
        let rows = try await mapped {
            try await client.query(
                """
                SELECT t, device, node, beacon, rssi, tx, received_at FROM sighting
                WHERE venue = \(venue) AND t >= (SELECT MAX(t) FROM sighting WHERE venue = \(venue)) - \(seconds)
                ORDER BY t DESC, id DESC LIMIT \(Int64(limit))
                """, logger: logger
            ).collect()
        }
        return try rows.reversed().map { row in
            let (time, device, node, beacon, rssi, txPower, receivedAt) = try row.decode(
                (Double, String, String?, String?, Double, Double?, Double).self)
            return try ReceivedSighting(
                time: time, device: device, node: node, beacon: beacon, rssi: rssi, txPower: txPower,
                receivedAt: receivedAt)
        }
    }

    // MARK: Keys

    package func keys() async throws -> [StoredKey] {
        try await mapped {
            try await client.query("SELECT hash, kind, label FROM api_key ORDER BY created_at", logger: logger)
                .collect().compactMap { row in
                    let (hash, kind, label) = try row.decode((String, String, String).self)
                    return KeyKind(rawValue: kind).map { StoredKey(hash: hash, kind: $0, label: label) }
                }
        }
    }

    package func addKey(_ key: StoredKey) async throws {
        let now = Date().timeIntervalSince1970
        try await mapped {
            try await client.query(
                """
                INSERT INTO api_key (hash, kind, label, created_at) VALUES (\(key.hash), \(key.kind.rawValue),
                \(key.label), \(now)) ON CONFLICT (hash) DO NOTHING
                """, logger: logger)
        }
    }

    /// Answers within ``pingSeconds``, or throws: while the server is unreachable the pool keeps a query waiting
    /// (up to a minute) for a connection, and `/health` must answer sooner than that.
    package func ping() async throws {
        let seconds = Self.pingSeconds
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await self.mapped { _ = try await self.client.query("SELECT 1", logger: self.logger).collect() }
                return true
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return false
            }
            defer { group.cancelAll() }
            guard try await group.next() == true else {
                throw StoreError("\(url.address): PostgreSQL did not answer within \(seconds) s")
            }
        }
    }

    // MARK: Retention

    package func pruneSightings(receivedBefore cutoff: Double, limit: Int) async throws -> Int {
        // Among the `limit` oldest rows only, as in SQLite: one round costs the same however large the table is.
        try await deleted(
            """
            WITH gone AS (DELETE FROM sighting WHERE id IN (SELECT id FROM sighting ORDER BY id LIMIT \(Int64(limit)))
            AND received_at < \(cutoff) RETURNING 1) SELECT COUNT(*) FROM gone
            """)
    }

    package func pruneEvents(storedBefore cutoff: Double, limit: Int) async throws -> Int {
        try await deleted(
            """
            WITH gone AS (DELETE FROM event WHERE id IN (SELECT id FROM event ORDER BY id LIMIT \(Int64(limit)))
            AND stored_at < \(cutoff) RETURNING 1) SELECT COUNT(*) FROM gone
            """)
    }

    package func pruneVisits(closedBefore cutoff: Double, limit: Int) async throws -> Int {
        try await deleted(
            """
            WITH gone AS (DELETE FROM visit WHERE id IN (SELECT id FROM visit WHERE closed_at < \(cutoff)
            ORDER BY closed_at LIMIT \(Int64(limit))) RETURNING 1) SELECT COUNT(*) FROM gone
            """)
    }

    private func deleted(_ query: PostgresQuery) async throws -> Int {
        try await mapped {
            Int(try await client.query(query, logger: logger).collect().first?.decode(Int64.self) ?? 0)
        }
    }

    /// The size of the store's tables with their indexes and TOAST, bytes, and its oldest rows' times.
    package func storage() async throws -> StoreStorage {
        try await mapped {
            let rows = try await client.query(
                """
                SELECT
                    (SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
                     WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace
                     AND c.relname IN ('venue', 'sighting', 'event', 'device', 'visit', 'api_key',
                     'indoor_migrations')),
                    (SELECT received_at FROM sighting ORDER BY id LIMIT 1),
                    (SELECT stored_at FROM event ORDER BY id LIMIT 1),
                    (SELECT closed_at FROM visit WHERE closed_at IS NOT NULL ORDER BY closed_at LIMIT 1)
                """, logger: logger
            ).collect()
            guard let row = rows.first else { return StoreStorage(bytes: 0, oldestSighting: nil) }
            let (bytes, sighting, event, visit) = try row.decode((Int64, Double?, Double?, Double?).self)
            return StoreStorage(
                bytes: Int(bytes), oldestSighting: sighting, oldestEvent: event, oldestVisit: visit)
        }
    }

    // MARK: Errors and TLS

    /// Runs `body`, turning PostgresNIO's errors into a ``StoreError`` that says what PostgreSQL said.
    @discardableResult
    func mapped<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as StoreError {
            throw error
        } catch let error as LeaseLostError {
            throw error
        } catch let error as PostgresTransactionError where error.closureError is LeaseLostError {
            throw error.closureError ?? error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw StoreError("\(url.address): \(Self.describe(error))")
        }
    }

    /// What went wrong, in words: PostgreSQL's own message and SQLSTATE when it answered, else the connection's
    /// problem. (PostgresNIO's errors print a generic text, to keep queries out of logs; this keeps them out too.)
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as StoreError:
            return error.message
        case let error as PSQLError:
            if let info = error.serverInfo, let message = info[.message] {
                return "PostgreSQL: \(message)" + (info[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
            }
            if let underlying = error.underlying { return "\(error.code): \(underlying)" }
            return "\(error.code)"
        case let error as PostgresTransactionError:
            if let inner = error.beginError ?? error.closureError ?? error.commitError ?? error.rollbackError {
                return describe(inner)
            }
            return "the transaction failed"
        default:
            let text = "\(error)"
            // The pool's circuit breaker (its error type is in an underscored module): no connection for a minute.
            if text.contains("CircuitBreakerTripped") {
                return "no connection to PostgreSQL could be made for a minute; the server keeps trying"
            }
            return text
        }
    }

    /// One line on why the first connection failed, naming `host:port` and what to do.
    static func connectionProblem(_ error: any Error, url: PostgresURL) -> String {
        if let error = error as? StoreError { return error.message }
        let state = (error as? PSQLError)?.serverInfo?[.sqlState]
        switch state {
        case "28P01", "28000":
            return "the PostgreSQL server at \(url.address) refused user '\(url.user)' (\(describe(error))): check the "
                + "user in --database and the password in INDOOR_DATABASE_PASSWORD"
        case "3D000":
            return "the PostgreSQL server at \(url.address) has no database '\(url.database)': create it "
                + "(createdb -h \(url.host) -p \(url.port) -U \(url.user) \(url.database)) or name another in --database"
        default:
            break
        }
        if let error = error as? PSQLError, error.code == .sslUnsupported {
            return "the PostgreSQL server at \(url.address) does not offer TLS, which sslmode=\(url.tls.rawValue) "
                + "requires: turn ssl on in the server, or use sslmode=disable on a trusted network"
        }
        return "cannot connect to the PostgreSQL server at \(url.address) (\(describe(error))): start it, or check the "
            + "host and port in --database (\(url))"
    }

    private static func tlsConfiguration(_ url: PostgresURL) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if url.tls == .verifyFull {
            if let roots = url.rootCertificates { tls.trustRoots = .file(roots) }
        } else {
            // As libpq's prefer and require: encrypted, the certificate not checked.
            tls.certificateVerification = .none
        }
        return tls
    }

    private static func clientTLS(_ url: PostgresURL) throws -> PostgresClient.Configuration.TLS {
        switch url.tls {
        case .disable: .disable
        case .prefer: .prefer(tlsConfiguration(url))
        case .require, .verifyFull: .require(tlsConfiguration(url))
        }
    }

    private static func connectionTLS(_ url: PostgresURL) throws -> PostgresConnection.Configuration.TLS {
        switch url.tls {
        case .disable: return .disable
        case .prefer: return .prefer(try NIOSSLContext(configuration: tlsConfiguration(url)))
        case .require, .verifyFull: return .require(try NIOSSLContext(configuration: tlsConfiguration(url)))
        }
    }
}
