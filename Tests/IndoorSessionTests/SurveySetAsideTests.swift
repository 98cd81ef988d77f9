import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import IndoorSession
import Testing

/// A session given a survey of a corner of its venue (too few nodes passed near, `SurveyCoverage`) sets it aside: it
/// says so and locates exactly as a session without a survey.
@Suite struct SurveySetAsideTests {
    @Test func aSurveyOfACornerIsSetAsideAndTheFixesAreThoseWithoutASurvey() throws {
        let (venue, data) = try PositioningAdoptionTests.office()
        let survey = try #require(data.train)
        // The survey walk's first 40 rows: one end of the corridor.
        let rows = Array(survey.truth.sorted { $0.time < $1.time }.prefix(40))
        let end = try #require(rows.last?.time)
        let corner = Recording(sightings: survey.sightings.filter { $0.time <= end }, truth: rows)

        var aside = try LocationSession(SessionConfiguration(venue: venue, survey: corner))
        var plain = try LocationSession(SessionConfiguration(venue: venue))
        let coverage = try #require(aside.surveySetAside)
        #expect(coverage.coveredNodes < coverage.nodeCount)
        #expect(!coverage.isEnough)
        #expect(coverage.summary.contains("locates as without a survey"))
        #expect(aside.surveyValidation == nil)
        #expect(plain.surveySetAside == nil)

        let sightings = Array(data.test.sightings.prefix(3000))
        let fixes = { (events: [SessionEvent]) -> [Fix] in
            events.compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
        }
        let withCorner = fixes(aside.ingest(sightings))
        let without = fixes(plain.ingest(sightings))
        #expect(withCorner.count > 50)
        #expect(withCorner == without)

        // Given the whole walk, the survey covers the venue (it is learned from: not measured here, learning is slow
        // in a debug build).
        #expect(SurveyCoverage(nodes: venue.nodes, survey: survey).isEnough)
    }
}
