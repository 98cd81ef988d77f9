import IndoorEvaluation
import IndoorGeofencing
import IndoorModel
import IndoorSession
import IndoorTestSupport
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

    /// A runner serves at once and learns the venue's survey while sightings flow (`learn(survey:)`), then tracks over
    /// its radio map: its fixes after the switch beat those of a session without the survey, and the zone visits open
    /// at the switch stay open.
    @Test(.releaseBuild) func learningASurveyWhileRunningSwitchesToItsRadioMapAndZoneVisitsCarryOn() async throws {
        let (venue, data) = try PositioningAdoptionTests.office()
        let survey = try #require(data.train)
        let change = 60.0
        let early = data.test.sightings.filter { $0.time < change }
        let later = data.test.sightings.filter { $0.time >= change }
        let runner = LocationSessionRunner(
            try LocationSession(SessionConfiguration(venue: venue)), clock: ManualClock())
        let (input, feed) = AsyncStream.makeStream(of: Sighting.self)
        let running = Task { try await runner.run(input) }
        for sighting in early { feed.yield(sighting) }
        while await runner.statistics.sightings < early.count { await Task.yield() }
        let visits = await runner.openVisits
        #expect(!visits.isEmpty)
        #expect(await runner.configuration.survey == nil)
        try await runner.learn(survey: survey)
        #expect(await runner.configuration.survey?.truth.count == survey.truth.count)
        #expect(await runner.openVisits == visits)
        for sighting in later { feed.yield(sighting) }
        feed.finish()
        try await running.value
        var fixes: [SessionEvent] = []
        for await event in runner.events {
            if case .fix(let fix) = event, fix.time >= change { fixes.append(event) }
        }
        var plain = try LocationSession(SessionConfiguration(venue: venue))
        let without = plain.ingest(data.test.sightings).filter { $0.time >= change }
        let truth = data.test.truth
        #expect(
            try PositioningAdoptionTests.medianError(fixes, truth: truth)
                < PositioningAdoptionTests.medianError(without, truth: truth))
    }
}
