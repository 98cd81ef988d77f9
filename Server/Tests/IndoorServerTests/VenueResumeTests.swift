import Foundation
import IndoorModel
import Testing

@testable import IndoorServer

/// A venue's session rebuilt from the store when it starts running: its present, its devices, and only the events
/// nothing stored before.
@Suite struct VenueResumeTests {
    static func runtime() throws -> VenueRuntime {
        try VenueRuntime(venue: try VenueRegistryTests.venue("tiny"), learnsSurvey: false)
    }

    @Test func aVenueWithoutStoredSightingsStartsAfresh() async throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        let resume = VenueResume(store: try await database.open(), metrics: ServerMetrics(), wallClock: { 1000 })
        let runtime = try Self.runtime()
        try await resume.resume(runtime)
        #expect(runtime.locked { $0.lastDataTime == nil && $0.lastArrival == nil && $0.timeBase == nil })
        #expect(runtime.deviceCount == 0)
    }

    @Test func theReplayTakesUpThePresentAndCommitsOnlyWhatWasNeverStored() async throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        let store = try await database.open()
        // "a" was heard beside n2 and never located (its first fix still waited at the stop).
        let sightings = [
            Sighting(time: 1, device: "a", node: "n2", rssi: -55),
            Sighting(time: 2, device: "a", node: "n2", rssi: -56),
        ]
        _ = try await store.commit(IngestBatch(venue: "tiny", sightings: sightings, events: [], receivedAt: 500))
        let metrics = ServerMetrics()
        let resume = VenueResume(store: store, metrics: metrics, wallClock: { 1000 })
        let runtime = try Self.runtime()
        try await resume.resume(runtime)
        #expect(runtime.locked { $0.lastDataTime == 2 && $0.lastArrival == 500 && $0.timeBase != nil })
        #expect(runtime.deviceCount == 1)
        let stored = try await store.events(venue: "tiny", after: 0, limit: 100)
        #expect(stored.contains { if case .fix = $0.event { $0.event.device == "a" } else { false } })
        let fixes = stored.filter { if case .fix = $0.event { true } else { false } }.count
        let counted = GroupCommitTests.counter(#"indoor_events_emitted_total{type="fix"}"#, in: metrics.text())
        #expect(counted == Double(fixes))

        // Resumed again (another restart): "a" has a stored fix now, so nothing of it is committed twice.
        try await resume.resume(try Self.runtime())
        #expect(try await store.events(venue: "tiny", after: 0, limit: 100) == stored)
    }

    /// A device heard once, whose first fix the venue's tick made after its last sighting: after a restart the next
    /// tick does not make (store, publish) that fix again.
    @Test func aFixTheTickMadeBeforeTheStopIsNotMadeAgain() async throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        let store = try await database.open()
        let sightings = [
            Sighting(time: 1, device: "b", node: "n2", rssi: -55),
            Sighting(time: 1.1, device: "b", node: "n1", rssi: -75),
        ]
        // Before the stop: the batch, then the tick at data time 3 makes the first fix; all stored.
        let before = try Self.runtime()
        let events = before.locked { state in
            ServerEvent.stored(from: state.session.ingest(sightings) + state.session.advance(to: 3))
        }
        let fixes = events.filter { if case .fix = $0 { true } else { false } }
        #expect(fixes.count == 1)
        _ = try await store.commit(IngestBatch(venue: "tiny", sightings: sightings, events: events, receivedAt: 500))
        let stored = try await store.events(venue: "tiny", after: 0, limit: 100)

        let runtime = try Self.runtime()
        try await VenueResume(store: store, metrics: ServerMetrics(), wallClock: { 1000 }).resume(runtime)
        #expect(try await store.events(venue: "tiny", after: 0, limit: 100) == stored)
        // The next tick: nothing made before the stop comes again.
        let next = runtime.locked { ServerEvent.stored(from: $0.session.advance(to: 4)) }
        let again = next.filter { if case .fix(let fix) = $0 { fix.time <= 3 } else { false } }
        #expect(again.isEmpty, "\(next)")
    }
}
