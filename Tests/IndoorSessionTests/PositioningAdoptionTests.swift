import Foundation
import IndoorEvaluation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning
import IndoorSession
import IndoorTestSupport
import Testing

/// A session that takes over positioning learned apart from it (`adoptPositioning(of:replaying:)`), as the server
/// does when a venue's survey has been learned in the background.
@Suite struct PositioningAdoptionTests {
    /// A small seeded office (learning takes a while in the tests' debug build) with two zones: the rooms south of the
    /// corridor and those north of it.
    static func office() throws -> (venue: Venue, data: Dataset) {
        var options = SimulatorOptions()
        options.roomsPerSide = 4
        options.seed = 11
        options.duration = 120
        options.devices = 3
        let simulated = try Simulator(options: options).run()
        var venue = simulated.venue
        let width = Double(options.roomsPerSide) * options.roomWidth
        let north = options.roomDepth + options.corridorWidth
        func side(_ id: String, from y0: Double, to y1: Double) -> Zone {
            let polygon = Polygon([
                Point2D(x: 0, y: y0), Point2D(x: width, y: y0), Point2D(x: width, y: y1), Point2D(x: 0, y: y1),
            ])
            return Zone(id: id, name: id, fences: [.polygon(polygon, floor: nil)], checkOutTime: 3, lostTimeout: 30)
        }
        venue.zones = [side("south", from: 0, to: options.roomDepth), side("north", from: north, to: north + 8)]
        return (venue, simulated.dataset)
    }

    static func medianError(_ events: [SessionEvent], truth: [TruthPoint]) throws -> Double {
        let tracks = TruthTrack.tracks(truth)
        let errors = events.compactMap { event -> Double? in
            guard case .fix(let fix) = event else { return nil }
            return tracks[fix.device]?.position(at: fix.time).map { fix.position.horizontal.distance(to: $0.point) }
        }
        #expect(errors.count > 100)
        return try #require(ErrorSummary(errors: errors, misses: 0).medianMeters as Double?)
    }

    @Test(.releaseBuild) func zoneVisitsCarryOnAndTheFixesAfterwardsComeFromTheLearnedMap() throws {
        let (venue, data) = try Self.office()
        let survey = try #require(data.train)
        let sightings = data.test.sightings
        let change = 60.0
        var session = try LocationSession(SessionConfiguration(venue: venue))
        _ = session.ingest(sightings.filter { $0.time < change })
        let visits = session.openVisits
        let statistics = session.statistics
        #expect(!visits.isEmpty)
        var plain = session
        let learned = try LocationSession(SessionConfiguration(venue: venue, survey: survey))
        try session.adoptPositioning(
            of: learned, replaying: sightings.filter { $0.time >= change - 10 && $0.time < change })
        // The zones, the statistics and the method's name carry on; the configuration says what positions now.
        #expect(session.openVisits == visits)
        #expect(session.statistics == statistics)
        #expect(session.configuration.survey?.truth.count == survey.truth.count)
        #expect(plain.configuration.survey == nil)
        #expect(session.configuration.method == plain.configuration.method)
        let later = sightings.filter { $0.time >= change }
        let adopted = session.ingest(later)
        let without = plain.ingest(later)
        #expect(
            try Self.medianError(adopted, truth: data.test.truth) < Self.medianError(without, truth: data.test.truth))
        #expect(session.statistics.fixes > statistics.fixes)
    }

    @Test(.releaseBuild) func theRecentSightingsGiveTheNewPositioningTheReadingsItWouldHaveHad() throws {
        let (venue, data) = try Self.office()
        let survey = try #require(data.train)
        let change = 60.0
        let before = data.test.sightings.filter { $0.time < change }
        var session = try LocationSession(SessionConfiguration(venue: venue))
        _ = session.ingest(before)
        let learned = try LocationSession(SessionConfiguration(venue: venue, survey: survey))
        var fromStart = learned
        _ = fromStart.ingest(before)
        var unprimed = session
        try session.adoptPositioning(of: learned, replaying: before.filter { $0.time >= change - 10 })
        try unprimed.adoptPositioning(of: learned, replaying: [])
        for device in Set(before.map(\.device)).sorted() {
            let readings = session.readings(device: device, at: change)
            #expect(readings.count >= 3)
            #expect(readings == fromStart.readings(device: device, at: change))
            #expect(unprimed.readings(device: device, at: change).isEmpty)
        }
    }

    @Test func aSessionOfAnotherVenueIsRefusedNamingBoth() throws {
        var session = try LocationSession(SessionConfiguration(venue: hallVenue(id: "hall")))
        let other = try LocationSession(SessionConfiguration(venue: hallVenue(id: "annex")))
        #expect(
            throws: SessionError(
                "the learned session is over venue 'annex', not over this session's 'hall' as it was when this session "
                    + "started; learn again from it")
        ) {
            try session.adoptPositioning(of: other, replaying: [])
        }
        #expect(session.configuration.venue.id == "hall")
    }
}
