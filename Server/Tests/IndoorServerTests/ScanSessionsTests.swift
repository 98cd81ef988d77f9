import IndoorModel
import IndoorSession
import Testing

@testable import IndoorServer

/// Each venue's scan session, made once and copied for every scan, until a learned one replaces it.
@Suite struct ScanSessionsTests {
    @Test func aSessionIsMadeForTheVenueAsItIsAndAgainWhenItChanges() throws {
        let scans = ScanSessions()
        let venue = try VenueRegistryTests.venue("tiny")
        // (A scan's session is of the venue without its zones: a scan answers with a position.)
        #expect(try scans.session(venue: venue).configuration.venue.name == "Tiny")
        #expect(try scans.session(venue: venue).configuration.venue.zones.isEmpty)
        let renamed = try VenueRegistryTests.venue("tiny", name: "Renamed")
        #expect(try scans.session(venue: renamed).configuration.venue.name == "Renamed")
    }

    @Test func aLearnedSessionIsUsedForItsVenueUntilForgotten() throws {
        let scans = ScanSessions()
        let venue = try VenueRegistryTests.venue("tiny")
        _ = try scans.session(venue: venue)
        // Any session stands for the learned one here: the one handed over is the one answered.
        var configuration = SessionConfiguration(venue: venue)
        configuration.fixInterval = 7
        let learned = try LocationSession(configuration)
        scans.adopt(learned: learned, venue: venue)
        #expect(try scans.session(venue: venue).configuration.fixInterval == 7)
        // Not for another version of the venue.
        let renamed = try VenueRegistryTests.venue("tiny", name: "Renamed")
        #expect(try scans.session(venue: renamed).configuration.fixInterval != 7)
        scans.adopt(learned: learned, venue: venue)
        scans.forget(venue: "tiny")
        #expect(try scans.session(venue: venue).configuration.fixInterval != 7)
    }
}
