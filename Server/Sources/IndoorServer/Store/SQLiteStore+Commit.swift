import Foundation
import GRDB
import IndoorGeofencing
import IndoorModel

extension SQLiteStore {
    /// `INSERT INTO sighting … VALUES (…), (…)` with 1...``maximumSightingRowsPerInsert`` rows: element `n - 1` has n.
    private static let sightingInserts: [String] = (1...maximumSightingRowsPerInsert).map { rows in
        "INSERT INTO sighting (venue, t, device, node, beacon, rssi, tx, receivedAt) VALUES "
            + values(8, rows: rows)
    }

    /// How many of `remaining` rows the next statement writes, as a power of two: the largest up to 2⁶ = 64, so
    /// that a batch's events or devices take a few statements of seven cached ones (``eventInserts``,
    /// ``deviceUpserts``).
    private static func chunkExponent(_ remaining: Int) -> Int {
        var exponent = 6
        while exponent > 0 && 1 << exponent > remaining { exponent -= 1 }
        return exponent
    }

    /// `INSERT INTO event … VALUES (…), (…)`: element k has 2ᵏ rows of 6 values (k = 0…6).
    private static let eventInserts: [String] = (0...6).map {
        "INSERT INTO event (venue, type, t, device, json, storedAt) VALUES " + values(6, rows: 1 << $0)
    }

    /// The upsert of devices' latest fixes, element k with 2ᵏ rows (k = 0…6): a row is replaced only by a fix as late
    /// or later. SQLite upserts a statement's rows one after the other, as it would with a statement each.
    private static let deviceUpserts: [String] = (0...6).map {
        "INSERT INTO device (venue, device, t, fix) VALUES " + values(4, rows: 1 << $0)
            + " ON CONFLICT(venue, device) DO UPDATE SET t = excluded.t, fix = excluded.fix WHERE excluded.t >= device.t"
    }

