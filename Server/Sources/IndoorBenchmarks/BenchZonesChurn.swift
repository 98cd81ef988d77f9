import Foundation
import IndoorEvaluation
import IndoorGeofencing
import IndoorModel

/// `indoor-bench zones --churn`: the zone engine's memory under a stream of short-lived devices, as a server sees
/// over months: every second of data time `arrivals` new devices appear at random places over the workload's zones,
/// report one fix a second for `lifetime` seconds and are never heard again. The fixes are made as they are
/// needed (nothing is generated up front), and the activity log is drained every second as a server stores it,
/// so the process's peak memory is the engine's. Run it under `/usr/bin/time -v` (release build).
struct BenchZonesChurn {
    var zones: Int
    var seconds: Int
    var arrivals: Int
    var lifetime: Int
    var seed: UInt64

    struct Result: Encodable {
        var benchmark = "zones-churn"
        var devices: Int
        var fixes: Int
        var events: Int
        var drainedVisits: Int
        var rememberedDevices: Int
        var openVisits: Int
        var seconds: Double
    }

    func run() -> Result {
        let workload = ZoneWorkload(devices: 1, zones: zones, seconds: 1, seed: seed)
        var engine = ZoneEngine(zones: workload.zones)
        var random = SplitMix64(seed: seed, stream: 7)
        var fixes = 0
        var events = 0
        var drained = 0
        let time = BenchStopwatch.time {
            for second in 0..<seconds {
                // Devices born in the last `lifetime` seconds report once this second, in birth order.
                let firstBorn = max(0, second - lifetime + 1)
                for born in firstBorn...second {
                    for index in 0..<arrivals {
                        let device = "d\(born * arrivals + index)"
                        let fix = Fix(
                            time: Double(second) + 0.9 * Double(index) / Double(arrivals), device: device,
                            position: Point3D(
                                x: random.uniform(0...workload.width), y: random.uniform(0...workload.height), z: 1.2),
                            floor: random.index(below: 2), accuracy: 3, confidence: 0.5, method: "churn")
                        events += engine.update(with: fix).count
                        fixes += 1
                    }
                }
                events += engine.advance(to: Double(second + 1)).count
                drained += engine.drainActivity().count
            }
        }
        return Result(
            devices: seconds * arrivals, fixes: fixes, events: events, drainedVisits: drained,
            rememberedDevices: engine.rememberedDevices, openVisits: engine.openVisits.count, seconds: time)
    }
}
