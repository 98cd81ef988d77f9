import Foundation

/// A named place that devices check in to and out of.
///
/// The geofencing layer gives zones their fences, beacons, geolines and rules; in a venue JSON a zone
/// is an object with at least `id` and `name`.
public struct Zone: Hashable, Sendable, Codable, Identifiable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
