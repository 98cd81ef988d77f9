import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorServer
import IndoorServerTestSupport
import Logging
import NIOCore
import Synchronization
import Testing

/// Webhooks delivered to a real HTTP receiver on loopback (a Hummingbird app listening on a free port): every event
/// at least once, in order, signed; through a target failing for a while; across a restart over the same store.
@Suite struct WebhookTests {
    /// Settings for tests: loopback targets allowed, quick polls and retries, a fixed jitter seed.
    static func settings(disableAfter: Double = 86400) -> WebhookSettings {
        WebhookSettings(
            allowPrivate: true, disableAfterSeconds: disableAfter, timeoutSeconds: 30, maxBatchEvents: 3,
            pollSeconds: 0.05, retryBaseSeconds: 0.05, retryMaxSeconds: 0.2, jitterSeed: 42, leaseSeconds: 5)
    }

    static func configuration(disableAfter: Double = 86400) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.webhooks = settings(disableAfter: disableAfter)
        return configuration
    }

    /// Every event of a walk reaches the receiver, in id order, each batch signed with the secret the server made.
    @Test(arguments: StoreKind.tested)
    func everyEventIsDeliveredInOrderAndSigned(store kind: StoreKind) async throws {
        let fixture = try await ServerFixture(store: kind, configuration: Self.configuration())
        defer { fixture.remove() }
        let receiver = Receiver()
        try await receiver.run { port in
            try await fixture.test { client in
                let made = try await client.newHook(url: "http://127.0.0.1:\(port)/hook")
                #expect(made.status == .created)
                let id = try #require(made.json["id"] as? String)
                let secret = try #require(made.json["secret"] as? String)
                #expect(secret.count == 64)
                let shown = try await client.get("/v1/webhooks/\(id)", key: ServerFixture.admin)
                #expect(shown.json["secret"] == nil)
                #expect(shown.json["enabled"] as? Bool == true)
                #expect(try await client.putVenue().status == .created)
                #expect(try await client.post(Self.walk(device: "p")).status == .ok)
                let expected = try await Self.storedIDs(fixture.server.hub.store)
                #expect(expected.count > 6)
                try await Self.delivering(fixture.server) {
                    try await receiver.waitFor(ids: expected)
                }
                let requests = receiver.requests
                for request in requests {
                    #expect(request.hook == id)
                    #expect(
                        WebhookSignature.isValid(
                            request.signature, body: request.body, timestamp: request.timestamp, secret: secret))
                    #expect(
                        !WebhookSignature.isValid(
                            request.signature, body: request.body + Data(" ".utf8), timestamp: request.timestamp,
                            secret: secret))
                }
                #expect(requests.allSatisfy { $0.events.count <= 3 })
                #expect(receiver.firstSeen == expected)
                let names = Set(requests.flatMap(\.names))
                // The zones' counts too: the walk's check-in and check-out change the east room's.
                #expect(names == ["fix", "checkIn", "checkOut", "occupancy"])
                let deliveries = try await client.get("/v1/webhooks/\(id)/deliveries", key: ServerFixture.admin)
                let list = try #require(deliveries.json["deliveries"] as? [[String: Any]])
                // Every attempt is listed; on a loaded machine one may fail (no answer in time) and be delivered again.
                #expect(list.count == requests.count)
                let answered = list.filter { $0["status"] as? Int == 204 }
                #expect(answered.count * 2 >= list.count, "\(list)")
                #expect(list.first?["lastEvent"] as? Int == expected.last.map(Int.init))
                // Counted on /metrics: each POST delivered, and their events.
                let metrics = fixture.server.metrics.text()
                #expect(
                    Self.sample(metrics, #"indoor_webhook_deliveries_total{result="delivered"}"#)
                        == Double(answered.count), "\(metrics)")
                #expect(
                    Self.sample(metrics, #"indoor_webhook_deliveries_total{result="failed"}"#) ?? 0
                        == Double(list.count - answered.count))
                #expect(
                    Self.sample(metrics, "indoor_webhook_events_delivered_total")
                        == Double(answered.compactMap { $0["events"] as? Int }.reduce(0, +)))
            }
        }
    }

    /// The value of the sample `name` (with its labels) in the Prometheus text `metrics`.
    static func sample(_ metrics: String, _ name: String) -> Double? {
        for line in metrics.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }

    /// A target answering 500 for its first requests gets every event once it recovers, in order; the failed
    /// attempts are listed with their status.
    @Test(arguments: StoreKind.tested)
    func aTargetFailingForAWhileGetsEverythingOnceItRecovers(store kind: StoreKind) async throws {
        let fixture = try await ServerFixture(store: kind, configuration: Self.configuration())
        defer { fixture.remove() }
        let receiver = Receiver(failing: 5)
        try await receiver.run { port in
            try await fixture.test { client in
                let made = try await client.newHook(
                    url: "http://127.0.0.1:\(port)/hook", events: ["checkIn", "checkOut", "fix", "occupancy"],
                    secret: Self.secret)
                let id = try #require(made.json["id"] as? String)
                #expect(made.json["secret"] == nil)
                _ = try await client.putVenue()
                _ = try await client.post(Self.walk(device: "p"))
                let expected = try await Self.storedIDs(fixture.server.hub.store)
                try await Self.delivering(fixture.server) {
                    try await receiver.waitFor(ids: expected)
                }
                #expect(receiver.firstSeen == expected)
                #expect(receiver.refused == 5)
                let deliveries = try await client.get("/v1/webhooks/\(id)/deliveries", key: ServerFixture.admin)
                let statuses = try #require(deliveries.json["deliveries"] as? [[String: Any]]).compactMap {
                    $0["status"] as? Int
                }
                #expect(statuses.filter { $0 == 500 }.count == 5)
                #expect(statuses.first == 204)
                let shown = try await client.get("/v1/webhooks/\(id)", key: ServerFixture.admin)
                #expect(shown.json["failingSince"] == nil)
                for request in receiver.requests {
                    #expect(
                        WebhookSignature.isValid(
                            request.signature, body: request.body, timestamp: request.timestamp, secret: Self.secret))
                }
            }
        }
    }

    /// A server stopped after delivering part of the events, and a new server over the same store: the new one
    /// resumes from the stored cursor; nothing is lost, nothing delivered twice.
    @Test(arguments: StoreKind.tested)
    func aRestartedServerResumesFromTheCursor(store kind: StoreKind) async throws {
        let first = try await ServerFixture(store: kind, configuration: Self.configuration())
        defer { first.remove() }
        let receiver = Receiver()
        try await receiver.run { port in
            let delivered = Mutex<[Int64]>([])
            try await first.test { client in
                _ = try await client.newHook(url: "http://127.0.0.1:\(port)/hook", secret: Self.secret)
                _ = try await client.putVenue()
                _ = try await client.post(Self.walk(device: "p"))
                let part = try await Self.storedIDs(first.server.hub.store)
                try await Self.delivering(first.server) { try await receiver.waitFor(ids: part) }
                delivered.withLock { $0 = part }
            }
            let part = delivered.withLock { $0 }
            let second = try await ServerFixture(
                store: kind, configuration: Self.configuration(), database: first.database)
            try await second.test { client in
                #expect(try await client.post(Self.walk(device: "q")).status == .ok)
                let all = try await Self.storedIDs(second.server.hub.store)
                #expect(all.count > part.count)
                try await Self.delivering(second.server) { try await receiver.waitFor(ids: all) }
                #expect(receiver.firstSeen == all)
                #expect(receiver.allIDs == all)
            }
        }
    }

    /// Two instances on one PostgreSQL database: each hook is delivered by one of them (every event exactly once, in
    /// order, while both run); when one leaves, the other takes its hooks over from their stored cursors.
    @Test func inAClusterEachHookIsDeliveredByOneInstance() async throws {
        guard Postgres.isInstalled else { return }
        let fixture = try await ServerFixture(store: .postgres, configuration: Self.configuration())
        defer { fixture.remove() }
        let receiver = Receiver()
        try await receiver.run { port in
            try await fixture.test { client in
                _ = try await client.putVenue()
                var hooks: [String] = []
                for _ in 0..<4 {
                    let made = try await client.newHook(url: "http://127.0.0.1:\(port)/hook", secret: Self.secret)
                    hooks.append(try #require(made.json["id"] as? String))
                }
                let members = Mutex(["a", "b"])
                let instances = try await ["a", "b"].asyncMap { instance in
                    WebhookDispatcher(
                        store: try await fixture.database.open(), settings: Self.settings(), instance: instance,
                        members: { members.withLock { $0 } }, logger: Logger(label: "test.\(instance)"))
                }
                let a = Task { try await instances[0].run() }
                let b = Task { try await instances[1].run() }
                defer {
                    a.cancel()
                    b.cancel()
                }
                _ = try await client.post(Self.walk(device: "p"))
                let first = try await Self.storedIDs(fixture.server.hub.store)
                try await Self.eventually { hooks.allSatisfy { Set(receiver.ids(of: $0)).isSuperset(of: first) } }
                for hook in hooks { #expect(receiver.ids(of: hook) == first, "\(hook)") }
                // Instance a leaves (its leases given up); b takes every hook over.
                members.withLock { $0 = ["b"] }
                a.cancel()
                _ = await a.result
                _ = try await client.post(Self.walk(device: "q"))
                let all = try await Self.storedIDs(fixture.server.hub.store)
                try await Self.eventually { hooks.allSatisfy { Set(receiver.ids(of: $0)).isSuperset(of: all) } }
                for hook in hooks {
                    var seen = Set<Int64>()
                    #expect(receiver.ids(of: hook).filter { seen.insert($0).inserted } == all, "\(hook)")
                }
                b.cancel()
                _ = await b.result
            }
        }
    }

    /// Two instances on one PostgreSQL database, one of them killed while it holds every hook's lease (no graceful
    /// leave: its leases stay taken until they run out, `leaseSeconds`, and the cluster's members drop it): the other
    /// takes each hook over once its lease has run out and delivers from the stored cursors, so every event reaches
    /// every hook at least once and in order.
    @Test func aKilledInstancesHooksAreTakenOverWhenTheirLeasesRunOut() async throws {
        guard Postgres.isInstalled else { return }
        let fixture = try await ServerFixture(store: .postgres, configuration: Self.configuration())
        defer { fixture.remove() }
        let receiver = Receiver()
        try await receiver.run { port in
            try await fixture.test { client in
                _ = try await client.putVenue()
                var hooks: [String] = []
                for _ in 0..<3 {
                    let made = try await client.newHook(url: "http://127.0.0.1:\(port)/hook", secret: Self.secret)
                    hooks.append(try #require(made.json["id"] as? String))
                }
                let store = try await fixture.database.open()
                let members = Mutex(["a"])
                let a = WebhookDispatcher(
                    store: store, settings: Self.settings(), instance: "a", members: { members.withLock { $0 } },
                    logger: Logger(label: "test.a"))
                let running = Task { try await a.run() }
                _ = try await client.post(Self.walk(device: "p"))
                let first = try await Self.storedIDs(fixture.server.hub.store)
                try await Self.eventually { hooks.allSatisfy { Set(receiver.ids(of: $0)).isSuperset(of: first) } }
                // Killed: it stops, and its leases are taken again as a dead instance leaves them, held for 3 s.
                running.cancel()
                _ = await running.result
                for hook in hooks { #expect(try await store.claimWebhook(id: hook, owner: "a", seconds: 3)) }
                members.withLock { $0 = ["b"] }
                let b = WebhookDispatcher(
                    store: try await fixture.database.open(), settings: Self.settings(), instance: "b",
                    members: { members.withLock { $0 } }, logger: Logger(label: "test.b"))
                let taking = Task { try await b.run() }
                defer { taking.cancel() }
                _ = try await client.post(Self.walk(device: "q"))
                let all = try await Self.storedIDs(fixture.server.hub.store)
                #expect(all.count > first.count)
                try await Self.eventually { hooks.allSatisfy { Set(receiver.ids(of: $0)).isSuperset(of: all) } }
                for hook in hooks {
                    var seen = Set<Int64>()
                    #expect(receiver.ids(of: hook).filter { seen.insert($0).inserted } == all, "\(hook)")
                }
                taking.cancel()
                _ = await taking.result
            }
        }
    }

    /// A target failing for longer than `--webhook-disable-after` is disabled, and says why.
    @Test func aHookFailingTooLongIsDisabled() async throws {
        let fixture = try await ServerFixture(configuration: Self.configuration(disableAfter: 0.3))
        defer { fixture.remove() }
        let receiver = Receiver(failing: .max)
        try await receiver.run { port in
            try await fixture.test { client in
                let made = try await client.newHook(url: "http://127.0.0.1:\(port)/hook", secret: Self.secret)
                let id = try #require(made.json["id"] as? String)
                _ = try await client.putVenue()
                _ = try await client.post(Self.walk(device: "p"))
                try await Self.delivering(fixture.server) {
                    try await Self.eventually {
                        try await client.get("/v1/webhooks/\(id)", key: ServerFixture.admin).json["enabled"] as? Bool
                            == false
                    }
                }
                let shown = try await client.get("/v1/webhooks/\(id)", key: ServerFixture.admin).json
                let reason = try #require(shown["disabledReason"] as? String)
                #expect(reason.contains("--webhook-disable-after") && reason.contains("500"), "\(reason)")
                #expect(shown["failingSince"] is Double)
            }
        }
    }

    /// Private and loopback targets, other schemes, bad URLs and unknown events are refused with clear errors;
    /// a deleted hook is gone.
    @Test func badHooksAreRefused() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            for (url, code) in [
                ("http://127.0.0.1:9/hook", "privateTarget"), ("http://localhost/hook", "privateTarget"),
                ("http://[::1]/hook", "privateTarget"), ("https://10.1.2.3/hook", "privateTarget"),
                ("http://192.168.0.10/hook", "privateTarget"), ("http://169.254.169.254/latest", "privateTarget"),
                ("http://[::ffff:127.0.0.1]/x", "privateTarget"), ("ftp://example.com/hook", "unsupportedScheme"),
                ("file:///etc/passwd", "invalidURL"), ("not a url", "invalidURL"),
                ("http://user:pw@8.8.8.8/hook", "invalidURL"),
            ] {
                let answer = try await client.newHook(url: url)
                #expect(answer.status == .badRequest, "\(url)")
                #expect(answer.json["code"] as? String == code, "\(url): \(answer.text)")
                #expect(answer.json["field"] as? String == "url")
            }
            let unknown = try await client.newHook(url: "http://8.8.8.8/hook", events: ["checkIn", "teleport"])
            #expect(unknown.json["code"] as? String == "unknownEvent")
            #expect((unknown.json["message"] as? String)?.contains("teleport") == true)
            let short = try await client.newHook(url: "http://8.8.8.8/hook", secret: "short")
            #expect(short.json["field"] as? String == "secret")
            let none = try await client.newHook(url: "http://8.8.8.8/hook", events: [])
            #expect(none.json["field"] as? String == "events")
            let read = try await client.execute(
                uri: "/v1/webhooks", method: .post, headers: ServerFixture.headers(ServerFixture.read),
                body: ByteBuffer(string: #"{"url": "http://8.8.8.8/", "events": ["fix"]}"#))
            #expect(read.status == .forbidden || read.status == .unauthorized)
            let made = try await client.newHook(url: "http://8.8.8.8/hook", venues: ["tiny"])
            #expect(made.status == .created)
            let id = try #require(made.json["id"] as? String)
            let list = try await client.get("/v1/webhooks", key: ServerFixture.admin)
            #expect((list.json["webhooks"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            #expect((list.json["webhooks"] as? [[String: Any]])?.first?["secret"] == nil)
            let deleted = try await client.execute(
                uri: "/v1/webhooks/\(id)", method: .delete, headers: ServerFixture.headers(ServerFixture.admin))
            #expect(deleted.status == .noContent)
            #expect(try await client.get("/v1/webhooks/\(id)", key: ServerFixture.admin).status == .notFound)
            #expect(
                try await client.get("/v1/webhooks/\(id)/deliveries", key: ServerFixture.admin).status == .notFound)
        }
    }

    /// The signature is HMAC-SHA-256 over `<timestamp>.<body>` in lowercase hex, as a receiver computes it (the
    /// vector from Python: `hmac.new(b"secret", b"1700000000.{}", hashlib.sha256).hexdigest()`).
    @Test func theSignatureIsHMACSHA256OverTheTimestampAndBody() {
        let signature = WebhookSignature.sign(body: Data("{}".utf8), timestamp: 1_700_000_000, secret: "secret")
        #expect(signature == "v1=" + Self.pythonVector)
        #expect(WebhookSignature.isValid(signature, body: Data("{}".utf8), timestamp: 1_700_000_000, secret: "secret"))
        #expect(!WebhookSignature.isValid(signature, body: Data("{}".utf8), timestamp: 1_700_000_001, secret: "secret"))
        #expect(!WebhookSignature.isValid(signature, body: Data("{}".utf8), timestamp: 1_700_000_000, secret: "other"))
    }

    static let pythonVector = "b8569b78799ff9e3cbff0fc2d63a33a2b57f3282abd07c37ae5e8e7d79a5f163"

    static let secret = "a-test-secret-of-enough-length"

    /// The body of `POST /v1/sightings` with ``ServerFixture/walk`` by `device` in the venue `tiny`.
    static func walk(device: String) -> String {
        #"{"venue": "tiny", "sightings": \#(ServerFixture.walk.replacingOccurrences(of: #""p""#, with: "\"\(device)\""))}"#
    }

    /// The ids of every stored event of the fixture's venue, in order.
    static func storedIDs(_ store: any LocationStore) async throws -> [Int64] {
        try await store.events(venue: "tiny", after: 0, limit: 100_000).map(\.id)
    }

    /// Runs the server's webhook dispatcher while `body` runs, then stops it.
    static func delivering(_ server: LocationServer, _ body: () async throws -> Void) async throws {
        let dispatcher = server.webhookService(logger: Logger(label: "test.webhooks"))
        let task = Task { try await dispatcher.run() }
        defer { task.cancel() }
        try await body()
        task.cancel()
        _ = await task.result
    }

    /// Waits until `condition` holds, for at most `seconds` (a loaded machine running every suite at once is slow).
    static func eventually(seconds: Int = 120, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("timed out")
    }
}

/// An HTTP receiver of webhook deliveries on loopback: records each request, and answers 500 to the first `failing`.
final class Receiver: Sendable {
    struct Delivery: Sendable {
        var hook: String
        var timestamp: Int64
        var signature: String
        var body: Data
        var ids: [Int64]
        var names: [String]
        var events: [Int64] { ids }
    }

    private let state: Mutex<(requests: [Delivery], failing: Int, refused: Int, held: Int, holding: Bool)>
    /// How many requests are answered before the rest are held, or `nil` to hold none.
    private let holdAfter: Int?

    /// - Parameters:
    ///   - failing: how many requests are answered 500 first.
    ///   - holdAfter: once this many requests were acknowledged, every further request is held unanswered (and not
    ///     recorded) until `release()` (a target that stops answering).
    init(failing: Int = 0, holdAfter: Int? = nil) {
        state = Mutex((requests: [], failing: failing, refused: 0, held: 0, holding: holdAfter != nil))
        self.holdAfter = holdAfter
    }

    /// How many requests are being held now.
    var held: Int { state.withLock { $0.held } }

    /// Lets the held requests (and every later one) through: they are recorded and answered.
    func release() { state.withLock { $0.holding = false } }

    /// Waits while requests are held; returns once released.
    private func waitWhileHeld() async throws {
        guard let holdAfter else { return }
        let held = state.withLock { state -> Bool in
            guard state.holding, state.requests.count >= holdAfter else { return false }
            state.held += 1
            return true
        }
        guard held else { return }
        while state.withLock({ $0.holding }) { try await Task.sleep(for: .milliseconds(20)) }
        state.withLock { $0.held -= 1 }
    }

    /// The requests acknowledged (2xx), in order.
    var requests: [Delivery] { state.withLock { $0.requests } }
    /// How many requests were answered 500.
    var refused: Int { state.withLock { $0.refused } }
    /// The event ids received for `hook`, in order, repeats included.
    func ids(of hook: String) -> [Int64] { requests.filter { $0.hook == hook }.flatMap(\.ids) }
    /// Every event id received, in order, repeats included.
    var allIDs: [Int64] { requests.flatMap(\.ids) }
    /// The event ids received, in the order first received.
    var firstSeen: [Int64] {
        var seen = Set<Int64>()
        return allIDs.filter { seen.insert($0).inserted }
    }

    /// Runs the receiver on a free loopback port while `body` runs with the port.
    func run(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            try await self.waitWhileHeld()
            return self.receive(request: request, body: Data(buffer: body))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(port)
        }
    }

    private func receive(request: Request, body: Data) -> Response {
        let failing = state.withLock { state -> Bool in
            guard state.failing > 0 else { return false }
            state.failing -= 1
            state.refused += 1
            return true
        }
        if failing { return Response(status: .internalServerError) }
        let fields = request.headers
        guard
            let hook = HTTPField.Name("Indoor-Webhook-Id").flatMap({ fields[$0] }),
            let timestamp = HTTPField.Name("Indoor-Webhook-Timestamp").flatMap({ fields[$0] }).flatMap({ Int64($0) }),
            let signature = HTTPField.Name("Indoor-Webhook-Signature").flatMap({ fields[$0] }),
            let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
            json["hook"] as? String == hook, let events = json["events"] as? [[String: Any]]
        else { return Response(status: .badRequest) }
        let delivery = Delivery(
            hook: hook, timestamp: timestamp, signature: signature, body: body,
            ids: events.compactMap { ($0["id"] as? Int).map(Int64.init) },
            names: events.compactMap { $0["name"] as? String })
        state.withLock { $0.requests.append(delivery) }
        return Response(status: .noContent)
    }

    /// Waits until every one of `ids` was received, for at most `seconds`.
    func waitFor(ids: [Int64], seconds: Int = 120) async throws {
        let wanted = Set(ids)
        try await WebhookTests.eventually(seconds: seconds) { wanted.isSubset(of: Set(allIDs)) }
    }
}

extension Array where Element: Sendable {
    /// The elements mapped by `transform`, one after the other.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var mapped: [T] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}

extension TestClientProtocol {
    /// `POST /v1/webhooks` with the admin key.
    func newHook(
        url: String, events: [String] = ["fix", "checkIn", "checkOut", "dwell", "occupancy"], venues: [String]? = nil,
        secret: String? = nil
    ) async throws -> TestResponse {
        var body: [String: Any] = ["url": url, "events": events]
        if let venues { body["venues"] = venues }
        if let secret { body["secret"] = secret }
        return try await execute(
            uri: "/v1/webhooks", method: .post, headers: ServerFixture.headers(ServerFixture.admin),
            body: ByteBuffer(data: try JSONSerialization.data(withJSONObject: body)))
    }
}
