import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorServer
import IndoorServerTestSupport
import Testing

/// ``PostgresStore`` on a real PostgreSQL (a throw-away cluster, ``Postgres``): every method answers as
/// ``SQLiteStore`` does, a batch is one transaction, migrations, and `indoor serve --database postgres://…` over HTTP.
@Suite(
    "PostgreSQL store", .serialized, .enabled(if: Postgres.isInstalled, Comment(rawValue: Postgres.notInstalled)))
struct PostgresStoreTests {
    static func fix(_ device: String, _ time: Double, x: Double = 1) -> ServerEvent {
        .fix(
            Fix(
                time: time, device: device, position: Point3D(x: x, y: 2, z: 0), floor: 0, accuracy: 1.5,
                confidence: 0.8, method: "nonlinear"))
    }

    static func zone(
        _ kind: ZoneEvent.Kind, _ device: String, _ zone: String, _ time: Double, checkIn: Double? = nil,
        willCheckOut: Bool? = nil
    ) -> ServerEvent {
        .zone(
            ZoneEvent(
                kind: kind, time: time, zone: zone, zoneName: zone.uppercased(), device: device,
                trigger: willCheckOut == false ? .geoline : .fence, willCheckOut: willCheckOut, checkIn: checkIn,
                departure: kind == .checkOut ? time - 1 : nil, reason: kind == .checkOut ? .left : nil,
                dwell: kind == .checkOut ? time - (checkIn ?? time) : nil))
    }

