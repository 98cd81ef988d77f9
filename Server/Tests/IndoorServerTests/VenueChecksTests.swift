import Foundation
import IndoorModel
import Testing

@testable import IndoorServer

/// What a venue must be for the server to take it, each refusal naming the field.
@Suite struct VenueChecksTests {
    static func refusal(_ body: () throws -> Venue) -> APIError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? APIError
        }
    }

    @Test func aVenuesJSONIsTakenForItsOwnIDOnly() throws {
        let json = Data(ServerFixture.venueJSON.utf8)
        #expect(try VenueChecks.venue(json: json, id: "tiny").id == "tiny")
        let other = Self.refusal { try VenueChecks.venue(json: json, id: "other") }
        #expect(other?.field == "id")
        #expect(other?.message == "id 'tiny' differs from the path's venue id 'other'; they must be equal")
        #expect(Self.refusal { try VenueChecks.venue(json: Data("{".utf8), id: "tiny") }?.status == .badRequest)
    }

    @Test func aVenueWithoutNodesOrWithTooLongAnIDIsRefusedNamingTheField() throws {
        let long = String(repeating: "x", count: VenueChecks.maximumIDLength + 1)
        var venue = try VenueRegistryTests.venue("tiny")
        #expect(VenueChecks.idProblem(venue) == nil)
        venue.zones[1].id = long
        #expect(VenueChecks.idProblem(venue)?.field == "zones[1].id")
        venue.nodes[0].id = long
        #expect(VenueChecks.idProblem(venue)?.field == "nodes[0].id")
        venue.nodes = []
        #expect(VenueChecks.idProblem(venue)?.field == "nodes")
        venue.id = long
        #expect(VenueChecks.idProblem(venue)?.field == "id")
        #expect(VenueHub.maximumIDLength == VenueChecks.maximumIDLength)
    }

    @Test func anIMDFArchiveNeedsAVenueWithNodesToKeepAndAnArchive() throws {
        let notZip = Self.refusal {
            try VenueChecks.venue(
                imdf: Data("not a zip".utf8), id: "tiny", current: try VenueRegistryTests.venue("tiny")
            ).venue
        }
        #expect(notZip?.field == "body")
    }
}
