import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import IndoorServer
import NIOCore
import Testing

/// A venue started with its site survey (`indoor serve --survey VENUE=FOLDER`): its session and its scans track over
/// the radio map learned from the survey.
@Suite struct SurveyedVenueTests {
    /// A smaller seeded office than the default one (learning takes a while in the tests' debug build), serving the
    /// geofence `office`.
    static func office(roomsPerSide: Int = 4) throws -> (venue: Venue, data: Dataset) {
        var options = SimulatorOptions()
        options.roomsPerSide = roomsPerSide
        options.seed = 11
        options.duration = 120
        options.devices = 3
        let simulated = try Simulator(options: options).run()
        var venue = simulated.venue
        venue.geofences = ["office"]
        return (venue, simulated.dataset)
    }

    /// The median horizontal error of the fixes `events` hold against the truth at their times.
    static func medianError(_ events: [StoredEvent], truth: [TruthPoint]) throws -> Double {
        let tracks = TruthTrack.tracks(truth)
        let errors = events.compactMap { event -> Double? in
            guard case .fix(let fix) = event.event else { return nil }
            return tracks[fix.device]?.position(at: fix.time).map { fix.position.horizontal.distance(to: $0.point) }
        }
        #expect(errors.count > 200)
        return try #require(ErrorSummary(errors: errors, misses: 0).medianMeters as Double?)
    }

    @Test func aSurveyedVenueIsServedWhileItLearnsThenTracksOverItsRadioMapAndItsScansAnswerFromIt() async throws {
        let (venue, data) = try Self.office()
        let survey = try #require(data.train)
        let surveyed = try await ServerFixture(surveys: [venue.id: survey])
        defer { surveyed.remove() }
        let plain = try await ServerFixture()
        defer { plain.remove() }
        let json = try venue.encodeJSON()
        for fixture in [surveyed, plain] { _ = try await fixture.server.hub.putVenue(id: venue.id, json: json) }
        let hub = surveyed.server.hub
        // Learning takes seconds (longer in this debug build), in the background: the venue is served meanwhile.
        #expect(hub.surveyState(venue: venue.id) == .learning)
        #expect(plain.server.hub.surveyState(venue: venue.id) == SurveyState.none)
        #expect(surveyed.server.metrics.text().contains("indoor_venues_learning 1"))
        let change = 20.0
        let early = data.test.sightings.filter { $0.time < change }
        let meanwhile = try await hub.ingest(venue: venue.id, sightings: early)
        #expect(meanwhile.contains { if case .fix = $0.event { true } else { false } })
        _ = try await plain.server.hub.ingest(venue: venue.id, sightings: early)
        await hub.learned(venue: venue.id)
        #expect(hub.surveyState(venue: venue.id) == .learned)
        #expect(surveyed.server.metrics.text().contains("indoor_venues_learning 0"))
        // What the survey bought on its own walks: its cross-validated error beside the venue's without a survey.
        let validation = try #require(hub.surveyValidation(venue: venue.id))
        let withoutSurvey = try #require(validation.withoutSurveyMedianMeters)
        let validated = try #require(validation.validatedMedianMeters)
        #expect(withoutSurvey > validated, "without the survey \(withoutSurvey) m, validated \(validated) m")
        let later = data.test.sightings.filter { $0.time >= change }
        let withSurvey = try await hub.ingest(venue: venue.id, sightings: later)
        let without = try await plain.server.hub.ingest(venue: venue.id, sightings: later)
        let methods = Set(
            withSurvey.compactMap { event -> String? in
                guard case .fix(let fix) = event.event else { return nil }
                return fix.method
            })
        #expect(methods.contains("auto"))
        let median = try Self.medianError(withSurvey, truth: data.test.truth)
        #expect(median < 1.6)
        #expect(median < (try Self.medianError(without, truth: data.test.truth)))
        // A scan of the venue answers from the survey's map too (the hub's scan session, learned once).
        let walker = data.test.sightings.filter { $0.device == "walker-1" && $0.time < 6 }
        let sightings = walker.map { sighting -> String in
            guard case .node(let node) = sighting.source else { return "" }
            return #"{"t": \#(sighting.time), "device": "walker-1", "node": "\#(node)", "rssi": \#(sighting.rssi)}"#
        }
        let body = #"{"geofence": "office", "duration": 5, "sightings": [\#(sightings.joined(separator: ", "))]}"#
        try await surveyed.test { client in
            for _ in 0..<2 {
                let response = try await client.execute(
                    uri: "/v1/scans", method: .post, headers: ServerFixture.headers(ServerFixture.ingest),
                    body: ByteBuffer(string: body))
                #expect(response.status == .ok)
                let result = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(result?["method"] as? String == "auto+track")
                #expect(result?["venueId"] as? String == venue.id)
            }
            // The venue list says the survey is learned.
            let response = try await client.execute(
                uri: "/v1/venues", method: .get, headers: ServerFixture.headers(ServerFixture.read))
            let list = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            let venues = list?["venues"] as? [[String: Any]]
            #expect(venues?.first?["survey"] as? String == "learned")
        }
    }

