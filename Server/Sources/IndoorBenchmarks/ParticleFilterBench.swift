import IndoorModel
import IndoorPositioning

/// The particle filter's and the recommended method's throughput on the positioning workload.
///
/// Both weigh by the path-loss posterior of the workload's nodes with ``AutoMethod``'s generic weighting. The filter
/// weighs on the grid a survey's map has (0.25 m, at most 12 000 points: 0.33 m over the box of the workload's
/// 40 m × 30 m, as when this benchmark was first reported), not on the coarser grid of `auto` without a survey
/// (``AutoMethod/pathLossSpacing``), so its figure stays comparable; `auto` runs as users get it. The filter runs
/// ``ParticleFilter/Configuration/particles`` (1000) particles per device; each update moves a device's cloud on by
/// one second and weighs it by that device's 8 readings.
struct ParticleFilterBench: Codable {
    /// Particle-filter updates per second (one device, 1000 particles, 8 nodes heard), one core.
    var updatesPerSecond: Double
    /// Fixes per second of ``MethodCatalog/recommended`` (`auto`, here without a survey), one core.
    var defaultFixesPerSecond: Double

    /// Measures on `workload` for at least `seconds` per number; at most 200 devices keep a cloud.
    static func measure(workload: PositioningWorkload, readings: [[NodeReading]], seconds: Double)
        -> ParticleFilterBench
    {
        let calibration = workload.engineCalibration
        let auto = AutoMethod(nodes: workload.nodes, survey: nil, calibration: calibration)
        let map = RadioMap.pathLoss(
            nodes: workload.nodes, calibration: calibration,
            grid: RadioMap.Grid.around(nodes: workload.nodes, height: calibration.deviceHeight))
        let filter = ParticleFilter(
            posterior: PosteriorGrid(map: map, configuration: AutoMethod.genericConfiguration))
        var lists = Array(readings.prefix(200))
        var beliefs = lists.enumerated().compactMap {
            filter.start(device: "d\($0.offset)", readings: $0.element, at: 0)
        }
        var time = 0.0
        let updates = BenchStopwatch.rate(seconds: seconds) {
            time += 1
            var checksum = 0.0
            // Readings heard half a second before each update, as the engine's 1 s means are.
            for index in lists.indices {
                for reading in lists[index].indices { lists[index][reading].lastHeard = time - 0.5 }
            }
            for index in beliefs.indices {
                filter.update(&beliefs[index], readings: lists[index], at: time)
                checksum += beliefs[index].offset
            }
            return (beliefs.count, checksum)
        }
        let fixes = BenchStopwatch.rate(seconds: seconds) {
            var checksum = 0.0
            for list in lists {
                if case .success(let estimate) = auto.estimate(from: list) { checksum += estimate.position.x }
            }
            return (lists.count, checksum)
        }
        return ParticleFilterBench(updatesPerSecond: updates, defaultFixesPerSecond: fixes)
    }

    /// One line of the text report.
    var text: String {
        String(
            format:
                "particle filter: %.0f updates/s (1000 particles, 8 nodes heard; goal ≥ 50 000); default (auto) %.0f fixes/s",
            updatesPerSecond, defaultFixesPerSecond)
    }
}
