import Foundation
import IndoorServerTestSupport
import Testing

/// An erasure asked of one instance of a cluster reaches the session of the venue's owner, another instance, and the
/// live streams of every instance (issue 50).
@Suite(.serialized, .enabled(if: Postgres.isInstalled, Comment(rawValue: Postgres.notInstalled)))
struct ErasureClusterTests {
    /// How many devices `venue`'s session holds, as its owner says (`devices` of `GET /v1/venues`).
    static func held(_ venue: String, port: Int) async -> Int? {
        guard
            let (_, json, _) = try? await ClusterTests.request(port, "GET", "/v1/venues", key: "r-key-2d8a64f0c5e19b37")
        else {
            return nil
        }
        let entry = (json["venues"] as? [[String: Any]] ?? []).first { $0["id"] as? String == venue }
        return entry?["devices"] as? Int
    }

    @Test func anErasureOnOneInstanceEmptiesTheOwnersSession() async throws {
        guard ClusterTests.ready, let binary = DurabilityTests.binary else { return }
        let cluster = try ClusterTests.Cluster(binary: binary)
        defer { cluster.stop() }
        for name in ["a", "b"] { try cluster.start(name) }
        let (put, _, _) = try await ClusterTests.request(
            cluster.port("a"), "PUT", "/v1/venues/v1", key: "a-key-6f1c2a9e4b7d0358", body: ClusterTests.venue("v1"))
        #expect(put == 201)
        var owner = ""
        #expect(
            await ClusterTests.eventually(30) {
                owner = await cluster.owners(asSeenBy: "a")["v1"] ?? ""
                return !owner.isEmpty
            })
        let other = owner == "a" ? "b" : "a"
        let items = (0..<4).map { (t: Double($0), device: "phone-anna-7f3e", node: "n2", rssi: -55) }
        let (posted, _, _) = try await ClusterTests.request(
            cluster.port(other), "POST", "/v1/sightings", key: "i-key-93be0d5c71a4f826",
            body: ClusterTests.batch(venue: "v1", items))
        #expect(posted == 200)
        #expect(await ClusterTests.eventually(10) { await Self.held("v1", port: cluster.port(owner)) == 1 })
        let streams = try await [
            SSEReader(port: cluster.port(owner), venue: "v1"), SSEReader(port: cluster.port(other), venue: "v1"),
        ]
        defer { for stream in streams { stream.close() } }

        let (erased, json, _) = try await ClusterTests.request(
            cluster.port(other), "DELETE", "/v1/devices/phone-anna-7f3e", key: "a-key-6f1c2a9e4b7d0358")
        #expect(erased == 200)
        #expect((json["erased"] as? [String: Int])?["sightings"] == 4)
        #expect(await ClusterTests.eventually(10) { await Self.held("v1", port: cluster.port(owner)) == 0 })
        // Each instance's stream is told once (`event: device-erased`, whose data has no `type`).
        func told(_ stream: SSEReader) -> [String] {
            stream.data().filter { $0.contains(#""device":"phone-anna-7f3e""#) && !$0.contains(#""type""#) }
        }
        #expect(await ClusterTests.eventually(10) { streams.allSatisfy { !told($0).isEmpty } })
        try await Task.sleep(for: .seconds(1))
        for stream in streams {
            #expect(told(stream).count == 1, "\(stream.data())")
            #expect(told(stream).first?.contains(#""venue":"v1""#) == true)
        }
    }
}
