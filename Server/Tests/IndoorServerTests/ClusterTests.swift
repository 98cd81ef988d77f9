import AsyncHTTPClient
import Foundation
import IndoorServer
import IndoorServerTestSupport
import NIOCore
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Three `indoor serve` instances on one PostgreSQL database, as separate processes on loopback: venues spread over
/// them, every instance serves every venue (forwarding to the owner), a killed owner's venues move without losing an
/// acknowledged sighting or doubling an open visit, a restarted instance takes its share back, and a stream resumes on
/// another instance without a gap or a repeat.
@Suite(.serialized, .enabled(if: Postgres.isInstalled, Comment(rawValue: Postgres.notInstalled)))
struct ClusterTests {
    /// The lease the tests run with, seconds (shorter than the default 8, to keep the suite short).
    static let leaseSeconds = 4

    /// A cluster of named instances over one test database.
    final class Cluster: Sendable {
        let database: TestDatabase
        let binary: URL
        let lease: Int
        let children = Mutex<[String: DurabilityTests.Child]>([:])
        let ports = Mutex<[String: Int]>([:])

        init(binary: URL, lease: Int = ClusterTests.leaseSeconds) throws {
            self.binary = binary
            self.lease = lease
            database = try TestDatabase(.postgres)
        }

        /// Starts instance `name` (again on its earlier port after a kill), with `options` and `environment` besides.
        func start(_ name: String, options: [String] = [], environment: [String: String] = [:]) throws {
            let port = try ports.withLock { ports in
                if let port = ports[name] { return port }
                let port = try Broker.freePort()
                ports[name] = port
                return port
            }
            let child = try DurabilityTests.Child(
                binary: binary, database: database.argument, port: port,
                options: ["--instance", name, "--lease-seconds", String(lease)] + options,
                environment: database.environment.merging(environment) { $1 })
            children.withLock { $0[name] = child }
        }

        func port(_ name: String) -> Int { ports.withLock { $0[name] ?? 0 } }

        func kill(_ name: String) {
            children.withLock { $0.removeValue(forKey: name) }?.kill()
        }

        func stop() {
            for child in children.withLock({ Array($0.values) }) { child.stop() }
            database.remove()
        }

        /// Each venue's owner as instance `name` lists them.
        func owners(asSeenBy name: String) async -> [String: String] {
            guard
                let (status, json, _) = try? await ClusterTests.request(
                    port(name), "GET", "/v1/venues", key: "r-key-2d8a64f0c5e19b37"),
                status == 200
            else { return [:] }
            var owners: [String: String] = [:]
            for venue in json["venues"] as? [[String: Any]] ?? [] {
                if let id = venue["id"] as? String, let owner = venue["owner"] as? String { owners[id] = owner }
            }
            return owners
        }
    }

