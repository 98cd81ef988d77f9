import Foundation

extension Venue {
    /// The doorways of floor `level`: the pieces of its rooms' boundaries (the polygon fences of its zones on that
    /// floor, holes included, but those of IMDF geofences) that none of its walls covers, metres in the local frame.
    /// This is what an IMDF export writes as openings; a floor without walls has none (its rooms are open
    /// everywhere, not through doors).
    public func doorways(level: Int) -> [Segment] {
        guard let floor = floor(level: level), !floor.walls.isEmpty else { return [] }
        var boundaries = IMDFWalls()
        for zone in zones where zone.data["imdf"] != "geofence" {
            for fence in zone.fences where fence.floor == level {
                guard case .polygon(let polygon) = fence.shape else { continue }
                for ring in [polygon] + fence.holes { boundaries.addBoundary(of: ring) }
            }
        }
        return boundaries.openings(leftBy: floor.walls).openings
    }
}
