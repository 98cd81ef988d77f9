import IndoorModel
import Testing

@testable import IndoorServer

/// `GET /v1/venues/{id}/nodes` made of a venue's runtime and the node health book.
@Suite struct NodeListTests {
    @Test func eachNodeOfTheVenueInItsOrderWithItsHealthAndNoFitBeforeAnyLink() throws {
        let runtime = try VenueRuntime(venue: try VenueRegistryTests.venue("tiny"), learnsSurvey: false)
        let health = NodeHealthBook(silentAfter: 60)
        health.heard(venue: "tiny", node: "n2", count: 3, at: 100)
        let list = NodeList(runtime: runtime, health: health, at: 130)
        #expect(list.venue == "tiny")
        #expect(list.silentAfter == 60)
        #expect(list.nodes.map(\.id) == ["n1", "n2"])
        #expect(list.nodes.map(\.lastHeard) == [nil, 100])
        #expect(list.nodeLinks == NodeList.NodeLinks(used: 0, ignored: 0))
        #expect(list.selfCalibration == nil)
        #expect(list.nodes.allSatisfy { $0.selfCalibration == nil })
    }
}