    static func request(
        _ port: Int, _ method: String, _ path: String, key: String, body: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> (Int, [String: Any], [String: String]) {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { return (0, [:], [:]) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.timeoutInterval = 20
        if let body { request.httpBody = Data(body.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name.base as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return (
            http?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:], fields
        )
    }

    /// The test venue as `id`, its east room keeping a device checked in for a minute without sightings.
    static func venue(_ id: String) -> String {
        ServerFixture.venueJSON.replacingOccurrences(of: #""id": "tiny""#, with: #""id": "\#(id)""#)
            .replacingOccurrences(of: #""checkOutTime": 2"#, with: #""checkOutTime": 60"#)
    }

    static func batch(venue: String, _ items: [(t: Double, device: String, node: String, rssi: Int)]) -> String {
        let sightings = items.map {
            #"{"t": \#($0.t), "device": "\#($0.device)", "node": "\#($0.node)", "rssi": \#($0.rssi)}"#
        }
        return #"{"venue": "\#(venue)", "sightings": [\#(sightings.joined(separator: ","))]}"#
    }

    /// Waits until `check` holds, at most `seconds`; whether it did.
    static func eventually(_ seconds: Double, _ check: () async -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if await check() { return true }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return await check()
    }

    static var ready: Bool {
        guard DurabilityTests.binary != nil else {
            print("ClusterTests skipped: the indoor binary was not found beside the tests or in .build/debug")
            return false
        }
        return true
    }

    @Test func venuesSpreadAndEveryInstanceServesEveryVenueAndStreamsResumeAnywhere() async throws {
        guard Self.ready, let binary = DurabilityTests.binary else { return }
        let cluster = try Cluster(binary: binary)
        defer { cluster.stop() }
        let names = ["a", "b", "c"]
        for name in names { try cluster.start(name) }
        let venues = (1...6).map { "v\($0)" }
        for venue in venues {
            let (status, _, _) = try await Self.request(
                cluster.port("a"), "PUT", "/v1/venues/\(venue)", key: "a-key-6f1c2a9e4b7d0358", body: Self.venue(venue))
            #expect(status == 201)
        }
        // Spread: two venues an instance, and every instance agrees on the owners.
        var owners: [String: String] = [:]
        let spread = await Self.eventually(30) {
            owners = await cluster.owners(asSeenBy: "b")
            let counts = Dictionary(grouping: owners.values, by: { $0 }).mapValues(\.count)
            guard owners.count == venues.count, counts.count == 3, counts.values.allSatisfy({ $0 == 2 }) else {
                return false
            }
            for name in names where await cluster.owners(asSeenBy: name) != owners { return false }
            return true
        }
        #expect(spread, "venues not spread two an instance: \(owners)")

        // Every instance takes sightings of every venue: the owner's answer, through it when forwarded.
        for venue in venues {
            for (index, name) in names.enumerated() {
                let body = Self.batch(
                    venue: venue,
                    [(Double(index), "p-\(name)", "n1", -59), (Double(index) + 0.6, "p-\(name)", "n1", -60)])
                let (status, json, headers) = try await Self.request(
                    cluster.port(name), "POST", "/v1/sightings", key: "i-key-93be0d5c71a4f826", body: body)
                #expect(status == 200, "\(venue) through \(name): \(json)")
                #expect(json["accepted"] as? Int == 2)
                if owners[venue] != name { #expect(headers["indoor-served-by"] == owners[venue]) }
            }
            // A device's fix and the node list are read through a non-owner too.
            let reader = names.first { $0 != owners[venue] } ?? "a"
            let (fixStatus, fix, _) = try await Self.request(
                cluster.port(reader), "GET", "/v1/venues/\(venue)/devices/p-a", key: "r-key-2d8a64f0c5e19b37")
            #expect(fixStatus == 200)
            #expect(fix["device"] as? String == "p-a")
            let (nodesStatus, nodes, _) = try await Self.request(
                cluster.port(reader), "GET", "/v1/venues/\(venue)/nodes", key: "r-key-2d8a64f0c5e19b37")
            #expect(nodesStatus == 200)
            #expect((nodes["nodes"] as? [[String: Any]])?.first?["status"] as? String == "online")
        }
        for name in names {
            let (_, health, _) = try await Self.request(
                cluster.port(name), "GET", "/health", key: "r-key-2d8a64f0c5e19b37")
            let part = health["cluster"] as? [String: Any]
            #expect(part?["instance"] as? String == name)
            #expect(Set(part?["owned"] as? [String] ?? []) == Set(owners.filter { $0.value == name }.keys))
            #expect((part?["members"] as? [Any])?.count == 3)
        }

        // A stream on one instance, resumed on another with Last-Event-ID: no gap, no repeat.
        let venue = "v1"
        let owner = owners[venue] ?? "a"
        let others = names.filter { $0 != owner }
        let first = try await SSEReader(port: cluster.port(others[0]), venue: venue)
        var t = 10.0
        func post(_ count: Int, through name: String) async throws {
            for _ in 0..<count {
                // In the east room (beside n2): its fixes hold that room.
                let body = Self.batch(venue: venue, [(t, "walker", "n2", -59), (t + 0.6, "walker", "n2", -60)])
                t += 1.2
                let (status, _, _) = try await Self.request(
                    cluster.port(name), "POST", "/v1/sightings", key: "i-key-93be0d5c71a4f826", body: body)
                #expect(status == 200)
            }
        }
        try await post(6, through: others[1])
        let seen = try await first.events(atLeast: 4, within: 20)
        first.close()
        #expect(seen.count >= 4, "the first stream carried \(seen.count) events")
        // The stream of an instance that does not run the venue carries the walker's room, as the owner's does.
        let rooms = first.data().filter { $0.contains(#""type":"fix""#) && $0.contains(#""room":"#) }
        #expect(
            rooms.last?.contains(#""room":{"state":"room","zone":"east""#) == true,
            "fixes with a room on a non-owner's stream: \(rooms)")
        let lastSeen = seen.last ?? 0
        try await post(6, through: owner)
        let second = try await SSEReader(port: cluster.port(others[1]), venue: venue, lastEventID: lastSeen)
        let store = try await cluster.database.open()
        let expected = try await store.events(venue: venue, after: lastSeen, limit: 10_000).map(\.id)
        #expect(!expected.isEmpty)
        let resumed = try await second.events(atLeast: expected.count, within: 20)
        second.close()
        #expect(Array(resumed.prefix(expected.count)) == expected, "resumed after \(lastSeen): \(resumed)")
        #expect(Set(seen).isDisjoint(with: resumed))
        if let postgres = store as? PostgresStore { await postgres.close() }
    }

    /// A read through an instance that forwards it to the venue's owner is in the audit log once, recorded by the
    /// owner with the client's address and the forwarding instance; a client that sends the forwarding headers itself
    /// is still recorded.
    @Test func aForwardedReadIsAuditedOnce() async throws {
        guard Self.ready, let binary = DurabilityTests.binary else { return }
        let cluster = try Cluster(binary: binary)
        defer { cluster.stop() }
        for name in ["a", "b"] { try cluster.start(name) }
        let (status, _, _) = try await Self.request(
            cluster.port("a"), "PUT", "/v1/venues/v1", key: "a-key-6f1c2a9e4b7d0358", body: Self.venue("v1"))
        #expect(status == 201)
        var owner: String?
        #expect(
            await Self.eventually(30) {
                owner = await cluster.owners(asSeenBy: "a")["v1"]
                let seenByB = await cluster.owners(asSeenBy: "b")["v1"]
                return owner != nil && seenByB == owner
            })
        let forwarder = owner == "a" ? "b" : "a"
        let (read, _, headers) = try await Self.request(
            cluster.port(forwarder), "GET", "/v1/venues/v1/devices?within=60", key: "r-key-2d8a64f0c5e19b37")
        #expect(read == 200)
        #expect(headers["indoor-served-by"] == owner)
        // Sent straight to the owner with forwarding headers of its own making: recorded all the same.
        let (spoofed, _, _) = try await Self.request(
            cluster.port(owner ?? "a"), "GET", "/v1/venues/v1/devices?within=61", key: "r-key-2d8a64f0c5e19b37",
            headers: ["Indoor-Forwarded-By": forwarder, "Indoor-Forwarded-For": "192.0.2.9"])
        #expect(spoofed == 200)

        func entries(_ path: String) async -> [[String: Any]] {
            var found: [[String: Any]] = []
            for name in ["a", "b"] {
                let answer = try? await Self.request(
                    cluster.port(name), "GET", "/v1/audit?limit=1000", key: "a-key-6f1c2a9e4b7d0358")
                found = (answer?.1["entries"] as? [[String: Any]] ?? []).filter { $0["path"] as? String == path }
                if !found.isEmpty { break }
            }
            return found
        }
        #expect(await Self.eventually(10) { await !entries("/v1/venues/v1/devices").isEmpty })
        // Both instances' audit logs written out (each flushes at least every few seconds).
        try await Task.sleep(for: .seconds(3))
        let forwarded = await entries("/v1/venues/v1/devices")
        #expect(forwarded.filter { $0["route"] as? String == "/v1/venues/{venue}/devices" }.count == 2, "\(forwarded)")
        let addresses = forwarded.compactMap { $0["address"] as? String }
        #expect(addresses.contains { $0.hasPrefix("127.0.0.1 via \(forwarder) (127.0.0.1") }, "\(addresses)")
        #expect(addresses.contains { $0.hasPrefix("192.0.2.9 via \(forwarder) (127.0.0.1") }, "\(addresses)")
    }

    /// A key made on one instance works on the other; revoked on the first, the other refuses it within 5 s.
    @Test func aKeyRevokedOnOneInstanceIsRefusedByTheOtherWithinFiveSeconds() async throws {
        guard Self.ready, let binary = DurabilityTests.binary else { return }
        let cluster = try Cluster(binary: binary)
        defer { cluster.stop() }
        for name in ["a", "b"] { try cluster.start(name) }
        let (made, key, _) = try await Self.request(
            cluster.port("a"), "POST", "/v1/keys", key: "a-key-6f1c2a9e4b7d0358", body: #"{"kind": "read"}"#)
        #expect(made == 201)
        let secret = try #require(key["key"] as? String)
        let id = try #require(key["id"] as? String)
        let accepted = await Self.eventually(5) {
            (try? await Self.request(cluster.port("b"), "GET", "/v1/venues", key: secret))?.0 == 200
        }
        #expect(accepted, "a key made on instance a works on b")
        let (revoked, _, _) = try await Self.request(
            cluster.port("a"), "DELETE", "/v1/keys/\(id)", key: "a-key-6f1c2a9e4b7d0358")
        #expect(revoked == 204)
        let refused = await Self.eventually(5) {
            (try? await Self.request(cluster.port("b"), "GET", "/v1/venues", key: secret))?.0 == 401
        }
        #expect(refused, "instance b still accepts the key revoked on a after 5 s")
    }

    @Test(.needsBroker) func eachInstanceTakesTheGatewayMessagesOfTheVenuesItOwnsOnly() async throws {
        guard Self.ready, let binary = DurabilityTests.binary else { return }
        let broker = try Broker()
        let cluster = try Cluster(binary: binary)
        defer { cluster.stop() }
        for name in ["a", "b"] {
            try cluster.start(name, options: ["--mqtt", broker.url], environment: broker.environment)
        }
        // Two venues with nodes of their own: v1 hears n1 and n2, v2 m1 and m2.
        let second = Self.venue("v2").replacingOccurrences(of: #""n1""#, with: #""m1""#)
            .replacingOccurrences(of: #""n2""#, with: #""m2""#)
        for (venue, json) in [("v1", Self.venue("v1")), ("v2", second)] {
            let (status, _, _) = try await Self.request(
                cluster.port("a"), "PUT", "/v1/venues/\(venue)", key: "a-key-6f1c2a9e4b7d0358", body: json)
            #expect(status == 201)
        }
        var owners: [String: String] = [:]
        #expect(
            await Self.eventually(30) {
                owners = await cluster.owners(asSeenBy: "a")
                return owners.count == 2 && Set(owners.values).count == 2
            }, "venues not one an instance: \(owners)")
        for name in ["a", "b"] {
            #expect(
                await Self.eventually(30) {
                    let health = try? await Self.request(
                        cluster.port(name), "GET", "/health", key: "r-key-2d8a64f0c5e19b37"
                    ).1
                    return (health?["mqtt"] as? [String: Any])?["state"] as? String == "connected"
                }, "\(name) did not connect to the broker")
        }
        // Both instances get every message; each venue's are stored once, by its owner.
        for index in 0..<10 {
            for node in ["n1", "m1"] {
                try broker.publish(
                    topic: "espresense/devices/phone-\(index)/\(node)", message: #"{"id":"phone","rssi":-60}"#)
            }
        }
        let store = try await cluster.database.open()
        #expect(
            await Self.eventually(30) {
                let first = try? await store.sightingCount(venue: "v1")
                let second = try? await store.sightingCount(venue: "v2")
                return first == 10 && second == 10
            })
        try await Task.sleep(for: .seconds(1))
        #expect(try await store.sightingCount(venue: "v1") == 10)
        #expect(try await store.sightingCount(venue: "v2") == 10)
        if let postgres = store as? PostgresStore { await postgres.close() }
    }

    /// Posts batches of new devices to `venue` through the instances in `through` until `stop`, keeping device
    /// `dweller` in the east room; records each acknowledged batch.
    final class Load: Sendable {
        struct Acknowledged: Sendable {
            var sightings: Int
            var eventIDs: [Int64]
            var at: Date
        }
        let acknowledged = Mutex<[Acknowledged]>([])
        let stopped = Mutex(false)
        let start = Date()

        /// Data time now: seconds since the load started.
        var now: Double { Date().timeIntervalSince(start) }

        func run(cluster: Cluster, venue: String, through: @escaping @Sendable () -> [String]) async {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<3 {
                    group.addTask {
                        var batch = 0
                        while !self.stopped.withLock({ $0 }) {
                            batch += 1
                            let t = self.now
                            var items: [(t: Double, device: String, node: String, rssi: Int)] = []
                            for i in 0..<10 {
                                let node = i % 2 == 0 ? "n1" : "n2"
                                items.append((t + Double(i) * 0.01, "w\(worker)-\(batch)", node, -60 - i))
                            }
                            if worker == 0 { items.append((t, "dweller", "n2", -59)) }
                            let names = through()
                            let name = names[batch % max(1, names.count)]
                            guard
                                let (status, json, _) = try? await ClusterTests.request(
                                    cluster.port(name), "POST", "/v1/sightings", key: "i-key-93be0d5c71a4f826",
                                    body: ClusterTests.batch(venue: venue, items)),
                                status == 200
                            else {
                                if ProcessInfo.processInfo.environment["INDOOR_TEST_SERVER_LOGS"] != nil {
                                    print("load: \(String(format: "%.2f", self.now)) s: \(name) did not acknowledge")
                                }
                                try? await Task.sleep(for: .milliseconds(100))
                                continue
                            }
                            let fixes = (json["fixes"] as? [Any])?.count ?? 0
                            let events = (json["events"] as? [Any])?.count ?? 0
                            var ids: [Int64] = []
                            if let last = json["lastEventId"] as? Int, fixes + events > 0 {
                                ids = (Int64(last - fixes - events + 1)...Int64(last)).map { $0 }
                            }
                            let entry = Acknowledged(
                                sightings: json["accepted"] as? Int ?? 0, eventIDs: ids, at: Date())
                            self.acknowledged.withLock { $0.append(entry) }
                            try? await Task.sleep(for: .milliseconds(50))
                        }
                    }
                }
            }
        }
    }

    @Test func aKilledOwnersVenuesMoveOnWithoutLossAndComeBackWhenItRejoins() async throws {
        guard Self.ready, let binary = DurabilityTests.binary else { return }
        let cluster = try Cluster(binary: binary)
        defer { cluster.stop() }
        let names = ["a", "b", "c"]
        for name in names { try cluster.start(name) }
        for venue in ["v1", "v2", "v3"] {
            let (status, _, _) = try await Self.request(
                cluster.port("a"), "PUT", "/v1/venues/\(venue)", key: "a-key-6f1c2a9e4b7d0358", body: Self.venue(venue))
            #expect(status == 201)
        }
        var owners: [String: String] = [:]
        #expect(
            await Self.eventually(30) {
                owners = await cluster.owners(asSeenBy: "a")
                return Set(owners.values).count == 3
            }, "venues not one an instance: \(owners)")
        let venue = "v1"
        let victim = owners[venue] ?? "a"
        let survivors = names.filter { $0 != victim }
        let killed = Mutex(false)

        let load = Load()
        let loadTask = Task {
            await load.run(cluster: cluster, venue: venue) {
                killed.withLock { $0 } ? survivors : names
            }
        }
        // Load for a few seconds (the dweller is checked in), then kill the owner.
        #expect(await Self.eventually(30) { load.acknowledged.withLock { $0.count } >= 20 })
        let killedAt = Date()
        print("ClusterTests: kill -9 of \(victim) at \(String(format: "%.2f", load.now)) s")
        killed.withLock { $0 = true }
        cluster.kill(victim)
        // The venue answers again on a survivor.
        let recovered = await Self.eventually(30) {
            load.acknowledged.withLock { $0.contains { $0.at > killedAt.addingTimeInterval(0.2) } }
        }
        let failover =
            (load.acknowledged.withLock { $0.first { $0.at > killedAt.addingTimeInterval(0.2) }?.at }
            ?? Date()).timeIntervalSince(killedAt)
        print(
            "ClusterTests: venue \(venue) answered again \(String(format: "%.1f", failover)) s after kill -9 of its owner"
        )
        #expect(recovered)
        #expect(failover <= 15, "failover took \(failover) s")
        var newOwner: String?
        #expect(
            await Self.eventually(10) {
                newOwner = await cluster.owners(asSeenBy: survivors[0])[venue]
                return newOwner.map(survivors.contains) == true
            }, "the venue's owner after the kill: \(newOwner ?? "none")")

        // The killed instance rejoins and takes its share back.
        try await Task.sleep(for: .seconds(2))
        try cluster.start(victim)
        let rebalanced = await Self.eventually(40) {
            let now = await cluster.owners(asSeenBy: victim)
            return now.count == 3 && Set(now.values).count == 3
        }
        #expect(rebalanced, "\(victim) did not take a venue back")
        try await Task.sleep(for: .seconds(2))
        load.stopped.withLock { $0 = true }
        await loadTask.value

        // Nothing acknowledged is lost; the dweller's visit is one, still open.
        let acknowledged = load.acknowledged.withLock { $0 }
        let store = try await cluster.database.open()
        #expect(try await store.sightingCount(venue: venue) >= acknowledged.reduce(0) { $0 + $1.sightings })
        let stored = Set(try await store.events(venue: venue, after: 0, limit: 10_000_000).map(\.id))
        let missing = acknowledged.flatMap(\.eventIDs).filter { !stored.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) acknowledged events are not stored")
        let visits = try await store.visits(VisitQuery(venue: venue, zone: "east", device: "dweller", limit: 100))
        #expect(visits.visits.count == 1, "the dweller's visits: \(visits.visits)")
        #expect(visits.visits.first?.checkOut == nil)
        print("ClusterTests: \(acknowledged.count) batches acknowledged, all stored")
        if let postgres = store as? PostgresStore { await postgres.close() }
    }

    /// `INDOOR_FAILOVER_TRIALS=N`: kills the owner of a venue N times (the default lease) and prints the seconds from
    /// each `kill -9` to the venue's first acknowledged batch on another instance (docs/DEPLOY.md's figures).
    @Test func failoverTrials() async throws {
        guard let text = ProcessInfo.processInfo.environment["INDOOR_FAILOVER_TRIALS"], let trials = Int(text) else {
            return
        }
        guard Self.ready, let binary = DurabilityTests.binary else { return }
        let cluster = try Cluster(binary: binary, lease: Int(ClusterIdentity.defaultLeaseSeconds))
        defer { cluster.stop() }
        let names = ["a", "b", "c"]
        for name in names { try cluster.start(name) }
        for venue in ["v1", "v2", "v3"] {
            _ = try await Self.request(
                cluster.port("a"), "PUT", "/v1/venues/\(venue)", key: "a-key-6f1c2a9e4b7d0358", body: Self.venue(venue))
        }
        var times: [Double] = []
        var t = 0.0
        for trial in 1...trials {
            var owners: [String: String] = [:]
            _ = await Self.eventually(60) {
                owners = await cluster.owners(asSeenBy: "a")
                return owners.count == 3 && Set(owners.values).count == 3
            }
            guard let victim = owners["v1"] else { break }
            let survivor = names.first { $0 != victim } ?? "a"
            let killedAt = Date()
            cluster.kill(victim)
            while Date().timeIntervalSince(killedAt) < 60 {
                t += 1
                let body = Self.batch(venue: "v1", [(t, "trial", "n1", -59)])
                if let (status, _, _) = try? await Self.request(
                    cluster.port(survivor), "POST", "/v1/sightings", key: "i-key-93be0d5c71a4f826", body: body),
                    status == 200
                {
                    break
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            let seconds = Date().timeIntervalSince(killedAt)
            times.append(seconds)
            print("ClusterTests failover trial \(trial): \(String(format: "%.2f", seconds)) s")
            try cluster.start(victim)
        }
        let sorted = times.sorted()
        if !sorted.isEmpty {
            print(
                "ClusterTests failover over \(sorted.count) trials (lease \(Int(ClusterIdentity.defaultLeaseSeconds)) s): "
                    + "median \(String(format: "%.2f", sorted[sorted.count / 2])) s, "
                    + "max \(String(format: "%.2f", sorted.last ?? 0)) s")
        }
        #expect(sorted.allSatisfy { $0 <= 15 })
    }
}

/// A Server-Sent Events stream of one venue from a running instance, read with AsyncHTTPClient.
final class SSEReader: Sendable {
    private final class Received: Sendable {
        let ids = Mutex<[Int64]>([])
        let data = Mutex<[String]>([])
    }
    private let received = Received()
    private let task: Task<Void, Never>

    init(port: Int, venue: String, lastEventID: Int64? = nil) async throws {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/stream?venue=\(venue)")
        request.headers.add(name: "Authorization", value: "Bearer r-key-2d8a64f0c5e19b37")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: String(lastEventID)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let received = received
        task = Task {
            var text = ""
            do {
                for try await chunk in response.body {
                    text += String(buffer: chunk)
                    while let end = text.range(of: "\n\n") {
                        let frame = text[..<end.lowerBound]
                        text = String(text[end.upperBound...])
                        for line in frame.split(separator: "\n") {
                            if line.hasPrefix("id: "), let id = Int64(line.dropFirst(4)) {
                                received.ids.withLock { $0.append(id) }
                            } else if line.hasPrefix("data: ") {
                                received.data.withLock { $0.append(String(line.dropFirst(6))) }
                            }
                        }
                    }
                }
            } catch {}
        }
    }

    /// The ids read once at least `count` arrived, or after `seconds`.
    func events(atLeast count: Int, within seconds: Double) async throws -> [Int64] {
        let deadline = Date().addingTimeInterval(seconds)
        while received.ids.withLock({ $0.count }) < count && Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        // A moment more, so a repeat would show.
        try await Task.sleep(for: .milliseconds(300))
        return received.ids.withLock { $0 }
    }

    /// The data lines read so far, in order.
    func data() -> [String] { received.data.withLock { $0 } }

    func close() { task.cancel() }
}
