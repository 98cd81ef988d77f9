import Foundation
import GRDB
import IndoorGeofencing
import IndoorModel

/// The embedded store: one SQLite file in WAL mode, through GRDB.
///
/// Schema changes are append-only migrations (``SQLiteMigrations``). A batch is one transaction; in WAL mode with
/// `synchronous = NORMAL` (the default here) a committed transaction survives the process being killed, and with
/// `synchronous = FULL` (``Durability/full``) a power cut as well, at the price of an fsync per batch.
public final class SQLiteStore: LocationStore {
    /// How hard a commit waits for the disk.
    public enum Durability: String, Sendable, CaseIterable {
        /// Survives the process being killed (SQLite `synchronous = NORMAL` in WAL mode).
        case normal
        /// Survives a power cut too (`synchronous = FULL`): an fsync per committed batch.
        case full
    }

    private let pool: DatabasePool
    /// The path of the database file.
    public let path: String
    /// Sightings written by one `INSERT` statement (at most ``maximumSightingRowsPerInsert``); 1 writes them row by
    /// row, as before multi-row inserts were measured (docs/notes/ingest-decoder.md).
    package let sightingRowsPerInsert: Int
    /// 100 rows of 8 values stay under SQLite's oldest limit on the variables of one statement (999).
    package static let maximumSightingRowsPerInsert = 100

    /// Opens (or creates) the database at `path` and brings its schema up to date.
    ///
    /// An existing file must be an Indoor database (or empty): the store never adds its tables to another
    /// program's SQLite file, and never deletes or replaces a file.
    /// - Throws: ``StoreError`` naming the path when it is a folder, not SQLite, or another program's database.
    public convenience init(path: String, durability: Durability = .normal) throws {
        try self.init(path: path, durability: durability, sightingRowsPerInsert: Self.maximumSightingRowsPerInsert)
    }

