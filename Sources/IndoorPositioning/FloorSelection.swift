import IndoorModel

/// Picks the readings a planar solver should use in a venue with floors.
///
/// Range circles from other floors do not meet on this floor, so the range solvers keep only the readings on the
/// floor of the strongest reading, when at least three remain; otherwise (or with no floors) all readings.
enum FloorSelection {
    /// `readings` (strongest first) restricted to the strongest reading's floor, when that leaves at least `minimum`.
    static func sameFloor(_ readings: [NodeReading], minimum: Int = 3) -> [NodeReading] {
        guard let first = readings.first, let floor = first.node.floor else { return readings }
        var mixed = false
        for reading in readings where reading.node.floor != floor {
            mixed = true
            break
        }
        guard mixed else { return readings }
        let kept = readings.filter { $0.node.floor == floor }
        return kept.count >= minimum ? kept : readings
    }
}
