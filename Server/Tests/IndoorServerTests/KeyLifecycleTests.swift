import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorServer
import IndoorServerTestSupport
import NIOCore
import Testing

/// Keys with a lifecycle, against each store: listed without the key, revoked, expiring, limited to venues, the
/// operator's retired once not given, `?key=` refused but on the stream, and a revocation seen by a second server on the
/// same PostgreSQL database within 5 s.
@Suite struct KeyLifecycleTests {
    /// `POST /v1/keys` with `body`, as the admin: the answer's JSON.
    static func make(_ client: any TestClientProtocol, _ body: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/keys", method: .post, headers: ServerFixture.headers(ServerFixture.admin),
            body: ByteBuffer(string: body))
    }

    @Test(arguments: StoreKind.tested) func keysAreListedWithoutTheKeyAndRevoked(_ store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            let made = try await Self.make(client, #"{"kind": "read", "label": "wall screen"}"#)
            #expect(made.status == .created)
            let key = try #require(made.json["key"] as? String)
            let id = try #require(made.json["id"] as? String)
            #expect(try await client.get("/v1/venues", key: key).status == .ok)

            let listed = try await client.get("/v1/keys", key: ServerFixture.admin)
            #expect(listed.status == .ok)
            let keys = listed.json["keys"] as? [[String: Any]] ?? []
            #expect(keys.count == 4)
            let entry = try #require(keys.first { $0["id"] as? String == id })
            #expect(entry["label"] as? String == "wall screen")
            #expect(entry["kind"] as? String == "read")
            #expect(entry["origin"] as? String == "api")
            #expect(entry["expired"] as? Bool == false)
            #expect(entry["created"] is Double)
            // Never the key or its hash.
            #expect(!listed.text.contains(key))
            #expect(!listed.text.contains(KeyRing.hash(key)))
            #expect(!listed.text.contains(KeyRing.hash(ServerFixture.admin)))
            #expect(entry["key"] == nil && entry["hash"] == nil)

            let revoked = try await client.execute(
                uri: "/v1/keys/\(id)", method: .delete, headers: ServerFixture.headers(ServerFixture.admin))
            #expect(revoked.status == .noContent)
            let refused = try await client.get("/v1/venues", key: key)
            #expect(refused.status == .unauthorized)
            let again = try await client.execute(
                uri: "/v1/keys/\(id)", method: .delete, headers: ServerFixture.headers(ServerFixture.admin))
            #expect(again.status == .notFound)
            #expect(again.json["field"] as? String == "id")
            // A read key may not list or revoke keys.
            #expect(try await client.get("/v1/keys").status == .forbidden)
        }
    }

    @Test(arguments: StoreKind.tested) func anExpiredKeyIsRefused(_ store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        // Expired a second ago (as `expiresIn` makes it, but without waiting for the clock).
        let expiredKey = "expired-read-key-0123456789abcdef"
        let expired = try await fixture.server.keys.add(
            expiredKey, kind: .read, label: "expired", expires: Date().timeIntervalSince1970 - 1)
        try await fixture.test { client in
            let made = try await Self.make(client, #"{"kind": "read", "expiresIn": 3600}"#)
            #expect(made.status == .created)
            let key = try #require(made.json["key"] as? String)
            let expires = try #require(made.json["expires"] as? Double)
            #expect(abs(expires - (Date().timeIntervalSince1970 + 3600)) < 60)
            #expect(try await client.get("/v1/venues", key: key).status == .ok)
            #expect(try await client.get("/v1/venues", key: expiredKey).status == .unauthorized)
            let listed = try await client.get("/v1/keys", key: ServerFixture.admin)
            let entries = listed.json["keys"] as? [[String: Any]] ?? []
            #expect(entries.first { $0["id"] as? String == expired.id }?["expired"] as? Bool == true)
            #expect(entries.first { $0["id"] as? String == made.json["id"] as? String }?["expired"] as? Bool == false)
            for body in [#"{"kind": "read", "expiresIn": 0}"#, #"{"kind": "read", "expiresIn": -5}"#] {
                let bad = try await Self.make(client, body)
                #expect(bad.status == .badRequest)
                #expect(bad.json["field"] as? String == "expiresIn")
            }
        }
    }

    @Test(arguments: StoreKind.tested) func aKeyLimitedToVenuesReadsThoseOnly(_ store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            let other = ServerFixture.venueJSON.replacingOccurrences(of: #""id": "tiny""#, with: #""id": "other""#)
            #expect(try await client.putVenue(other, id: "other").status == .created)
            let made = try await Self.make(client, #"{"kind": "read", "venues": ["tiny"]}"#)
            let key = try #require(made.json["key"] as? String)
            #expect(made.json["venues"] as? [String] == ["tiny"])
            #expect(try await client.get("/v1/venues/tiny/devices", key: key).status == .ok)
            #expect(try await client.get("/v1/venues/other/devices", key: key).status == .forbidden)
            #expect(try await client.get("/v1/activity?venue=tiny", key: key).status == .ok)
            #expect(try await client.get("/v1/activity?venue=other", key: key).status == .forbidden)
            let list = try await client.get("/v1/venues", key: key)
            #expect((list.json["venues"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } == ["tiny"])

            let ingest = try await Self.make(client, #"{"kind": "ingest", "venues": ["tiny"]}"#)
            let ingestKey = try #require(ingest.json["key"] as? String)
            let walk = ServerFixture.walk
            #expect(try await client.post(#"{"venue": "tiny", "sightings": \#(walk)}"#, key: ingestKey).status == .ok)
            #expect(
                try await client.post(#"{"venue": "other", "sightings": \#(walk)}"#, key: ingestKey).status
                    == .forbidden)
            let empty = try await Self.make(client, #"{"kind": "read", "venues": []}"#)
            #expect(empty.status == .badRequest)
        }
    }

    @Test(arguments: StoreKind.tested) func operatorKeysNotGivenAgainAreRetired(_ store: StoreKind) async throws {
        let database = try TestDatabase(store)
        defer { database.remove() }
        let first = "operator-read-key-0123456789abcdef"
        let second = "operator-read-key-fedcba9876543210"
        let made = "api-made-key-00112233445566778899"
        do {
            let server = try await LocationServer(store: try await database.open())
            try await server.keys.setOperatorKeys([(first, .read, "read (command line)")])
            try await server.keys.add(made, kind: .read, label: "made")
            #expect(await server.keys.kind(of: first) == .read)
        }
        // The next start gives another key: the first is retired, the one made through the API stays.
        let server = try await LocationServer(store: try await database.open())
        let retired = try await server.keys.setOperatorKeys([(second, .read, "read (command line)")])
        #expect(retired.count == 1)
        #expect(await server.keys.kind(of: first) == nil)
        #expect(await server.keys.kind(of: second) == .read)
        #expect(await server.keys.kind(of: made) == .read)
        let origins = try await server.keys.list().map(\.origin)
        #expect(origins == [.api, .operator])
    }

    /// `indoor serve` started with `--read-key K`, then again without it: the second refuses `K`.
    @Test func anOperatorKeyIsRefusedOnceAStartNoLongerGivesIt() async throws {
        guard let binary = DurabilityTests.binary else {
            Issue.record("no indoor binary: build it with swift build --package-path Server --product indoor")
            return
        }
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("indoor.sqlite").path
        let key = "dropped-read-key-5b0e9c27d4a1f836"
        let first = try DurabilityTests.Child(binary: binary, database: database, options: ["--read-key", key])
        let (given, _) = try await DurabilityTests.request(first.port, "GET", "/v1/venues", key: key)
        first.stop()
        #expect(given == 200)
        let second = try DurabilityTests.Child(binary: binary, database: database)
        defer { second.stop() }
        let (dropped, _) = try await DurabilityTests.request(second.port, "GET", "/v1/venues", key: key)
        #expect(dropped == 401)
        let attributes = try FileManager.default.attributesOfItem(atPath: database)
        let mode = (attributes[.posixPermissions] as? Int) ?? (attributes[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600, "the database made by indoor serve is its user's only")
    }

    @Test func aKeyInTheAddressIsTakenOnlyByTheStream() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            // An admin route: refused even with the admin key, saying to use a header.
            let post = try await client.execute(
                uri: "/v1/keys?key=\(ServerFixture.admin)", method: .post, headers: [:],
                body: ByteBuffer(string: #"{"kind": "admin"}"#))
            #expect(post.status == .unauthorized)
            #expect(post.json["code"] as? String == "keyInQuery")
            #expect((post.json["message"] as? String ?? "").contains("Authorization: Bearer KEY"))
            let devices = try await client.get("/v1/venues/tiny/devices?key=\(ServerFixture.read)", key: nil)
            #expect(devices.status == .unauthorized)
            // The stream takes it: an unknown venue is then 404, not 401; a wrong key is still 401.
            let stream = try await client.get("/v1/stream?venue=nowhere&key=\(ServerFixture.read)", key: nil)
            #expect(stream.status == .notFound)
            #expect(try await client.get("/v1/stream?venue=nowhere&key=wrong", key: nil).status == .unauthorized)
        }
    }

    @Test(arguments: StoreKind.tested) func lastUseIsRecorded(_ store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            let before = try await fixture.server.keys.list().first { $0.label == "read" }
            #expect(before?.lastUsed == nil)
            #expect(try await client.get("/v1/venues").status == .ok)
            let after = try await fixture.server.keys.list().first { $0.label == "read" }
            let used = try #require(after?.lastUsed)
            #expect(abs(used - Date().timeIntervalSince1970) < 60)
        }
    }

    /// Two servers on one PostgreSQL database (as a cluster's instances): a key revoked on one is refused by the other
    /// within 5 s, though the other had accepted it a moment before.
    @Test(.enabled(if: Postgres.isInstalled, Comment(rawValue: Postgres.notInstalled)))
    func aRevokedKeyIsRefusedByAnotherServerOnTheDatabaseWithinFiveSeconds() async throws {
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        let first = try await LocationServer(store: try await database.open())
        let second = try await LocationServer(store: try await database.open())
        try await first.keys.add(ServerFixture.admin, kind: .admin, label: "admin")
        let key = "shared-read-key-0123456789abcdef"
        let stored = try await first.keys.add(key, kind: .read, label: "shared")
        let secondApp = Application(router: second.router())
        try await secondApp.test(.router) { client in
            let accepted = await ClusterTests.eventually(5) {
                (try? await client.get("/v1/venues", key: key).status) == .ok
            }
            #expect(accepted, "a key added on the first server is accepted by the second")
            let revoked = try await first.keys.revoke(id: stored.id)
            #expect(revoked)
            let refused = await ClusterTests.eventually(5) {
                (try? await client.get("/v1/venues", key: key).status) == .unauthorized
            }
            #expect(refused, "the second server still accepts the key revoked on the first after 5 s")
        }
    }
}
