import Foundation
import IndoorModel
import Synchronization
import Testing

@testable import IndoorServer

/// Batches of one venue that wait while its ingest job runs are taken together by the next job: each through the
/// session in turn, committed in one transaction, then each answered and streamed as if it had been alone.
@Suite struct GroupCommitTests {
    /// Two sightings of `device` at `t` and `t + 0.6` s, beside node n2 (the east room of the fixture's venue).
    static func pair(_ device: String, at t: Double) -> [Sighting] {
        [
            Sighting(time: t, device: device, node: "n2", rssi: -59),
            Sighting(time: t + 0.6, device: device, node: "n2", rssi: -60),
        ]
    }

    /// The value of a counter in the Prometheus text `metrics` (0 when it is not there).
    static func counter(_ name: String, in metrics: String) -> Double {
        for line in metrics.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1)) ?? 0
        }
        return 0
    }

    @Test(arguments: StoreKind.tested)
    func batchesThatWaitAreCommittedTogetherAndAnsweredEachAsAlone(store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in _ = try await client.putVenue() }
        let hub = fixture.server.hub
        let runtime = try #require(hub.registry.runtime("tiny"))
        let live = try #require(hub.subscribe(venue: "tiny"))
        func metrics() -> String {
            var bytes: [UInt8] = []
            fixture.server.metrics.registry.emit(into: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        let commitsBefore = Self.counter("indoor_ingest_commits_total", in: metrics())

        // A job that holds the venue until released: the batches given meanwhile wait behind it.
        let (release, releasing) = AsyncStream<Void>.makeStream()
        let holder = Task { try await runtime.jobs.run { for await _ in release { break } } }
        let devices = (0..<8).map { "d\($0)" }
        let answers = Task {
            try await withThrowingTaskGroup(of: (String, VenueHub.Admission).self) { group in
                for (index, device) in devices.enumerated() {
                    group.addTask {
                        // The last batch also brings a sighting of a node the venue does not have: refused alone.
                        var sightings = Self.pair(device, at: 10 + Double(index))
                        if index == 7 { sightings.append(Sighting(time: 18, device: device, node: "nx", rssi: -70)) }
                        return (device, try await hub.admit(venue: "tiny", sightings: sightings))
                    }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
        }
        // Every batch waiting before the holder lets go (at most 10 s).
        var polls = 0
        while runtime.waitingCount < devices.count && polls < 1000 {
            try await Task.sleep(for: .milliseconds(10))
            polls += 1
        }
        #expect(runtime.waitingCount == devices.count)
        releasing.yield()
        releasing.finish()
        try await holder.value
        let admissions = try await answers.value

        // One transaction for the eight batches.
        let after = metrics()
        #expect(Self.counter("indoor_ingest_commits_total", in: after) == commitsBefore + 1)
        #expect(Self.counter("indoor_sightings_ingested_total", in: after) == 16)
        // Each batch answered with its own fix, and only its own refusal.
        for device in devices {
            let admission = try #require(admissions[device])
            let fixes = admission.stored.compactMap { event -> Fix? in
                if case .fix(let fix) = event.event { fix } else { nil }
            }
            #expect(fixes.contains { $0.device == device })
            #expect(admission.eventJSON.count == admission.stored.count)
            #expect(admission.refused.map(\.field) == (device == "d7" ? ["node"] : []))
        }
        // The ids in the order the session made the events, without a gap, and as the store keeps them.
        let ids = devices.flatMap { device in admissions[device]?.stored.map(\.id) ?? [] }.sorted()
        #expect(ids.count == admissions.values.reduce(0) { $0 + $1.stored.count })
        #expect(ids == Array((ids.first ?? 0)...(ids.last ?? 0)))
        let kept = try await hub.store.events(venue: "tiny", after: 0, limit: 100)
        #expect(kept.map(\.id) == ids)
        #expect(try await hub.store.sightingCount(venue: "tiny") == 16)
        // Streamed in the same order, each device's fix with the room it was in right after its batch.
        var streamed: [LiveEvent] = []
        for await event in live {
            streamed.append(event)
            if streamed.count == ids.count { break }
        }
        #expect(streamed.map(\.stored.id) == ids)
        for event in streamed {
            guard case .fix(let fix) = event.stored.event, event.room != nil else { continue }
            #expect(event.room == hub.room(venue: "tiny", device: fix.device))
        }
        #expect(streamed.contains { $0.room?.zone == "east" })
    }

    @Test(arguments: StoreKind.tested)
    func storeCommitsBatchesInOneTransactionAsOneAfterAnother(store kind: StoreKind) async throws {
        func fix(_ device: String, _ t: Double, x: Double) -> ServerEvent {
            .fix(
                Fix(
                    time: t, device: device, position: Point3D(x: x, y: 0, z: 0), accuracy: 1, confidence: 0.8,
                    method: "auto"))
        }
        var batches: [IngestBatch] = []
        for index in 0..<3 {
            let start = Double(index) * 10
            let sightings = (0..<5).map { Sighting(time: start + Double($0), device: "p", node: "n1", rssi: -60) }
            let events = [fix("p", start + 4, x: Double(index)), fix("q", Double(index), x: 1)]
            batches.append(IngestBatch(venue: "a", sightings: sightings, events: events, receivedAt: 100))
        }
        let together = try TestDatabase(kind)
        let apart = try TestDatabase(kind)
        defer {
            together.remove()
            apart.remove()
        }
        let grouped = try await together.open().commit(batches: batches)
        var alone: [[StoredEvent]] = []
        let separate = try await apart.open()
        for batch in batches { alone.append(try await separate.commit(batch)) }
        #expect(grouped == alone)
        let reopened = try await together.open()
        #expect(try await reopened.sightingCount(venue: "a") == 15)
        #expect(try await reopened.latestFix(venue: "a", device: "p")?.time == 24)
        #expect(try await reopened.events(venue: "a", after: 0, limit: 10).map(\.id) == alone.flatMap { $0.map(\.id) })
        #expect(try await reopened.commit(batches: []).isEmpty)
    }
}
