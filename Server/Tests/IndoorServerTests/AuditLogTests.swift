import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorServer
import IndoorServerTestSupport
import NIOCore
import Testing

/// The audit log, against each store: each read of devices and activity and each admin action is listed by
/// `GET /v1/audit` with who, what, when and the answer's status; ingest is not; refused requests are; entries are
/// filtered by time, paged, and pruned by retention.
@Suite struct AuditLogTests {
    static func entries(_ client: any TestClientProtocol, _ query: String = "") async throws -> [[String: Any]] {
        let answer = try await client.get("/v1/audit\(query)", key: ServerFixture.admin)
        #expect(answer.status == .ok, "\(answer.text)")
        return answer.json["entries"] as? [[String: Any]] ?? []
    }

    @Test(arguments: StoreKind.tested) func theAuditLogListsEachRead(_ store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        let readKey = try #require(try await fixture.server.keys.list().first { $0.label == "read" })
        let adminKey = try #require(try await fixture.server.keys.list().first { $0.label == "admin" })
        try await fixture.test { client in
            let start = Date().timeIntervalSince1970
            #expect(try await client.putVenue().status == .created)
            #expect(try await client.post(#"{"venue": "tiny", "sightings": \#(ServerFixture.walk)}"#).status == .ok)
            #expect(try await client.get("/v1/venues/tiny/devices?within=100000").status == .ok)
            #expect(try await client.get("/v1/venues/tiny/devices/p").status == .ok)
            #expect(try await client.get("/v1/activity?venue=tiny&device=p").status == .ok)
            #expect(try await client.get("/v1/venues/tiny/devices/p", key: "wrong").status == .unauthorized)
            #expect(try await client.get("/v1/venues").status == .ok)

            let entries = try await Self.entries(client)
            // Newest first: the refused read, the activity, the device, the devices, the venue's PUT; not the
            // sightings (ingest) nor the venue list.
            let routes = entries.map { "\($0["method"] as? String ?? "") \($0["route"] as? String ?? "")" }
            #expect(
                routes == [
                    "GET /v1/venues/{venue}/devices/{device}", "GET /v1/activity",
                    "GET /v1/venues/{venue}/devices/{device}", "GET /v1/venues/{venue}/devices",
                    "PUT /v1/venues/{venue}",
                ])
            // The device is recorded as its keyed hash, in its field and in the path, never as the id asked for.
            let p = fixture.server.hub.pseudonyms.auditName("p")
            #expect(p.hasPrefix("h-") && p != fixture.server.hub.pseudonyms.pseudonym("p"))
            let refused = try #require(entries.first)
            #expect(refused["status"] as? Int == 401)
            #expect(refused["keyId"] == nil)
            #expect(refused["device"] as? String == p)
            #expect(refused["path"] as? String == "/v1/venues/tiny/devices/\(p)")
            let activity = entries[1]
            #expect(activity["keyId"] as? String == readKey.id)
            #expect(activity["keyLabel"] as? String == "read")
            #expect(activity["venue"] as? String == "tiny")
            #expect(activity["device"] as? String == p)
            #expect(activity["status"] as? Int == 200)
            #expect(activity["path"] as? String == "/v1/activity")
            let device = entries[2]
            #expect(device["venue"] as? String == "tiny")
            #expect(device["device"] as? String == p)
            let put = entries[4]
            #expect(put["keyId"] as? String == adminKey.id)
            #expect(put["status"] as? Int == 201)
            let time = try #require(put["time"] as? Double)
            #expect(time >= start - 1 && time <= Date().timeIntervalSince1970 + 1)

            // Filtered by time and paged.
            #expect(try await Self.entries(client, "?from=\(Date().timeIntervalSince1970 + 100)").isEmpty)
            #expect(try await Self.entries(client, "?to=\(start - 100)").isEmpty)
            let page = try await client.get("/v1/audit?limit=2", key: ServerFixture.admin)
            #expect((page.json["entries"] as? [[String: Any]])?.count == 2)
            let next = try #require(page.json["nextBefore"] as? Int)
            let rest = try await Self.entries(client, "?before=\(next)")
            // The first GET /v1/audit is now listed too.
            #expect(rest.count >= 3)
            #expect(try await client.get("/v1/audit?limit=0", key: ServerFixture.admin).status == .badRequest)
            #expect(try await client.get("/v1/audit?from=soon", key: ServerFixture.admin).status == .badRequest)
            #expect(try await client.get("/v1/audit").status == .forbidden)
        }
    }

    @Test func anEntrySaysTheClientsAddress() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await Application(router: fixture.server.router()).test(.live) { client in
            #expect(try await client.get("/v1/activity?venue=nowhere").status == .notFound)
            let entry = try #require(try await Self.entries(client).first)
            #expect(entry["address"] as? String == "127.0.0.1")
            #expect(entry["venue"] as? String == "nowhere")
            #expect(entry["status"] as? Int == 404)
        }
    }

    @Test(arguments: StoreKind.tested) func retentionPrunesTheAuditLog(_ store: StoreKind) async throws {
        let database = try TestDatabase(store)
        defer { database.remove() }
        let opened = try await database.open()
        let old = AuditEntry(
            time: 1000, keyId: "k", keyLabel: "label", method: "GET", route: "/v1/activity", path: "/v1/activity",
            venue: "tiny", device: nil, address: "127.0.0.1", status: 200)
        var recent = old
        recent.time = 5000
        try await opened.appendAudit([old, old, recent])
        #expect(try await opened.pruneAudit(recordedBefore: 2000, limit: 1) == 1)
        #expect(try await opened.pruneAudit(recordedBefore: 2000, limit: 10) == 1)
        #expect(try await opened.pruneAudit(recordedBefore: 2000, limit: 10) == 0)
        let left = try await opened.audit(AuditQuery())
        #expect(left.count == 1)
        #expect(left.first?.time == 5000)
        #expect(left.first?.address == "127.0.0.1")
        #expect(left.first?.device == nil)
    }
}
