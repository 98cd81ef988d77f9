import IndoorGeofencing
import IndoorModel
import IndoorSession
import Testing

@Suite("LocationSessionRunner")
struct LocationSessionRunnerTests {
    @Test func streamsTheSessionsEventsAndAdvancesByTheClockWhenTheInputGoesQuiet() async throws {
        let clock = ManualClock()
        let runner = LocationSessionRunner(
            try LocationSession(SessionConfiguration(venue: tinyVenue)), clock: clock, tick: .seconds(1))
        let (input, feed) = AsyncStream.makeStream(of: Sighting.self)
        let running = Task { try await runner.run(input) }
        // Into the east room, then nothing more is heard.
        for sighting in tinyWalk.prefix(4) {
            feed.yield(sighting)
        }
        var received: [SessionEvent] = []
        var iterator = runner.events.makeAsyncIterator()
        while let event = await iterator.next() {
            received.append(event)
            if case .fix(let fix) = event, fix.time == 11 { break }
        }
        let kinds: [ZoneEvent.Kind] = received.compactMap { event in
            guard case .zone(let zone) = event else { return nil }
            return zone.kind
        }
        #expect(kinds == [.checkIn])
        // The ticker sleeps on the clock; 61 quiet seconds move data time to 11 + 61 = 72 s.
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(61))
        let next = await iterator.next()
        guard case .zone(let checkOut) = next else {
            Issue.record("expected a check-out, got \(String(describing: next))")
            return
        }
        // Lost: no fix for the zone's lost timeout (60 s) after the last fix at t = 11 s.
        #expect(checkOut.kind == .checkOut && checkOut.reason == .lost && checkOut.time == 71)
        feed.finish()
        try await running.value
        #expect(await iterator.next() == nil)
        #expect(await runner.statistics.sightings == 4)
    }
}
