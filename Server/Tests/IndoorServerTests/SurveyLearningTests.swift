import Foundation
import IndoorModel
import IndoorSession
import Testing

@testable import IndoorServer

/// Each venue's site survey learned in the background, then handed to the venue's session and its scans.
@Suite struct SurveyLearningTests {
    /// A registry, scan sessions and metrics, and the learning of `surveys` over them.
    struct Parts {
        let registry = VenueRegistry(clustered: false)
        let scans = ScanSessions()
        let metrics = ServerMetrics()
        let learning: SurveyLearning

        init(surveys: [String: Recording] = [:]) {
            learning = SurveyLearning(surveys: surveys, registry: registry, scans: scans, metrics: metrics)
        }
    }

    @Test func aVenueWithoutASurveyHasNothingToLearn() async throws {
        let parts = Parts()
        let venue = try VenueRegistryTests.venue("tiny")
        let runtime = try VenueRuntime(venue: venue, learnsSurvey: false)
        parts.registry.run(runtime)
        #expect(!parts.learning.hasSurvey(venue: "tiny"))
        #expect(parts.learning.problem(with: venue) == nil)
        parts.learning.learn(runtime)
        await parts.learning.finished(venue: "tiny")
        #expect(parts.learning.state(venue: "tiny") == SurveyState.none)
        #expect(parts.learning.state(venue: "elsewhere") == SurveyState.none)
    }

    @Test func aSurveyIsLearnedInTheBackgroundThenTheSessionAndTheScansPositionOverIt() async throws {
        let (venue, data) = try SurveyedVenueTests.office(roomsPerSide: 2)
        let parts = Parts(surveys: [venue.id: try #require(data.train)])
        let runtime = try VenueRuntime(venue: venue, learnsSurvey: parts.learning.hasSurvey(venue: venue.id))
        parts.registry.run(runtime)
        parts.learning.learn(runtime)
        parts.learning.record()
        #expect(parts.learning.state(venue: venue.id) == .learning)
        #expect(parts.metrics.text().contains("indoor_venues_learning 1"))
        await parts.learning.finished(venue: venue.id)
        #expect(parts.learning.state(venue: venue.id) == .learned)
        #expect(parts.metrics.text().contains("indoor_venues_learning 0"))
        // The sightings kept for the learned positioning to hear first are gone.
        #expect(runtime.locked { $0.recent == nil })
        #expect(try parts.scans.session(venue: venue).configuration.survey != nil)
    }

    @Test func aRuntimeReplacedBeforeItsTurnIsNotLearned() async throws {
        let (venue, data) = try SurveyedVenueTests.office(roomsPerSide: 2)
        let parts = Parts(surveys: [venue.id: try #require(data.train)])
        let old = try VenueRuntime(venue: venue, learnsSurvey: true)
        parts.registry.run(old)
        parts.registry.run(try VenueRuntime(venue: venue, learnsSurvey: true))
        parts.learning.learn(old)
        await parts.learning.finished(venue: venue.id)
        #expect(old.locked { $0.survey } == .learning)
        #expect(try parts.scans.session(venue: venue).configuration.survey == nil)
    }

    @Test func aSurveyThatHearsNoneOfTheVenuesNodesIsNamedAsTheProblem() throws {
        let venue = try VenueRegistryTests.venue("tiny")
        let survey = Recording(
            sightings: [Sighting(time: 0, device: "s", node: "elsewhere", rssi: -60)],
            truth: [TruthPoint(time: 0, device: "s", point: Point2D(x: 0, y: 0))])
        let parts = Parts(surveys: ["tiny": survey])
        #expect(
            parts.learning.problem(with: venue)
                == "the survey given for venue 'tiny' at the server's start hears none of its 2 nodes; give the "
                + "venue the nodes the survey heard, or start the server with its own survey")
        #expect(SurveyLearning.problem(venue, nil) == nil)
    }

    @Test(arguments: [SurveyState.none, .learning, .learned, .failed])
    func aStateIsEncodedAsTheWordTheAPIHasAlwaysUsed(state: SurveyState) throws {
        let json = try JSONEncoder().encode([state])
        #expect(String(decoding: json, as: UTF8.self) == "[\"\(state.rawValue)\"]")
        #expect(["none", "learning", "learned", "failed"].contains(state.rawValue))
    }
}
