import Foundation
import IndoorGeofencing
import IndoorModel
import PostgresNIO

extension PostgresStore {
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
            case .occupancy, .person:
                break
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
                    "($\(first),$\(first + 1),$\(first + 2),$\(first + 3),$\(first + 4)::jsonb,$\(first + 5),"
                        + "$\(first + 6)::text)")
                binds.append(batch.venue)
                binds.append(event.type)
                binds.append(event.time)
                binds.append(event.device)
                binds.append(json[index])
                binds.append(batch.receivedAt)
                // A fix's JSON also as written, for the history's pages (`fix_json`).
                if case .fix = event { binds.append(json[index]) } else { binds.appendNull() }
            }
            let returned = try await connection.query(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO event (venue, type, t, device, json, stored_at, fix_json) VALUES "
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
}