    /// A survey of one end of the corridor passes near too few of the venue's nodes: it is set aside (the venue
    /// locates as without a survey), and the survey's state says so and how much it covers (short of the share a
    /// survey should cover, for the map to ask for more).
    @Test func aSurveyOfACornerSaysHowMuchItCovers() async throws {
        let (venue, data) = try Self.office()
        let survey = try #require(data.train)
        let rows = Array(survey.truth.sorted { $0.time < $1.time }.prefix(40))
        let end = try #require(rows.last?.time)
        let corner = Recording(sightings: survey.sightings.filter { $0.time <= end }, truth: rows)
        let fixture = try await ServerFixture(surveys: [venue.id: corner])
        defer { fixture.remove() }
        _ = try await fixture.server.hub.putVenue(id: venue.id, json: try venue.encodeJSON())
        let hub = fixture.server.hub
        await hub.learned(venue: venue.id)
        #expect(hub.surveyState(venue: venue.id) == .learned)
        let validation = try #require(hub.surveyValidation(venue: venue.id))
        #expect(validation.estimator == SurveyValidation.setAside)
        #expect(validation.validatedMedianMeters == nil)
        let coverage = try #require(validation.coverage)
        #expect(!coverage.learned)
        #expect(Double(coverage.coveredNodes) < coverage.minimumShare * Double(coverage.nodes))
        #expect(coverage.coveredNodes < coverage.nodes)
        #expect(coverage.minimumShare == 0.9)
        try await fixture.test { client in
            let response = try await client.execute(
                uri: "/v1/venues/\(venue.id)/survey", method: .get, headers: ServerFixture.headers(ServerFixture.admin))
            #expect(response.status == .ok)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            let shown = body?["validation"] as? [String: Any]
            #expect(shown?["estimator"] as? String == validation.estimator)
            let shownCoverage = shown?["coverage"] as? [String: Any]
            #expect(shownCoverage?["learned"] as? Bool == false)
            #expect(shownCoverage?["coveredNodes"] as? Int == coverage.coveredNodes)
        }
    }

    @Test func aVenuePutAgainWhileItLearnsLearnsItsNewVersionAndADeletedOneStops() async throws {
        let (venue, data) = try Self.office(roomsPerSide: 2)  // what is learned does not matter here, only when
        let survey = try #require(data.train)
        let fixture = try await ServerFixture(surveys: [venue.id: survey])
        defer { fixture.remove() }
        let hub = fixture.server.hub
        _ = try await hub.putVenue(id: venue.id, json: try venue.encodeJSON())
        var renamed = venue
        renamed.name = "Renamed office"
        _ = try await hub.putVenue(id: venue.id, json: try renamed.encodeJSON())
        #expect(hub.surveyState(venue: venue.id) == .learning)
        await hub.learned(venue: venue.id)
        #expect(hub.surveyState(venue: venue.id) == .learned)
        #expect(hub.venue(id: venue.id)?.name == "Renamed office")
        // Put again, then deleted before its learning is done: nothing is left learning, and nothing is served.
        _ = try await hub.putVenue(id: venue.id, json: try venue.encodeJSON())
        #expect(try await hub.deleteVenue(id: venue.id))
        await hub.learned(venue: venue.id)
        #expect(hub.surveyState(venue: venue.id) == SurveyState.none)
        #expect(hub.venue(id: venue.id) == nil)
    }

    @Test func aVenueItsSurveyDoesNotHearIsRefusedNamingWhy() async throws {
        let survey = Recording(
            sightings: [Sighting(time: 0, device: "s", node: "elsewhere", rssi: -60)],
            truth: [TruthPoint(time: 0, device: "s", point: Point2D(x: 0, y: 0))])
        let fixture = try await ServerFixture(surveys: ["tiny": survey])
        defer { fixture.remove() }
        do {
            _ = try await fixture.server.hub.putVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8))
            Issue.record("expected the venue to be refused")
        } catch let error as APIError {
            #expect(error.status == .badRequest)
            #expect(error.field == "nodes")
            #expect(
                error.message
                    == "the survey given for venue 'tiny' at the server's start hears none of its 2 nodes; give the "
                    + "venue the nodes the survey heard, or start the server with its own survey")
        }
        #expect(fixture.server.hub.venue(id: "tiny") == nil)
    }
}