    /// `(?,?,…),(?,?,…)…`: `rows` rows of `columns` parameters.
    private static func values(_ columns: Int, rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ",") + ")"
        return Array(repeating: row, count: rows).joined(separator: ",")
    }

    /// About how many bytes of text one sighting's row binds (its venue, device and node or beacon ids).
    private static let sightingTextBytes = 48

    public func commit(batches: [IngestBatch]) async throws -> [[StoredEvent]] {
        guard !batches.isEmpty else { return [] }
        let encoded = try batches.map { try $0.encodedEvents() }
        let rowsPerInsert = sightingRowsPerInsert
        return try await pool.write { db in
            try zip(batches, encoded).map { batch, encoded in
                try Self.write(batch, encoded: encoded, sightingRowsPerInsert: rowsPerInsert, in: db)
            }
        }
    }

    /// Writes `batch` (its events' JSON `encoded`) inside the transaction of `db`: its sightings, events, visits and
    /// latest fixes. Returns its events with their ids.
    private static func write(
        _ batch: IngestBatch, encoded: [Data], sightingRowsPerInsert: Int, in db: Database
    ) throws -> [StoredEvent] {
        var offset = 0
        while offset < batch.sightings.count {
            let rows = min(sightingRowsPerInsert, batch.sightings.count - offset)
            var insert = try SQLiteBindings(
                db.cachedStatement(sql: Self.sightingInserts[rows - 1]), textBytes: rows * Self.sightingTextBytes)
            for sighting in batch.sightings[offset..<offset + rows] {
                try insert.bind(batch.venue)
                try insert.bind(sighting.time)
                try insert.bind(sighting.device)
                switch sighting.source {
                case .node(let id):
                    try insert.bind(id)
                    try insert.bindNull()
                case .beacon(let id):
                    try insert.bindNull()
                    try insert.bind(id.description)
                }
                try insert.bind(sighting.rssi)
                try insert.bind(sighting.txPower)
                try insert.bind(batch.receivedAt)
            }
            try insert.execute()
            offset += rows
        }
        var stored: [StoredEvent] = []
        stored.reserveCapacity(batch.events.count)
        var latest: [String: (Fix, Data)] = [:]
        var first = 0
        while first < batch.events.count {
            let exponent = Self.chunkExponent(batch.events.count - first)
            let rows = 1 << exponent
            let chunk = first..<first + rows
            var insert = try SQLiteBindings(
                db.cachedStatement(sql: Self.eventInserts[exponent]), textBytes: rows * 32)
            for index in chunk {
                let event = batch.events[index]
                try insert.bind(batch.venue)
                try insert.bind(event.type)
                try insert.bind(event.time)
                try insert.bind(event.device)
                try insert.bind(encoded[index])
                try insert.bind(batch.receivedAt)
            }
            try insert.execute()
            // One statement's rows take consecutive ids in the order of its VALUES (AUTOINCREMENT: each new id is
            // one more than the largest so far), the last of them the connection's last inserted row id.
            let firstID = db.lastInsertedRowID - Int64(rows) + 1
            for index in chunk {
                let event = batch.events[index]
                stored.append(StoredEvent(id: firstID + Int64(index - first), venue: batch.venue, event: event))
                switch event {
                case .fix(let fix):
                    if let known = latest[fix.device], known.0.time > fix.time { break }
                    latest[fix.device] = (fix, encoded[index])
                case .zone(let zone):
                    try Self.record(zone, venue: batch.venue, at: batch.receivedAt, in: db)
                case .occupancy, .person:
                    break
                }
            }
            first += rows
        }
        let devices = Array(latest.values)
        first = 0
        while first < devices.count {
            let exponent = Self.chunkExponent(devices.count - first)
            let rows = 1 << exponent
            var upsert = try SQLiteBindings(
                db.cachedStatement(sql: Self.deviceUpserts[exponent]), textBytes: rows * 32)
            for (fix, json) in devices[first..<first + rows] {
                try upsert.bind(batch.venue)
                try upsert.bind(fix.device)
                try upsert.bind(fix.time)
                try upsert.bind(json)
            }
            try upsert.execute()
            first += rows
        }
        return stored
    }

    /// Keeps the visit log: a check-in opens a visit, a check-out closes the device's open visit of that zone;
    /// `storedAt` (Unix seconds) is when a closed visit was closed, for retention.
    private static func record(_ zone: ZoneEvent, venue: String, at storedAt: Double, in db: Database) throws {
        switch zone.kind {
        case .checkIn where zone.willCheckOut == false:
            // A crossing (a geoline, or a zone without check-out): a visit that ends where it begins.
            var insert = try SQLiteBindings(
                db.cachedStatement(
                    sql: """
                        INSERT INTO visit (venue, zone, zoneName, device, trigger, checkIn, checkOut, dwell, reason, closedAt)
                        VALUES (?,?,?,?,?,?,?,0,'crossing',?)
                        """))
            try visitStart(zone, venue: venue, checkIn: zone.time, into: &insert)
            try insert.bind(zone.time)
            try insert.bind(storedAt)
            try insert.execute()
        case .checkIn:
            // One open visit per device and zone: a check-in while one is still open (a session started afresh after
            // a restart, the device inside) leaves that one as it is, as PostgresStore's partial unique index does.
            var insert = try SQLiteBindings(
                db.cachedStatement(
                    sql: """
                        INSERT INTO visit (venue, zone, zoneName, device, trigger, checkIn) SELECT ?,?,?,?,?,?
                        WHERE NOT EXISTS (SELECT 1 FROM visit WHERE venue = ? AND zone = ? AND device = ? AND checkOut IS NULL)
                        """))
            try visitStart(zone, venue: venue, checkIn: zone.time, into: &insert)
            try insert.bind(venue)
            try insert.bind(zone.zone)
            try insert.bind(zone.device)
            try insert.execute()
        case .checkOut:
            // Closes the device's latest open visit of the zone, if there is one.
            var update = try SQLiteBindings(
                db.cachedStatement(
                    sql: """
                        UPDATE visit SET checkOut = ?, departure = ?, dwell = ?, reason = ?, closedAt = ?
                        WHERE id = (SELECT id FROM visit WHERE venue = ? AND zone = ? AND device = ? AND checkOut IS NULL
                        ORDER BY id DESC LIMIT 1)
                        """))
            try update.bind(zone.time)
            try update.bind(zone.departure)
            try update.bind(zone.dwell)
            try update.bind(zone.reason?.rawValue)
            try update.bind(storedAt)
            try update.bind(venue)
            try update.bind(zone.zone)
            try update.bind(zone.device)
            try update.execute()
            guard db.changesCount == 0 else { break }
            // The check-in happened before a restart of the server (its session started afresh): keep the
            // visit with what the check-out event says.
            var insert = try SQLiteBindings(
                db.cachedStatement(
                    sql: """
                        INSERT INTO visit (venue, zone, zoneName, device, trigger, checkIn, checkOut, departure, dwell,
                        reason, closedAt) VALUES (?,?,?,?,?,?,?,?,?,?,?)
                        """))
            try visitStart(zone, venue: venue, checkIn: zone.checkIn ?? zone.time, into: &insert)
            try insert.bind(zone.time)
            try insert.bind(zone.departure)
            try insert.bind(zone.dwell)
            try insert.bind(zone.reason?.rawValue)
            try insert.bind(storedAt)
            try insert.execute()
        case .dwell:
            break
        }
    }

    /// Binds a visit's first six columns: `venue`, `zone`, `zoneName`, `device`, `trigger`, `checkIn`.
    private static func visitStart(
        _ zone: ZoneEvent, venue: String, checkIn: Double, into insert: inout SQLiteBindings
    ) throws {
        try insert.bind(venue)
        try insert.bind(zone.zone)
        try insert.bind(zone.zoneName)
        try insert.bind(zone.device)
        try insert.bind(zone.trigger.rawValue)
        try insert.bind(checkIn)
    }
}
