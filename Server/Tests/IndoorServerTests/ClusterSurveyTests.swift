import Foundation
import Testing

/// A site survey in a cluster (docs/SURVEY.md): any instance takes the survey's calls and sends them to the venue's
/// owner, which keeps the recording with the device's sightings and relearns the venue.
@Suite(.serialized) struct ClusterSurveyTests {
    static let admin = "a-key-6f1c2a9e4b7d0358"

    /// A walk along the tiny venue's two nodes, 20 m apart: out to n2 in 20 s and back, a sighting of each node a
    /// second, louder the nearer it is.
    static func walk(venue: String) -> String {
        var items: [(t: Double, device: String, node: String, rssi: Int)] = []
        for second in 0...40 {
            let x = Double(second <= 20 ? second : 40 - second)
            for (node, at) in [("n1", 0.0), ("n2", 20.0)] {
                let rssi = -59 - 20 * log10(max(1, abs(x - at)))
                items.append((Double(second), "phone-s", node, Int(rssi.rounded())))
            }
        }
        return ClusterTests.batch(venue: venue, items)
    }

    @Test func aSurveyRecordedThroughAnyInstanceIsKeptAndLearnedByTheOwner() async throws {
        guard ClusterTests.ready, let binary = DurabilityTests.binary else { return }
        let cluster = try ClusterTests.Cluster(binary: binary)
        defer { cluster.stop() }
        for name in ["a", "b"] { try cluster.start(name) }
        let (put, _, _) = try await ClusterTests.request(
            cluster.port("a"), "PUT", "/v1/venues/s1", key: Self.admin, body: ClusterTests.venue("s1"))
        #expect(put == 201)
        var owner: String?
        #expect(
            await ClusterTests.eventually(30) {
                owner = await cluster.owners(asSeenBy: "a")["s1"]
                let seenByB = await cluster.owners(asSeenBy: "b")["s1"]
                return owner != nil && seenByB == owner
            })
        let elsewhere = owner == "a" ? "b" : "a"
        let port = cluster.port(elsewhere)
        let base = "/v1/venues/s1/survey/recordings"

        // Every call through the instance that does not own the venue: answered by the owner.
        let (started, recording, headers) = try await ClusterTests.request(
            port, "POST", base, key: Self.admin, body: #"{"device": "phone-s"}"#)
        #expect(started == 201, "\(recording)")
        #expect(headers["indoor-served-by"] == owner)
        let id = try #require(recording["id"] as? Int)
        let (posted, answer, _) = try await ClusterTests.request(
            port, "POST", "/v1/sightings", key: "i-key-93be0d5c71a4f826", body: Self.walk(venue: "s1"))
        #expect(posted == 200 && answer["rejected"] as? Int == 0, "\(answer)")
        for (x, t) in [(0, 0), (20, 20), (0, 40)] {
            let (marked, mark, _) = try await ClusterTests.request(
                port, "POST", "\(base)/\(id)/marks", key: Self.admin, body: #"{"x": \#(x), "y": 0, "t": \#(t)}"#)
            #expect(marked == 201, "\(mark)")
        }
        let (stopped, stop, _) = try await ClusterTests.request(
            port, "POST", "\(base)/\(id)/stop", key: Self.admin)
        #expect(stopped == 200, "\(stop)")

        // Both instances answer the survey the owner keeps: the recording, its marks, the device's sightings.
        for name in ["a", "b"] {
            let (status, survey, _) = try await ClusterTests.request(
                cluster.port(name), "GET", "/v1/venues/s1/survey", key: Self.admin)
            #expect(status == 200)
            let recordings = survey["recordings"] as? [[String: Any]] ?? []
            #expect(recordings.count == 1, "through \(name): \(survey)")
            #expect((recordings.first?["marks"] as? [Any])?.count == 3)
            #expect(survey["sightings"] as? Int == 82, "through \(name): \(survey)")
        }
        // The owner relearns the venue from it.
        var state: String?
        let learned = await ClusterTests.eventually(180) {
            let answer = try? await ClusterTests.request(
                cluster.port(owner ?? "a"), "GET", "/v1/venues/s1/survey", key: Self.admin)
            state = answer?.1["state"] as? String
            return state == "learned"
        }
        #expect(learned, "the owner's survey state: \(state ?? "none")")
    }
}
