import Foundation
import IndoorModel

/// Decides the floor of a device and picks the readings a planar solver should use in a venue with floors.
///
/// The floor is a vote of the strongest nodes' floors, each weighted by its received power (mW): one node heard
/// through a floor slab cannot outvote two on the device's own floor. Range circles from other floors do not meet
/// on this floor, so the range solvers keep only the readings on the voted floor, when at least three remain;
/// otherwise (or with no floors) all readings.
enum FloorSelection {
    /// How many of the strongest readings vote on the floor.
    static let voters = 3

    /// The floor voted by the `voters` strongest readings (`readings` strongest first), weighted by received power;
    /// ties go to the floor of the stronger reading. `nil` when none of them has a floor.
    static func vote(_ readings: [NodeReading], voters: Int = voters) -> Int? {
        var votes: [(floor: Int, weight: Double)] = []
        for reading in readings.prefix(max(1, voters)) {
            guard let floor = reading.node.floor else { continue }
            let weight = reading.rssi.isFinite ? pow(10, reading.rssi / 10) : 0
            if let slot = votes.firstIndex(where: { $0.floor == floor }) {
                votes[slot].weight += weight
            } else {
                votes.append((floor, weight))
            }
        }
        guard var best = votes.first else { return nil }
        for candidate in votes.dropFirst() where candidate.weight > best.weight { best = candidate }
        return best.floor
    }

    /// Whether the readings are on more than one floor (a node without a floor counts as one more floor).
    static func areMixed(_ readings: [NodeReading]) -> Bool {
        guard !readings.isEmpty else { return false }
        // Indices rather than `first` and `for reading in`: those copied whole readings (136 bytes each) on a path
        // every range solver takes on every fix.
        let floor = readings[0].node.floor
        for index in readings.indices where readings[index].node.floor != floor { return true }
        return false
    }

    /// `readings` (strongest first) restricted to the voted floor, when that leaves at least `minimum`; the floor
    /// the answer is on is ``vote(_:voters:)`` (or the strongest reading's, when the restriction was not possible).
    static func sameFloor(_ readings: [NodeReading], minimum: Int = 3) -> (readings: [NodeReading], floor: Int?) {
        guard !readings.isEmpty else { return (readings, nil) }
        let strongestFloor = readings[0].node.floor
        guard areMixed(readings) else { return (readings, strongestFloor) }
        let floor = vote(readings)
        let kept = readings.filter { $0.node.floor == floor }
        return kept.count >= minimum ? (kept, floor) : (readings, floor ?? strongestFloor)
    }
}