    static let beacon = BeaconID(
        uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0") ?? UUID(), major: 1, minor: 2)

    /// Calls every method of `store` on an empty database, and writes down each answer (all but the size in bytes).
    static func transcript(_ store: any LocationStore) async throws -> [String] {
        var lines: [String] = []
        func note(_ label: String, _ value: Any) { lines.append("\(label): \(value)") }
        note("venues empty", try await store.venues())
        note("put a", try await store.putVenue(StoredVenue(id: "a", json: Data(#"{"id": "a"}"#.utf8))))
        note("put a again", try await store.putVenue(StoredVenue(id: "a", json: Data(#"{"id": "a", "v": 2}"#.utf8))))
        note("put b", try await store.putVenue(StoredVenue(id: "b", json: Data(#"{"id": "b"}"#.utf8))))
        note("venues", try await store.venues())
        note("venue a", try await store.venue(id: "a") as Any)
        note("venue none", try await store.venue(id: "none") as Any)

        let first = IngestBatch(
            venue: "a",
            sightings: [
                Sighting(time: 1, device: "p", node: "n1", rssi: -60),
                Sighting(time: 1.5, device: "q", source: .beacon(beacon), rssi: -70.5, txPower: -59),
                Sighting(time: 3, device: "p", node: "n2", rssi: -61),
            ],
            events: [
                fix("p", 1), fix("q", 2), zone(.checkIn, "p", "z1", 1), fix("p", 3, x: 4),
                zone(.checkIn, "q", "z1", 2),
            ],
            receivedAt: 100)
        note("commit 1", try await store.commit(first))
        let second = IngestBatch(
            venue: "a", sightings: [Sighting(time: 2, device: "p", node: "n1", rssi: -62)],
            events: [
                fix("p", 2, x: 9), zone(.checkOut, "p", "z1", 5, checkIn: 1), zone(.dwell, "q", "z1", 6),
                zone(.checkIn, "q", "gate", 6, willCheckOut: false), zone(.checkOut, "r", "z2", 7, checkIn: 3),
                zone(.checkIn, "p", "z1", 8),
            ],
            receivedAt: 200)
        note("commit 2", try await store.commit(second))
        note(
            "commit empty", try await store.commit(IngestBatch(venue: "a", sightings: [], events: [], receivedAt: 250)))
        note(
            "commit b",
            try await store.commit(
                IngestBatch(
                    venue: "b", sightings: [Sighting(time: 1, device: "s", node: "n1", rssi: -50)],
                    events: [fix("s", 1)], receivedAt: 300)))

        note("latest p", try await store.latestFix(venue: "a", device: "p") as Any)
        note("latest none", try await store.latestFix(venue: "a", device: "none") as Any)
        note("devices", try await store.devices(venue: "a", since: 0))
        note("devices since 2.5", try await store.devices(venue: "a", since: 2.5))
        note("visits", try await store.visits(VisitQuery(venue: "a")))
        var page = try await store.visits(VisitQuery(venue: "a", limit: 2))
        note("visits page 1", page)
        while let before = page.nextBefore {
            page = try await store.visits(VisitQuery(venue: "a", limit: 2, before: before))
            note("visits next page", page)
        }
        note("visits z1", try await store.visits(VisitQuery(venue: "a", zone: "z1")))
        note("visits q", try await store.visits(VisitQuery(venue: "a", device: "q")))
        note("visits from 6", try await store.visits(VisitQuery(venue: "a", from: 6)))
        note("visits to 2", try await store.visits(VisitQuery(venue: "a", to: 2)))
        note("visits b", try await store.visits(VisitQuery(venue: "b")))
        note("events", try await store.events(venue: "a", after: 0, limit: 100))
        note("events after 3, 2", try await store.events(venue: "a", after: 3, limit: 2))
        note("events b", try await store.events(venue: "b", after: 0, limit: 100))
        note("latest event id", try await store.latestEventID())
        note("sightings a", try await store.sightingCount(venue: "a"))
        note("sightings b", try await store.sightingCount(venue: "b"))
        note("sightings none", try await store.sightingCount(venue: "none"))

        note("keys empty", try await store.keys())
        try await store.addKey(StoredKey(hash: String(repeating: "a", count: 64), kind: .admin, label: "first"))
        try await store.addKey(StoredKey(hash: String(repeating: "b", count: 64), kind: .read, label: "second"))
        try await store.addKey(StoredKey(hash: String(repeating: "a", count: 64), kind: .read, label: "again"))
        // The ids and times differ from store to store: what they hold besides.
        func keyFields() async throws -> [String] {
            try await store.keys().map { "\($0.hash) \($0.kind) \($0.label) \($0.origin) \($0.id.count)" }
        }
        note("keys", try await keyFields())
        let ids = try await store.keys().map(\.id)
        note("retire none", try await store.retireOperatorKeys(keeping: []))
        try await store.addKey(
            StoredKey(hash: String(repeating: "c", count: 64), kind: .read, label: "operator", origin: .operator))
        note("retire", try await store.retireOperatorKeys(keeping: [String(repeating: "a", count: 64)]).count)
        note("keys after retiring", try await keyFields())
        try await store.touchKeys([ids[0]: 1234])
        note("last used", try await store.keys().map { $0.lastUsed as Any })
        note("revoke", try await store.revokeKey(id: ids[1]))
        note("revoke again", try await store.revokeKey(id: ids[1]))
        note("keys after revoking", try await keyFields())
        try await store.appendAudit([
            AuditEntry(
                time: 10, keyId: "k1", keyLabel: "read", method: "GET", route: "/v1/activity", path: "/v1/activity",
                venue: "a", device: "p", address: "127.0.0.1", status: 200),
            AuditEntry(
                time: 20, keyId: nil, keyLabel: nil, method: "DELETE", route: "/v1/keys/{id}", path: "/v1/keys/x",
                venue: nil, device: nil, address: nil, status: 401),
        ])
        note("audit", try await store.audit(AuditQuery()))
        note("audit from 15", try await store.audit(AuditQuery(from: 15)))
        note("audit to 15, limit 1", try await store.audit(AuditQuery(to: 15, limit: 1)))
        note("prune audit", try await store.pruneAudit(recordedBefore: 15, limit: 10))
        try await store.ping()

        var storage = try await store.storage()
        note("storage has bytes", storage.bytes > 0)
        storage.bytes = 0
        note("storage", storage)

        note("delete a", try await store.deleteVenue(id: "a"))
        note("delete a again", try await store.deleteVenue(id: "a"))
        note("venues after delete", try await store.venues())
        note("latest p after delete", try await store.latestFix(venue: "a", device: "p") as Any)
        note("visits after delete", try await store.visits(VisitQuery(venue: "a")).visits.count)
        note("sightings after delete", try await store.sightingCount(venue: "a"))

        note("prune sightings", try await store.pruneSightings(receivedBefore: 250, limit: 2))
        note("prune sightings", try await store.pruneSightings(receivedBefore: 250, limit: 2))
        note("prune sightings", try await store.pruneSightings(receivedBefore: 250, limit: 2))
        note("prune events", try await store.pruneEvents(storedBefore: 150, limit: 3))
        note("prune events", try await store.pruneEvents(storedBefore: 150, limit: 3))
        note("prune visits", try await store.pruneVisits(closedBefore: 250, limit: 1))
        note("prune visits", try await store.pruneVisits(closedBefore: 250, limit: 5))
        note("prune visits", try await store.pruneVisits(closedBefore: 250, limit: 5))
        storage = try await store.storage()
        storage.bytes = 0
        note("storage after pruning", storage)
        note("events after pruning", try await store.events(venue: "a", after: 0, limit: 100).map(\.id))
        return lines
    }

    @Test func everyMethodAnswersAsSQLiteDoes() async throws {
        let sqlite = try TestDatabase(.sqlite)
        defer { sqlite.remove() }
        let postgres = try TestDatabase(.postgres)
        defer { postgres.remove() }
        let expected = try await Self.transcript(try await sqlite.open())
        let answered = try await Self.transcript(try await postgres.open())
        #expect(answered.count == expected.count)
        for (got, want) in zip(answered, expected) {
            #expect(got == want)
        }
        // The SQLite answers are what the method documentation says, not both stores wrong alike.
        #expect(expected.contains("put a: true"))
        #expect(expected.contains("put a again: false"))
        #expect(expected.contains("latest event id: 12"))
        #expect(expected.contains("sightings a: 4"))
        #expect(expected.contains("delete a: true"))
        #expect(expected.contains("delete a again: false"))
    }

    @Test func aBatchThatFailsMidwayLeavesNothing() async throws {
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        let store = try await database.open()
        _ = try await store.commit(
            IngestBatch(
                venue: "a", sightings: [Sighting(time: 1, device: "p", node: "n1", rssi: -60)],
                events: [Self.fix("p", 1)], receivedAt: 100))
        // The sightings and the first events are written before the zone event, whose device PostgreSQL refuses
        // (text may not hold a NUL): the whole batch is rolled back.
        let failing = IngestBatch(
            venue: "a",
            sightings: (0..<1500).map { Sighting(time: 2 + Double($0) / 1000, device: "q", node: "n1", rssi: -60) },
            events: [Self.fix("q", 2), Self.zone(.checkIn, "q", "z1", 2), Self.zone(.checkIn, "bad\u{0}", "z1", 3)],
            receivedAt: 200)
        await #expect(throws: StoreError.self) { try await store.commit(failing) }
        #expect(try await store.sightingCount(venue: "a") == 1)
        #expect(try await store.latestEventID() == 1)
        #expect(try await store.latestFix(venue: "a", device: "q") == nil)
        #expect(try await store.visits(VisitQuery(venue: "a")).visits.isEmpty)
        // And the next batch takes the next id: nothing of the failed one is left, not even its ids' order.
        let next = try await store.commit(
            IngestBatch(venue: "a", sightings: [], events: [Self.fix("q", 4)], receivedAt: 300))
        #expect(next.map(\.id).first.map { $0 > 1 } == true)
        #expect(try await store.events(venue: "a", after: 0, limit: 10).count == 2)
    }

    @Test func aGroupWithABatchThatFailsLeavesNothingOfAnyOfIts() async throws {
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        let store = try await database.open()
        let good = IngestBatch(
            venue: "a", sightings: [Sighting(time: 1, device: "p", node: "n1", rssi: -60)],
            events: [Self.fix("p", 1), Self.zone(.checkIn, "p", "z1", 1)], receivedAt: 100)
        // The second batch's zone event names a device PostgreSQL refuses (text may not hold a NUL).
        let failing = IngestBatch(
            venue: "a", sightings: [Sighting(time: 2, device: "q", node: "n1", rssi: -60)],
            events: [Self.fix("q", 2), Self.zone(.checkIn, "bad\u{0}", "z1", 2)], receivedAt: 100)
        await #expect(throws: StoreError.self) { try await store.commit(batches: [good, failing]) }
        #expect(try await store.sightingCount(venue: "a") == 0)
        #expect(try await store.latestEventID() == 0)
        #expect(try await store.latestFix(venue: "a", device: "p") == nil)
        #expect(try await store.visits(VisitQuery(venue: "a")).visits.isEmpty)
        // The good batch alone commits.
        #expect(try await store.commit(batches: [good]).first?.count == 2)
        #expect(try await store.sightingCount(venue: "a") == 1)
    }

    @Test func commitsAtOnceGetConsecutiveIdsPerBatch() async throws {
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        let store = try await database.open()
        let batches = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let events = (0..<20).map { Self.fix("w\(worker)", Double($0)) }
                    return try await store.commit(
                        IngestBatch(venue: "a", sightings: [], events: events, receivedAt: 1)
                    ).map(\.id)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for ids in batches {
            #expect(ids == Array((ids.first ?? 0)...(ids.first ?? 0) + 19))
        }
        #expect(Set(batches.flatMap { $0 }).count == 160)
        #expect(try await store.latestEventID() == 160)
    }

    /// The columns of the store's tables, one a line, to compare a schema before and after.
    static func schema(_ database: String) throws -> String {
        try Postgres.shared().psql(
            database,
            """
            SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
            WHERE table_schema = 'public' ORDER BY table_name, ordinal_position
            """)
            + (try Postgres.shared().psql(
                database, "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname"))
    }

    @Test func migrationsRunOnceAndAnUpToDateDatabaseIsLeftAsItIs() async throws {
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        _ = try await database.open()
        let cluster = try Postgres.shared()
        let applied = try cluster.psql(database.name, "SELECT identifier FROM indoor_migrations ORDER BY identifier")
        #expect(
            applied
                == "v1-venues-sightings-events-visits-keys\nv10-postgres-fix-json-text\n"
                + "v2-event-storedAt-visit-closedAt\nv3-floorImage\nv4-cluster\n"
                + "v5-key-lifecycle-audit\nv6-serverSecret\nv7-survey\n"
                + "v8-history-report-indexes\nv9-webhooks"
        )
        let before = try Self.schema(database.name)
        #expect(before.contains("visit_open|CREATE UNIQUE INDEX visit_open ON public.visit"))
        let store = try await database.open()
        #expect(try Self.schema(database.name) == before)
        #expect(try cluster.psql(database.name, "SELECT COUNT(*) FROM indoor_migrations") == "10")
        try await store.ping()
    }

    @Test func aDatabaseOfANewerIndoorIsRefused() async throws {
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        _ = try await database.open()
        try Postgres.shared().psql(
            database.name, "INSERT INTO indoor_migrations VALUES ('v99-from-the-future', 1)")
        let error = await #expect(throws: StoreError.self) { try await database.open() }
        #expect(
            error?.message.contains("newer schema (migration 'v99-from-the-future')") == true,
            "\(String(describing: error))")
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftAsItIs() async throws {
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        let cluster = try Postgres.shared()
        try cluster.psql(database.name, "CREATE TABLE orders (id INT)")
        let error = await #expect(throws: StoreError.self) { try await database.open() }
        #expect(
            error?.message.contains("holds tables of another program (orders)") == true, "\(String(describing: error))")
        #expect(
            try cluster.psql(
                database.name, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
                == "orders")
    }

    /// The history answers a fix's JSON as written, and a fix stored before `fix_json` was (its JSONB taken apart
    /// and written again) with the same bytes; so do the devices at an instant.
    @Test func fixesStoredBeforeTheirWrittenJSONReadTheSameBytes() async throws {
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        let store = try await database.open()
        let placed = ServerEvent.fix(
            Fix(
                time: 2.25, device: "r", position: Point3D(x: -1.2345, y: 1e-4, z: 1.5), floor: nil, accuracy: 3,
                confidence: 0.123_456, method: "auto", coordinate: GeoCoordinate(latitude: 52.1, longitude: 4.30001)))
        // A device whose name JSON escapes: written by the encoder, not by ``FixJSON``.
        let quoted = Self.fix("say \"hi\"", 2.5, x: 7)
        _ = try await store.commit(
            IngestBatch(
                venue: "a", sightings: [],
                events: [Self.fix("p", 1), placed, Self.zone(.checkIn, "p", "z1", 1), quoted, Self.fix("p", 3, x: 4)],
                receivedAt: 100))
        let query = FixHistoryQuery(venue: "a", from: 0, to: 10, limit: 100)
        func read() async throws -> [String] {
            let page = try await store.fixHistory(query).fixes.map { String(decoding: $0.json, as: UTF8.self) }
            let instant = try await store.fixes(venue: "a", at: 10, window: 60, device: nil)
            return page + instant.map { String(decoding: $0.json, as: UTF8.self) }
        }
        let written = try await read()
        #expect(written.count == 7)
        #expect(
            written.first
                == #"{"accuracy":1.5,"confidence":0.8,"device":"p","floor":0,"method":"nonlinear","t":1,"#
                + #""x":1,"y":2,"z":0}"#)
        let cluster = try Postgres.shared()
        #expect(try cluster.psql(database.name, "SELECT COUNT(fix_json) FROM event") == "4")
        try cluster.psql(database.name, "UPDATE event SET fix_json = NULL")
        #expect(try await read() == written)
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
            "openssl is not installed: the test cluster offers no TLS (apt-get install openssl)"))
    func tlsIsUsedWhenAskedAndTheCertificateIsCheckedWithVerifyFull() async throws {
        let cluster = try Postgres.shared()
        let authority = try #require(cluster.certificateAuthority)
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        let encrypted = """
            SELECT COUNT(*) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid)
            WHERE datname = '\(database.name)' AND ssl
            """
        let required = try PostgresURL(
            "postgres://indoor@127.0.0.1:\(cluster.port)/\(database.name)?sslmode=require",
            environmentPassword: Postgres.password)
        let store = try await PostgresStore.open(required)
        try await store.ping()
        // The pool keeps its connection open a while after the ping: it is encrypted.
        #expect(try cluster.psql("postgres", encrypted) == "1")
        await store.close()
        let verified = try PostgresURL(
            "postgres://indoor@localhost:\(cluster.port)/\(database.name)?sslmode=verify-full&sslrootcert="
                + authority.path, environmentPassword: Postgres.password)
        let checked = try await PostgresStore.open(verified)
        try await checked.ping()
        await checked.close()
        // Without the test authority, the system's roots do not vouch for the server's certificate.
        let untrusted = try PostgresURL(
            "postgres://indoor@localhost:\(cluster.port)/\(database.name)?sslmode=verify-full",
            environmentPassword: Postgres.password)
        let refused = await #expect(throws: StoreError.self) { try await PostgresStore.open(untrusted) }
        #expect(refused?.message.contains("localhost:\(cluster.port)") == true, "\(String(describing: refused))")
    }

    @Test func pingSaysSoonWhenTheServerIsGoneThough() async throws {
        // A cluster of the test's own, to stop.
        let cluster = try Postgres()
        let store = try await PostgresStore.open(
            try PostgresURL(cluster.url("postgres"), environmentPassword: Postgres.password))
        try await store.ping()
        cluster.stop()
        let started = ContinuousClock.now
        let error = await #expect(throws: StoreError.self) { try await store.ping() }
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(error?.message.hasPrefix("127.0.0.1:\(cluster.port): ") == true, "\(String(describing: error))")
        await store.close()
    }

    @Test func anUnreachableServerOrAWrongPasswordIsSaidInOneLine() async throws {
        let cluster = try Postgres.shared()
        let port = try Broker.freePort()
        let url = try PostgresURL("postgres://indoor@127.0.0.1:\(port)/nothing")
        let unreachable = await #expect(throws: StoreError.self) { try await PostgresStore.open(url) }
        let message = unreachable?.message ?? ""
        #expect(message.hasPrefix("cannot connect to the PostgreSQL server at 127.0.0.1:\(port)"), "\(message)")
        #expect(!message.contains("\n"))
        let wrong = try PostgresURL(cluster.url("postgres"), environmentPassword: "wrong")
        let refused = await #expect(throws: StoreError.self) { try await PostgresStore.open(wrong) }
        #expect(refused?.message.contains("refused user 'indoor'") == true, "\(String(describing: refused))")
        #expect(refused?.message.contains("wrong") == false)
        let missing = try PostgresURL(cluster.url("no_such_database"), environmentPassword: Postgres.password)
        let absent = await #expect(throws: StoreError.self) { try await PostgresStore.open(missing) }
        #expect(absent?.message.contains("has no database 'no_such_database'") == true, "\(String(describing: absent))")
    }
}

/// `indoor serve --database postgres://…`, the built binary, over HTTP.
@Suite(
    "indoor serve on PostgreSQL", .serialized,
    .enabled(if: Postgres.isInstalled, Comment(rawValue: Postgres.notInstalled)))
struct PostgresServeTests {
    @Test func sightingsPostedAreStoredAndReadBackOverHTTP() async throws {
        guard let binary = DurabilityTests.binary else {
            Issue.record("no indoor binary: build it with swift build --package-path Server --product indoor")
            return
        }
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        let url = try Postgres.shared().url(database.name)
        let child = try DurabilityTests.Child(
            binary: binary, database: url, environment: database.environment)
        defer { child.stop() }
        #expect(child.startup.contains("(database \(url))"), "\(child.startup)")
        #expect(!child.startup.contains(Postgres.password))
        let port = child.port
        let (created, _) = try await DurabilityTests.request(
            port, "PUT", "/v1/venues/tiny", key: "a-key-6f1c2a9e4b7d0358", body: ServerFixture.venueJSON)
        #expect(created == 201)
        let (status, answer) = try await DurabilityTests.request(
            port, "POST", "/v1/sightings", key: "i-key-93be0d5c71a4f826",
            body: #"{"venue": "tiny", "sightings": \#(ServerFixture.walk)}"#)
        #expect(status == 200)
        #expect(answer["accepted"] as? Int == 6)
        let (_, fix) = try await DurabilityTests.request(
            port, "GET", "/v1/venues/tiny/devices/p", key: "r-key-2d8a64f0c5e19b37")
        #expect(fix["t"] as? Double == 22)
        let (_, activity) = try await DurabilityTests.request(
            port, "GET", "/v1/activity?venue=tiny", key: "r-key-2d8a64f0c5e19b37")
        #expect((activity["visits"] as? [Any])?.count == 3)
        let (healthStatus, health) = try await DurabilityTests.request(
            port, "GET", "/health", key: "r-key-2d8a64f0c5e19b37")
        #expect(healthStatus == 200)
        #expect(health["store"] as? String == "postgres")
        #expect(health["database"] as? String == "ok")
        #expect(((health["storage"] as? [String: Any])?["bytes"] as? Int ?? 0) > 0)
        child.stop()
        // What the server stored is in PostgreSQL, for a restarted server or anyone else.
        let store = try await database.open()
        #expect(try await store.sightingCount(venue: "tiny") == 6)
        #expect(try await store.venues().map(\.id) == ["tiny"])
    }

    @Test func anUnreachableDatabaseIsSaidInOneLineNamingHostAndPort() throws {
        guard let binary = DurabilityTests.binary else {
            Issue.record("no indoor binary: build it with swift build --package-path Server --product indoor")
            return
        }
        let port = try Broker.freePort()
        let result = try ServeStartupTests.serve(
            binary, ["--port", "0", "--database", "postgres://indoor:secret@127.0.0.1:\(port)/indoor"])
        #expect(result.status != 0)
        #expect(
            result.error.contains("cannot connect to the PostgreSQL server at 127.0.0.1:\(port)"), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(!result.error.contains("secret"))
    }
}
