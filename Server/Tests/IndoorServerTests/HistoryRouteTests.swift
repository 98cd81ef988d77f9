import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorServer
import IndoorServerTestSupport
import NIOCore
import Synchronization
import Testing

/// `GET /v1/venues/{venue}/history`, against each store: the stored fixes in time order, a page at a time, filtered
/// by device and floor; `?at=` for the devices' positions at one instant; clear errors for bad parameters; audited.
@Suite struct HistoryRouteTests {
    /// Two devices walking the README's walk, `q` a second behind `p` and at the same times twice (so that fixes
    /// share a time and the device orders them).
    static let walks = """
        {"venue": "tiny", "sightings": [
         {"t": 0, "device": "p", "node": "n1", "rssi": -59}, {"t": 0, "device": "q", "node": "n1", "rssi": -59},
         {"t": 1, "device": "p", "node": "n1", "rssi": -60}, {"t": 1, "device": "q", "node": "n1", "rssi": -60},
         {"t": 10, "device": "p", "node": "n2", "rssi": -59}, {"t": 11, "device": "q", "node": "n2", "rssi": -59},
         {"t": 11, "device": "p", "node": "n2", "rssi": -58}, {"t": 12, "device": "q", "node": "n2", "rssi": -58},
         {"t": 20, "device": "p", "node": "n1", "rssi": -59}, {"t": 21, "device": "q", "node": "n1", "rssi": -59},
         {"t": 22, "device": "p", "node": "n1", "rssi": -59}, {"t": 23, "device": "q", "node": "n1", "rssi": -59}]}
        """

    /// The NDJSON lines of an answer, each parsed.
    static func lines(_ answer: TestResponse) -> [[String: Any]] {
        answer.text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// Every page from `uri` on, following each page's `next` line; the fixes and the number of pages.
    static func allPages(_ client: any TestClientProtocol, _ uri: String) async throws -> (
        fixes: [[String: Any]], pages: Int
    ) {
        var fixes: [[String: Any]] = []
        var next: String? = uri
        var pages = 0
        while let current = next, pages < 100 {
            let answer = try await client.get(current)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.headers[.contentType] == "application/x-ndjson")
            pages += 1
            next = nil
            for line in Self.lines(answer) {
                if line["kind"] as? String == "next" {
                    next = line["href"] as? String
                    let link = try #require(HTTPField.Name("Link"))
                    #expect(answer.headers[link]?.contains("rel=\"next\"") == true)
                } else {
                    fixes.append(line)
                }
            }
        }
        return (fixes, pages)
    }

    @Test(arguments: StoreKind.tested) func theHistoryPagesThroughTheStoredFixesInTimeOrder(_ store: StoreKind)
        async throws
    {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            #expect(try await client.post(Self.walks).status == .ok)
            let whole = try await Self.allPages(client, "/v1/venues/tiny/history?from=0&to=100&limit=10000")
            #expect(whole.pages == 1)
            let fixes = whole.fixes
            #expect(fixes.count >= 8, "\(fixes)")
            #expect(Set(fixes.compactMap { $0["device"] as? String }) == ["p", "q"])
            // In time order, then device.
            let keys = fixes.map { (($0["t"] as? Double) ?? -1, ($0["device"] as? String) ?? "") }
            for (earlier, later) in zip(keys, keys.dropFirst()) {
                #expect(earlier.0 < later.0 || (earlier.0 == later.0 && earlier.1 <= later.1), "\(keys)")
            }
            // Pages of 3 give the same fixes, in the same order.
            let paged = try await Self.allPages(client, "/v1/venues/tiny/history?from=0&to=100&limit=3")
            #expect(paged.pages == (fixes.count + 2) / 3)
            #expect(paged.fixes.map { $0["t"] as? Double } == fixes.map { $0["t"] as? Double })
            #expect(paged.fixes.map { $0["device"] as? String } == fixes.map { $0["device"] as? String })
            // The period is from ..< to.
            let window = try await Self.allPages(client, "/v1/venues/tiny/history?from=10&to=20")
            #expect(
                window.fixes.map { $0["t"] as? Double }
                    == fixes.compactMap { $0["t"] as? Double }.filter { $0 >= 10 && $0 < 20 })
            // One device, paged.
            let q = try await Self.allPages(client, "/v1/venues/tiny/history?from=0&to=100&device=q&limit=2")
            #expect(q.fixes.count == fixes.filter { $0["device"] as? String == "q" }.count)
            #expect(q.fixes.allSatisfy { $0["device"] as? String == "q" })
            // Floors: a venue of one floor gives its fixes none, and a fix with no floor is on every floor.
            #expect(fixes.allSatisfy { $0["floor"] == nil })
            for level in [0, 1] {
                let floor = try await Self.allPages(client, "/v1/venues/tiny/history?from=0&to=100&floor=\(level)")
                #expect(floor.fixes.count == fixes.count, "floor \(level)")
            }

