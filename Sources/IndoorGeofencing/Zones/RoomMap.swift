import IndoorModel

/// The rooms of a venue: its zones that have polygon fences, looked up by point and floor (for ``RoomHold`` and
/// for scoring rooms in evaluation).
///
/// A zone is a room here when it has at least one polygon fence; circles, beacons and geolines are left out (they
/// say where a device checks in, not which room it is in). A point is in the room of the first zone, in venue
/// order, with a polygon fence that contains it (boundary included, as ``ZoneFence/contains(_:)``) on its floor
/// (a fence or a point without a floor matches any floor, as ``ZoneFence/isOnFloor(_:)``).
public struct RoomMap: Sendable {
    /// One polygon fence and the index of its zone in the venue's zones.
    private struct Fence: Sendable {
        var zone: Int
        var fence: ZoneFence
        /// The polygon's bounding box, metres, to skip most fences at the cost of four comparisons.
        var minimum: Point2D
        var maximum: Point2D
    }

    private let fences: [Fence]

    /// The rooms of `zones`; `nil` when no zone has a polygon fence (the venue has no rooms to score).
    public init?(zones: [Zone]) {
        var fences: [Fence] = []
        for (index, zone) in zones.enumerated() {
            for fence in zone.fences {
                guard case .polygon(let polygon) = fence.shape, let first = polygon.vertices.first else { continue }
                var minimum = first
                var maximum = first
                for vertex in polygon.vertices {
                    minimum = Point2D(x: min(minimum.x, vertex.x), y: min(minimum.y, vertex.y))
                    maximum = Point2D(x: max(maximum.x, vertex.x), y: max(maximum.y, vertex.y))
                }
                fences.append(Fence(zone: index, fence: fence, minimum: minimum, maximum: maximum))
            }
        }
        guard !fences.isEmpty else { return nil }
        self.fences = fences
    }

    /// The index (in the venue's zones) of the room that holds `point` (metres, local frame) on `floor`, or `nil`
    /// when no room does.
    ///
    /// - Complexity: O(polygon fences), plus the vertices of the fences whose bounding box holds the point.
    public func room(at point: Point2D, floor: Int?) -> Int? {
        for entry in fences
        where point.x >= entry.minimum.x && point.x <= entry.maximum.x && point.y >= entry.minimum.y
            && point.y <= entry.maximum.y && entry.fence.isOnFloor(floor) && entry.fence.contains(point)
        {
            return entry.zone
        }
        return nil
    }

    /// The least signed distance, metres, from `point` to the polygon fences of the zone at index `zone` on
    /// `floor` (negative inside, as ``ZoneFence/signedDistance(to:)``); infinity when the zone has none there.
    package func signedDistance(from point: Point2D, toRoom zone: Int, floor: Int?) -> Double {
        var nearest = Double.infinity
        for entry in fences where entry.zone == zone && entry.fence.isOnFloor(floor) {
            nearest = min(nearest, entry.fence.signedDistance(to: point))
        }
        return nearest
    }
}
