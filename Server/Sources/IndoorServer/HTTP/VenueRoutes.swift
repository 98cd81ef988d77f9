import Foundation
import Hummingbird
import IndoorModel

extension LocationServer {
    struct VenueSummary: Encodable {
        var id: String
        var name: String
        var floors: [Int]
        var nodes: Int
        var zones: Int
        /// Whether the venue's site survey is learned (``VenueHub/surveyState(venue:)``).
        var survey: SurveyState
        /// In a cluster: the id of the instance its session runs on; absent while it moves (and for a server alone).
        var owner: String?
    }

    struct VenueList: Encodable {
        var venues: [VenueSummary]
    }

    func summary(_ stored: StoredVenue) throws -> VenueSummary {
        let venue = try Venue.decodeJSON(stored.json)
        return VenueSummary(
            id: venue.id, name: venue.name, floors: venue.floors.map(\.level), nodes: venue.nodes.count,
            zones: venue.zones.count, survey: hub.surveyState(venue: venue.id),
            owner: hub.cluster == nil ? nil : hub.owner(of: venue.id)?.id)
    }
}
