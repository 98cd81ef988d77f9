import IndoorModel
import IndoorPositioning

/// The particle filter's and the recommended method's throughput on the positioning workload, each beside its
/// reference measured in the same run.
///
/// Both weigh by the path-loss posterior of the workload's nodes with ``AutoMethod``'s generic weighting. The filter
/// weighs on the grid a survey's map has (0.25 m, at most 12 000 points: 0.33 m over the box of the workload's
/// 40 m × 30 m, as when this benchmark was first reported), not on the coarser grid of `auto` without a survey
/// (``AutoMethod/pathLossSpacing``), so its figure stays comparable; `auto` runs as users get it. The filter runs
/// ``ParticleFilter/Configuration/particles`` (1000) particles per device; each update moves a device's cloud on by
/// one second and weighs it by that device's 8 readings, and checks whether the cloud has lost its device
/// (``ParticleFilter/Configuration/lostChance``); the same filter without that check is measured beside it. Its
/// reference is the update without the check in plain C (``ParticleFilterBaseline``) on copies of the same clouds, so
/// both do the same work. The default's reference is
/// its posterior taken over every grid point (``PosteriorGrid/estimate(from:)``), which its search answers within
/// centimetres of.
struct ParticleFilterBench: Codable {
    /// Particle-filter updates per second (one device, 1000 particles, 8 nodes heard), one core, as users get them
    /// (with the lost-cloud check).
    var updatesPerSecond: Double
    /// The same updates without the lost-cloud check (``ParticleFilter/Configuration/lostChance`` 0), per second,
    /// one core, measured right after.
    var uncheckedUpdatesPerSecond: Double
    /// The same updates without the check in plain C (``ParticleFilterBaseline``), per second, one core, measured
    /// right after.
    var cUpdatesPerSecond: Double
    /// ``uncheckedUpdatesPerSecond`` over ``cUpdatesPerSecond`` (the same work).
    var updatesToC: Double
    /// Fixes per second of ``MethodCatalog/recommended`` (`auto`, here without a survey), one core.
    var defaultFixesPerSecond: Double
    /// Fixes per second of `auto`'s posterior taken over every grid point (the search's reference), one core.
    var exhaustiveFixesPerSecond: Double

    /// Measures on `workload` for at least `seconds` per number; at most 200 devices keep a cloud.
    static func measure(workload: PositioningWorkload, readings: [[NodeReading]], seconds: Double)
        -> ParticleFilterBench
    {
        let calibration = workload.engineCalibration
        let auto = AutoMethod(nodes: workload.nodes, survey: nil, calibration: calibration)
        let filter = filter(workload: workload)
        var unchecked = filter.configuration
        unchecked.lostChance = 0
        let uncheckedFilter = ParticleFilter(posterior: filter.posterior, configuration: unchecked)
        var lists = Array(readings.prefix(200))
        let starts = lists.enumerated().compactMap {
            filter.start(device: "d\($0.offset)", readings: $0.element, at: 0)
        }
        let baseline = ParticleFilterBaseline(filter: uncheckedFilter)
        for belief in starts { baseline?.add(belief) }
        // `filter`'s updates of clouds from `starts`, per second.
        func rate(of filter: ParticleFilter) -> Double {
            var beliefs = starts
            var time = 0.0
            return BenchStopwatch.rate(seconds: seconds) {
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
        }
        let updates = rate(of: filter)
        let uncheckedUpdates = rate(of: uncheckedFilter)
        var cUpdates = 0.0
        if let baseline {
            // The same clouds from the same start, the same readings at the same times.
            var heard = lists.map { baseline.heard($0) }
            var cTime = 0.0
            cUpdates = BenchStopwatch.rate(seconds: seconds) {
                cTime += 1
                for index in heard.indices {
                    for reading in heard[index].lastHeard.indices { heard[index].lastHeard[reading] = cTime - 0.5 }
                }
                baseline.updateAll(heard, at: cTime)
                return (baseline.clouds.count, baseline.clouds.reduce(0) { $0 + $1.offset })
            }
        }
        let fixes = BenchStopwatch.rate(seconds: seconds) {
            var checksum = 0.0
            for list in lists {
                if case .success(let estimate) = auto.estimate(from: list) { checksum += estimate.position.x }
            }
            return (lists.count, checksum)
        }
        let exhaustive = BenchStopwatch.rate(seconds: seconds) {
            var checksum = 0.0
            for list in lists {
                if case .success(let estimate) = auto.posterior.estimate(from: list) {
                    checksum += estimate.position.x
                }
            }
            return (lists.count, checksum)
        }
        return ParticleFilterBench(
            updatesPerSecond: updates, uncheckedUpdatesPerSecond: uncheckedUpdates, cUpdatesPerSecond: cUpdates,
            updatesToC: cUpdates > 0 ? uncheckedUpdates / cUpdates : 0, defaultFixesPerSecond: fixes,
            exhaustiveFixesPerSecond: exhaustive)
    }

    /// The benchmark's filter: weighing by the workload's path-loss posterior on a survey map's grid.
    static func filter(workload: PositioningWorkload) -> ParticleFilter {
        let calibration = workload.engineCalibration
        let map = RadioMap.pathLoss(
            nodes: workload.nodes, calibration: calibration,
            grid: RadioMap.Grid.around(nodes: workload.nodes, height: calibration.deviceHeight))
        return ParticleFilter(posterior: PosteriorGrid(map: map, configuration: AutoMethod.genericConfiguration))
    }

    /// The lines of the text report.
    var text: String {
        String(
            format: """
                particle filter: %.0f updates/s (1000 particles, 8 nodes heard; goal ≥ 50 000), %.0f without the \
                lost-cloud check (which adds %.0f%% to an update's time); without it in plain C %.0f updates/s: %.2f of its rate \
                (goal ≥ 0.8)
                default (auto) %.0f fixes/s (goal ≥ 30 000); its posterior over every grid point %.0f fixes/s (%.1f ×)
                """,
            updatesPerSecond, uncheckedUpdatesPerSecond,
            updatesPerSecond > 0 ? 100 * (uncheckedUpdatesPerSecond / updatesPerSecond - 1) : 0, cUpdatesPerSecond,
            updatesToC, defaultFixesPerSecond, exhaustiveFixesPerSecond,
            exhaustiveFixesPerSecond > 0 ? defaultFixesPerSecond / exhaustiveFixesPerSecond : 0)
    }
}
