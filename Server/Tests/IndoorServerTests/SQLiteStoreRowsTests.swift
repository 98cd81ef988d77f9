import Foundation
import GRDB
import IndoorGeofencing
import IndoorModel
import IndoorServer
import Testing

/// The SQLite store's rows of a batch hold exactly what GRDB's `execute(sql:arguments:)` stores for the same values
/// (as the store wrote them before it bound values itself), and the events' JSON is `JSONEncoder`'s: every text
/// (empty, with a NUL, not ASCII, to be escaped), number (whole, negative zero, huge) and `NULL`, compared column by
/// column by value and by SQLite type.
@Suite struct SQLiteStoreRowsTests {
    static let texts = [
        "", "p", "caf\u{E9}", "\u{1F600}", "a\u{0}b", "\u{0}", "quote\"back\\slash/",
        String(repeating: "d", count: 128),
    ]

    /// The columns of `table` whose value or SQLite type differs between the store's rows and `expected`'s (a temporary
    /// table of the same columns), rows paired by `pairing`, each with how many rows differ; and how many rows each
    /// holds when they differ.
    static func differences(
        _ table: String, columns: [String], pairing: String = "s.rowid = e.rowid", in db: Database
    ) throws -> [String: Int] {
        var differences: [String: Int] = [:]
        for column in columns {
            let count =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM \(table) s JOIN expected e ON \(pairing)
                        WHERE NOT (s.\(column) IS e.\(column) AND typeof(s.\(column)) = typeof(e.\(column)))
                        """) ?? -1
            if count != 0 { differences[column] = count }
        }
        let stored = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? -1
        let expected = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM expected") ?? -1
        if stored != expected { differences["rows: \(stored) stored, \(expected) expected"] = 1 }
        return differences
    }

    @Test func aBatchsRowsAreWhatGRDBStoresForTheSameValues() async throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        let store = try SQLiteStore(path: database.name)
        let venue = "v\u{E9}nue\u{0}x"
        let receivedAt = 1_700_000_000.5
        var sightings: [Sighting] = []
        var events: [ServerEvent] = []
        for (index, text) in Self.texts.enumerated() {
            let other = Self.texts[(index + 3) % Self.texts.count]
            sightings.append(
                Sighting(
                    time: Double(index) + 0.25, device: text, node: other, rssi: -60 - Double(index),
                    txPower: index.isMultiple(of: 2) ? nil : -59))
            sightings.append(
                Sighting(time: -0.0, device: other, source: .beacon(PostgresStoreTests.beacon), rssi: 1e300, txPower: 4)
            )
            events.append(
                .fix(
                    Fix(
                        time: 10 + Double(index), device: text, position: Point3D(x: 1.0005, y: -0.0, z: 1e17),
                        floor: index - 2, accuracy: 3, confidence: 0.25, method: other,
                        coordinate: index.isMultiple(of: 3) ? nil : GeoCoordinate(latitude: 47.1, longitude: -8))))
            events.append(PostgresStoreTests.zone(.checkIn, text, other, 20 + Double(index)))
        }
        let stored = try await store.commit(
            IngestBatch(venue: venue, sightings: sightings, events: events, receivedAt: receivedAt))
        let (written, caused) = (sightings, events)
        #expect(stored.count == events.count)

        let queue = try DatabaseQueue(path: database.name)
        defer { try? queue.close() }
        let encoder = JSONFormat.encoder()
        try await queue.write { db in
            try db.execute(sql: "CREATE TEMP TABLE expected AS SELECT * FROM sighting WHERE 0")
            for (index, sighting) in written.enumerated() {
                var node: String?
                var beacon: String?
                switch sighting.source {
                case .node(let id): node = id
                case .beacon(let id): beacon = id.description
                }
                try db.execute(
                    sql: """
                        INSERT INTO expected (rowid, id, venue, t, device, node, beacon, rssi, tx, receivedAt)
                        VALUES (?,?,?,?,?,?,?,?,?,?)
                        """,
                    arguments: [
                        index + 1, index + 1, venue, sighting.time, sighting.device, node, beacon, sighting.rssi,
                        sighting.txPower, receivedAt,
                    ])
            }
            #expect(
                try Self.differences(
                    "sighting", columns: ["id", "venue", "t", "device", "node", "beacon", "rssi", "tx", "receivedAt"],
                    in: db) == [:])

            try db.execute(sql: "DROP TABLE expected; CREATE TEMP TABLE expected AS SELECT * FROM event WHERE 0")
            for (event, storedEvent) in zip(caused, stored) {
                let json: Data =
                    switch event {
                    case .fix(let fix): try encoder.encode(fix)
                    case .zone(let zone): try encoder.encode(zone)
                    case .occupancy(let occupancy): try encoder.encode(occupancy)
                    case .person(let person): try encoder.encode(person)
                    }
                try db.execute(
                    sql:
                        "INSERT INTO expected (rowid, id, venue, type, t, device, json, storedAt) VALUES (?,?,?,?,?,?,?,?)",
                    arguments: [
                        storedEvent.id, storedEvent.id, venue, event.type, event.time, event.device, json, receivedAt,
                    ])
            }
            #expect(
                try Self.differences(
                    "event", columns: ["id", "venue", "type", "t", "device", "json", "storedAt"], in: db) == [:])

            // Each device's latest fix, upserted fix by fix as the store's rule says (the later `t` wins): the ids
            // equal up to a NUL share a row, as they did.
            try db.execute(
                sql: """
                    DROP TABLE expected;
                    CREATE TEMP TABLE expected (
                        venue TEXT NOT NULL, device TEXT NOT NULL, t REAL NOT NULL, fix BLOB NOT NULL,
                        PRIMARY KEY (venue, device))
                    """)
            for event in caused {
                guard case .fix(let fix) = event else { continue }
                try db.execute(
                    sql: """
                        INSERT INTO expected (venue, device, t, fix) VALUES (?,?,?,?)
                        ON CONFLICT(venue, device) DO UPDATE SET t = excluded.t, fix = excluded.fix
                        WHERE excluded.t >= expected.t
                        """,
                    arguments: [venue, fix.device, fix.time, try encoder.encode(fix)])
            }
            #expect(
                try Self.differences(
                    "device", columns: ["venue", "device", "t", "fix"],
                    pairing: "s.venue = e.venue AND s.device = e.device", in: db) == [:])
        }
    }
}