            // At one instant: each device's latest fix at or before it.
            let at = try await client.get("/v1/venues/tiny/history?at=11.5&window=60")
            #expect(at.status == .ok, "\(at.text)")
            #expect(at.json["venue"] as? String == "tiny")
            #expect(at.json["at"] as? Double == 11.5)
            let positions = at.json["fixes"] as? [[String: Any]] ?? []
            #expect(positions.compactMap { $0["device"] as? String } == ["p", "q"])
            for position in positions {
                let device = position["device"] as? String
                let latest = fixes.filter { $0["device"] as? String == device }
                    .compactMap { $0["t"] as? Double }.filter { $0 <= 11.5 }.max()
                #expect(position["t"] as? Double == latest)
            }
            // A short window leaves out a device not heard in it; one device alone.
            let short = try await client.get("/v1/venues/tiny/history?at=30&window=0.5")
            #expect((short.json["fixes"] as? [[String: Any]])?.isEmpty == true)
            let one = try await client.get("/v1/venues/tiny/history?at=100&window=3600&device=q")
            #expect((one.json["fixes"] as? [[String: Any]])?.compactMap { $0["device"] as? String } == ["q"])
            let upstairs = try await client.get("/v1/venues/tiny/history?at=100&window=3600&floor=1")
            #expect((upstairs.json["fixes"] as? [[String: Any]])?.compactMap { $0["device"] as? String } == ["p", "q"])
        }
    }

    /// A venue without floors makes fixes with no floor: they are on every floor, for `floor=` as on the map.
    @Test(arguments: StoreKind.tested) func aFixWithNoFloorIsOnEveryFloor(_ store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            let floorless = ServerFixture.venueJSON.replacingOccurrences(
                of: #""floors": [{"level": 0, "outline": [[-5, -10], [25, -10], [25, 10], [-5, 10]]}],"#, with: "")
            #expect(floorless != ServerFixture.venueJSON)
            #expect(try await client.putVenue(floorless).status == .created)
            #expect(try await client.post(#"{"venue": "tiny", "sightings": \#(ServerFixture.walk)}"#).status == .ok)
            let all = try await Self.allPages(client, "/v1/venues/tiny/history?from=0&to=100")
            #expect(!all.fixes.isEmpty && all.fixes.allSatisfy { $0["floor"] == nil })
            for level in [0, 3] {
                let floor = try await Self.allPages(client, "/v1/venues/tiny/history?from=0&to=100&floor=\(level)")
                #expect(floor.fixes.count == all.fixes.count, "floor \(level)")
                let at = try await client.get("/v1/venues/tiny/history?at=100&window=3600&floor=\(level)")
                #expect((at.json["fixes"] as? [[String: Any]])?.count == 1, "\(at.text)")
            }
        }
    }

    /// The history's pages and the instant, as bytes, from a server over a new store of `kind`.
    static func answers(_ kind: StoreKind) async throws -> [String] {
        let fixture = try await ServerFixture(store: kind)
        defer { fixture.remove() }
        let answers = Mutex<[String]>([])
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            #expect(try await client.post(Self.walks).status == .ok)
            for uri in [
                "/v1/venues/tiny/history?from=0&to=100&limit=5", "/v1/venues/tiny/history?from=0&to=100&device=q",
                "/v1/venues/tiny/history?at=11.5&window=60",
            ] {
                let text = try await client.get(uri).text
                answers.withLock { $0.append(text) }
            }
        }
        return answers.withLock { $0 }
    }

    @Test func bothStoresAnswerTheSameBytes() async throws {
        guard StoreKind.tested.contains(.postgres) else { return }
        let sqlite = try await Self.answers(.sqlite)
        #expect(sqlite.count == 3 && sqlite.allSatisfy { !$0.isEmpty })
        #expect(try await Self.answers(.postgres) == sqlite)
    }

    @Test(arguments: [
        ("to=10", "from"), ("from=0", "to"), ("from=10&to=10", "to"), ("from=0&to=x", "to"),
        ("from=0&to=10&limit=0", "limit"), ("from=0&to=10&limit=10001", "limit"), ("from=0&to=10&limit=2.5", "limit"),
        ("from=0&to=10&cursor=nope", "cursor"), ("from=0&to=10&floor=ground", "floor"),
        ("from=0&to=10&device=", "device"), ("at=5&from=0", "from"), ("at=5&window=0", "window"),
        ("at=5&window=3601", "window"), ("at=soon", "at"),
    ])
    func aBadParameterIsA400NamingIt(query: String, field: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            let answer = try await client.get("/v1/venues/tiny/history?\(query)")
            #expect(answer.status == .badRequest, "\(query): \(answer.text)")
            #expect(answer.json["field"] as? String == field, "\(query): \(answer.text)")
            #expect((answer.json["message"] as? String)?.isEmpty == false)
        }
    }

    @Test func anUnknownVenueIsA404AndTheHistoryNeedsAReadKeyAndIsAudited() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            #expect(try await client.get("/v1/venues/nowhere/history?from=0&to=1").status == .notFound)
            #expect(try await client.get("/v1/venues/tiny/history?from=0&to=1", key: nil).status == .unauthorized)
            let ingest = try await client.get("/v1/venues/tiny/history?from=0&to=1", key: ServerFixture.ingest)
            #expect(ingest.status == .forbidden)
            #expect(try await client.get("/v1/venues/tiny/history?from=0&to=1&device=p").status == .ok)
            let audit = try await client.get("/v1/audit", key: ServerFixture.admin)
            let entries = audit.json["entries"] as? [[String: Any]] ?? []
            let read = try #require(entries.first { $0["status"] as? Int == 200 })
            #expect(read["route"] as? String == "/v1/venues/{venue}/history")
            #expect(read["venue"] as? String == "tiny")
            #expect(read["device"] as? String == fixture.server.hub.pseudonyms.auditName("p"))
        }
    }
}
