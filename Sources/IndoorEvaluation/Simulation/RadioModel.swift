import Foundation
import IndoorModel

/// The simulated radio channel: log-distance path loss with log-normal shadowing, wall and floor losses.
///
/// `rssi = P₁ − 10·n·log₁₀(d) − wallLoss·walls − floorLoss·floors`, with `d` the
/// 3-D distance in metres (at least 0.1 m), `P₁` the beacon's power at 1 m in dBm, `walls` the walls the
/// straight line from beacon to receiver crosses on the receiver's floor, and `floors` the levels between
/// them. The simulator adds the receiver's offset, per-packet shadowing and slow shadowing (correlated over
/// the distance the device moves and over time), then rounds to a whole dBm, as radios report it.
struct RadioModel: Sendable {
    let options: SimulatorOptions
    /// The walls of each level, for counting crossings.
    let wallsByLevel: [Int: [Segment]]

    /// The mean received power in dBm (no shadowing, no receiver offset); without wall losses when
    /// `countingWalls` is false (an upper bound, quick to compute).
    func meanRSSI(
        beacon: Point2D, beaconHeight: Double, beaconLevel: Int, rssiAtOneMeter: Double,
        receiver: Point2D, receiverHeight: Double, receiverLevel: Int, countingWalls: Bool = true
    ) -> Double {
        let dx = beacon.x - receiver.x
        let dy = beacon.y - receiver.y
        let dz = beaconHeight - receiverHeight
        let distance = max(0.1, (dx * dx + dy * dy + dz * dz).squareRoot())
        var rssi = rssiAtOneMeter - 10 * options.pathLossExponent * log10(distance)
        if countingWalls, options.wallLoss > 0, let walls = wallsByLevel[receiverLevel] {
            let path = Segment(from: beacon, to: receiver)
            var crossed = 0
            for wall in walls where wall.intersects(path) { crossed += 1 }
            rssi -= options.wallLoss * Double(crossed)
        }
        rssi -= options.floorLoss * Double(abs(beaconLevel - receiverLevel))
        return rssi
    }
}