    /// Opens the database at `path`, writing `sightingRowsPerInsert` sightings per `INSERT` (1...100; the benchmark
    /// compares row by row with multi-row inserts).
    package init(path: String, durability: Durability, sightingRowsPerInsert: Int) throws {
        self.path = path
        self.sightingRowsPerInsert = min(max(1, sightingRowsPerInsert), Self.maximumSightingRowsPerInsert)
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if exists && isFolder.boolValue {
            throw StoreError("'\(path)' is a folder; expected a database file path")
        }
        var configuration = Configuration()
        let synchronous = durability == .full ? "FULL" : "NORMAL"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
        }
        configuration.busyMode = .timeout(10)
        do {
            if exists { try Self.checkOwnership(path: path) }
            pool = try DatabasePool(path: path, configuration: configuration)
            try SQLiteMigrations.migrator.migrate(pool)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError("'\(path)': \(error.message ?? "\(error)")")
        }
    }

    /// Refuses a database that holds tables but not Indoor's migrations.
    /// Opened read-only, so that a file that is not ours is left byte for byte as it was.
    private static func checkOwnership(path: String) throws {
        var readOnly = Configuration()
        readOnly.readonly = true
        let pool = try DatabaseQueue(path: path, configuration: readOnly)
        defer { try? pool.close() }
        let tables = try pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        guard !tables.isEmpty else { return }
        let ours = try pool.read { db -> Bool in
            guard tables.contains("grdb_migrations") else { return false }
            return try Bool.fetchOne(
                db, sql: "SELECT COUNT(*) > 0 FROM grdb_migrations WHERE identifier = ?",
                arguments: [SQLiteMigrations.first]) ?? false
        }
        guard ours else {
            throw StoreError(
                "'\(path)' is a database of another program (tables: \(tables.sorted().prefix(5).joined(separator: ", ")));"
                    + " choose another --database path")
        }
    }

    public func venues() async throws -> [StoredVenue] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, json FROM venue ORDER BY id").map {
                StoredVenue(id: $0["id"], json: $0["json"])
            }
        }
    }

    public func venue(id: String) async throws -> StoredVenue? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT id, json FROM venue WHERE id = ?", arguments: [id]).map {
                StoredVenue(id: $0["id"], json: $0["json"])
            }
        }
    }

    @discardableResult public func putVenue(_ venue: StoredVenue) async throws -> Bool {
        try await pool.write { db in
            let existed =
                try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM venue WHERE id = ?", arguments: [venue.id])
                ?? false
            try db.execute(
                sql: """
                    INSERT INTO venue (id, json, updatedAt) VALUES (?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET json = excluded.json, updatedAt = excluded.updatedAt
                    """,
                arguments: [venue.id, venue.json, Date().timeIntervalSince1970])
            return !existed
        }
    }

    @discardableResult public func deleteVenue(id: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM venue WHERE id = ?", arguments: [id])
            let deleted = db.changesCount > 0
            try db.execute(sql: "DELETE FROM device WHERE venue = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM floorImage WHERE venue = ?", arguments: [id])
            return deleted
        }
    }

    public func floorImage(venue: String, level: Int) async throws -> StoredFloorImage? {
        try await pool.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT contentType, data, placement, updatedAt FROM floorImage WHERE venue = ? AND level = ?",
                arguments: [venue, level]
            ).map { row in
                StoredFloorImage(
                    venue: venue, level: level, contentType: row["contentType"], data: row["data"],
                    placement: row["placement"], updatedAt: row["updatedAt"])
            }
        }
    }

    @discardableResult public func putFloorImage(_ image: StoredFloorImage) async throws -> Bool {
        try await pool.write { db in
            let existed =
                try Bool.fetchOne(
                    db, sql: "SELECT COUNT(*) > 0 FROM floorImage WHERE venue = ? AND level = ?",
                    arguments: [image.venue, image.level]) ?? false
            try db.execute(
                sql: """
                    INSERT INTO floorImage (venue, level, contentType, data, placement, updatedAt)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(venue, level) DO UPDATE SET contentType = excluded.contentType,
                        data = excluded.data, placement = excluded.placement, updatedAt = excluded.updatedAt
                    """,
                arguments: [
                    image.venue, image.level, image.contentType, image.data, image.placement, image.updatedAt,
                ])
            return !existed
        }
    }

    @discardableResult public func deleteFloorImage(venue: String, level: Int) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM floorImage WHERE venue = ? AND level = ?", arguments: [venue, level])
            return db.changesCount > 0
        }
    }

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

    public func latestFix(venue: String, device: String) async throws -> Fix? {
        let data = try await pool.read { db in
            try Data.fetchOne(
                db, sql: "SELECT fix FROM device WHERE venue = ? AND device = ?", arguments: [venue, device])
        }
        return try data.map { try JSONDecoder().decode(Fix.self, from: $0) }
    }

    public func devices(venue: String, since: Double) async throws -> [Fix] {
        let rows = try await pool.read { db in
            try Data.fetchAll(
                db, sql: "SELECT fix FROM device WHERE venue = ? AND t >= ? ORDER BY device", arguments: [venue, since])
        }
        let decoder = JSONDecoder()
        return try rows.map { try decoder.decode(Fix.self, from: $0) }
    }

    public func visits(_ query: VisitQuery) async throws -> VisitPage {
        var sql = "SELECT * FROM visit WHERE venue = ?"
        var arguments: StatementArguments = [query.venue]
        if let zone = query.zone {
            sql += " AND zone = ?"
            arguments += [zone]
        }
        if let device = query.device {
            sql += " AND device = ?"
            arguments += [device]
        }
        if let from = query.from {
            sql += " AND (checkOut IS NULL OR checkOut >= ?)"
            arguments += [from]
        }
        if let to = query.to {
            sql += " AND checkIn < ?"
            arguments += [to]
        }
        if let before = query.before {
            sql += " AND id < ?"
            arguments += [before]
        }
        if query.openOnly { sql += " AND checkOut IS NULL" }
        sql += " ORDER BY id DESC LIMIT ?"
        arguments += [query.limit + 1]
        let (statement, values) = (sql, arguments)
        // Rows are not Sendable: they become visits inside the read, so that the read is GRDB's asynchronous one.
        let rows = try await pool.read { db in
            try Row.fetchAll(db, sql: statement, arguments: values).map { row in
                Visit(
                    id: row["id"], venue: row["venue"], zone: row["zone"], zoneName: row["zoneName"],
                    device: row["device"], trigger: row["trigger"], checkIn: row["checkIn"], checkOut: row["checkOut"],
                    departure: row["departure"], dwell: row["dwell"], reason: row["reason"])
            }
        }
        let visits = Array(rows.prefix(query.limit))
        return VisitPage(visits: visits, nextBefore: rows.count > query.limit ? visits.last?.id : nil)
    }

    public func events(venue: String, after: Int64, limit: Int) async throws -> [StoredEvent] {
        // Rows are not Sendable: their values are taken out inside the read, so that the read is GRDB's asynchronous one.
        let rows = try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, type, json FROM event WHERE venue = ? AND id > ? ORDER BY id LIMIT ?",
                arguments: [venue, after, limit]
            ).map { row -> (id: Int64, type: String, json: Data) in (row["id"], row["type"], row["json"]) }
        }
        let decoder = JSONDecoder()
        return try rows.map { row in
            let event: ServerEvent =
                row.type == "fix"
                ? .fix(try decoder.decode(Fix.self, from: row.json))
                : .zone(try decoder.decode(ZoneEvent.self, from: row.json))
            return StoredEvent(id: row.id, venue: venue, event: event)
        }
    }

    public func latestEventID() async throws -> Int64 {
        try await pool.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM event") ?? 0 }
    }

    public func sightingCount(venue: String) async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sighting WHERE venue = ?", arguments: [venue]) ?? 0
        }
    }

    public func recentSightings(venue: String, seconds: Double, limit: Int) async throws -> [ReceivedSighting] {
        let rows = try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT t, device, node, beacon, rssi, tx, receivedAt FROM sighting
                    WHERE venue = ? AND t >= (SELECT MAX(t) FROM sighting WHERE venue = ?) - ?
                    ORDER BY t DESC, id DESC LIMIT ?
                    """, arguments: [venue, venue, seconds, limit])
        }
        return try rows.reversed().map { row in
            try ReceivedSighting(
                time: row["t"], device: row["device"], node: row["node"], beacon: row["beacon"], rssi: row["rssi"],
                txPower: row["tx"], receivedAt: row["receivedAt"])
        }
    }

    public func keys() async throws -> [StoredKey] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT hash, kind, label FROM apiKey ORDER BY createdAt").compactMap { row in
                guard let kind = KeyKind(rawValue: row["kind"]) else { return nil }
                return StoredKey(hash: row["hash"], kind: kind, label: row["label"])
            }
        }
    }

    public func addKey(_ key: StoredKey) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO apiKey (hash, kind, label, createdAt) VALUES (?,?,?,?) ON CONFLICT(hash) DO NOTHING",
                arguments: [key.hash, key.kind.rawValue, key.label, Date().timeIntervalSince1970])
        }
    }

    public var kind: String { "sqlite" }

    public func ping() async throws {
        _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    public func pruneSightings(receivedBefore cutoff: Double, limit: Int) async throws -> Int {
        // Among the `limit` oldest rows only (sightings are stored in the order they are received), so that one
        // round costs the same however large the table is.
        try await pool.write { db in
            try db.execute(
                sql:
                    "DELETE FROM sighting WHERE id IN (SELECT id FROM sighting ORDER BY id LIMIT ?) AND receivedAt < ?",
                arguments: [limit, cutoff])
            return db.changesCount
        }
    }

    public func pruneEvents(storedBefore cutoff: Double, limit: Int) async throws -> Int {
        // Among the `limit` oldest rows, as for sightings: events are stored in the order of their ids.
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM event WHERE id IN (SELECT id FROM event ORDER BY id LIMIT ?) AND storedAt < ?",
                arguments: [limit, cutoff])
            return db.changesCount
        }
    }

    public func pruneVisits(closedBefore cutoff: Double, limit: Int) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: """
                    DELETE FROM visit WHERE id IN
                    (SELECT id FROM visit WHERE closedAt < ? ORDER BY closedAt LIMIT ?)
                    """,
                arguments: [cutoff, limit])
            return db.changesCount
        }
    }

    public func storage() async throws -> StoreStorage {
        try await pool.read { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return StoreStorage(
                bytes: pages * pageSize,
                oldestSighting: try Double.fetchOne(db, sql: "SELECT receivedAt FROM sighting ORDER BY id LIMIT 1"),
                oldestEvent: try Double.fetchOne(db, sql: "SELECT storedAt FROM event ORDER BY id LIMIT 1"),
                oldestVisit: try Double.fetchOne(
                    db, sql: "SELECT closedAt FROM visit WHERE closedAt IS NOT NULL ORDER BY closedAt LIMIT 1"))
        }
    }
}

/// A problem with the store: the path, and what is wrong.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong and how to fix it.
    public var message: String
    /// A store error saying `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
