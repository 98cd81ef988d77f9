import Foundation
import IndoorModel
import IndoorPositioning
import IndoorRanging

/// The numbers `indoor-bench positioning` reports.
struct PositioningBenchReport: Codable {
    struct Solver: Codable {
        var name: String
        var fixesPerSecond: Double
    }

    var devices: Int
    var nodesHeard: Int
    var sigmaDB: Double
    var solvers: [Solver]
    /// Sightings per second through the engine, one fix per device after each round of 8 sightings.
    var engineSightingsPerSecond: Double
    /// Sightings per second through `ingest` alone.
    var engineIngestSightingsPerSecond: Double
    var crbRMSMeters: Double
    var nonlinearRMSEMeters: Double
    var nonlinearToCRBRatio: Double
    var nonlinearMisses: Int
    /// Fixes per second of a plain Gauss–Newton in C on the same readings (``GaussNewtonBaseline``), one core.
    var gaussNewtonCFixesPerSecond: Double
    /// `nonlinear`'s fixes per second over ``gaussNewtonCFixesPerSecond``, measured in the same run.
    var nonlinearToGaussNewtonC: Double
    /// The particle filter's updates and the recommended method's fixes per second.
    var particleFilter: ParticleFilterBench

    static func measure(devices: Int, seed: UInt64, seconds: Double, solvers measureSolvers: Bool = true)
        -> PositioningBenchReport
    {
        let workload = PositioningWorkload(devices: devices, seed: seed)
        let readings = workload.readings()
        let height = PositioningWorkload.deviceHeight
        let methods: [any PositioningMethod] = [
            WeightedCentroid(), PowerCenter(deviceHeight: height), EPTA(deviceHeight: height),
            SphereIntersection(deviceHeight: height), LinearLeastSquares(deviceHeight: height),
            NonlinearLeastSquares(deviceHeight: height),
            FingerprintKNN(fingerprints: workload.fingerprintGrid(spacing: 2), k: 3),
            Blend([
                .init(NonlinearLeastSquares(deviceHeight: height), trust: 1), .init(WeightedCentroid(), trust: 1),
            ]),
        ]
        var solvers: [Solver] = []
        var nonlinearRate = 0.0
        var baseline = 0.0
        for method in methods {
            guard measureSolvers else {
                solvers.append(Solver(name: method.name, fixesPerSecond: 0))
                continue
            }
            let rate = BenchStopwatch.rate(seconds: seconds) {
                var checksum = 0.0
                for list in readings {
                    if case .success(let estimate) = method.estimate(from: list) { checksum += estimate.position.x }
                }
                return (readings.count, checksum)
            }
            solvers.append(Solver(name: method.name, fixesPerSecond: rate))
            if method is NonlinearLeastSquares {
                // The reference right after `nonlinear`, so that both see the same machine.
                nonlinearRate = rate
                baseline = GaussNewtonBaseline(readings: readings, deviceHeight: height).rate(seconds: seconds)
            }
        }

        // Accuracy of the nonlinear solver against the bound.
        let solver = NonlinearLeastSquares(deviceHeight: height)
        var squared = 0.0
        var fixes = 0
        var misses = 0
        var bound = 0.0
        var bounded = 0
        let bounds = workload.bounds()
        for (index, list) in readings.enumerated() {
            guard let crb = bounds[index] else { continue }
            bound += crb.xx + crb.yy
            bounded += 1
            switch solver.estimate(from: list) {
            case .success(let estimate):
                let dx = estimate.position.x - workload.devices[index].x
                let dy = estimate.position.y - workload.devices[index].y
                squared += dx * dx + dy * dy
                fixes += 1
            case .failure: misses += 1
            }
        }
        let crbRMS = (bound / Double(max(bounded, 1))).squareRoot()
        let rmse = (squared / Double(max(fixes, 1))).squareRoot()

        // The whole engine: rounds of 8 sightings per device (fresh noise), then a fix per device.
        let rounds = 8
        var random = SplitMix64(seed: seed &+ 1)
        var batches: [[Sighting]] = []
        let names = (0..<devices).map { "d\($0)" }
        for round in 0..<rounds {
            var batch: [Sighting] = []
            batch.reserveCapacity(devices * 8)
            for (device, list) in workload.heard.enumerated() {
                for entry in list {
                    let clean = LogDistance.rssi(
                        meters: workload.nodes[entry.node].position.distance(to: workload.devices[device]),
                        calibration: PositioningWorkload.calibration)
                    batch.append(
                        Sighting(
                            time: Double(round), device: names[device], node: workload.nodes[entry.node].id,
                            rssi: clean + workload.sigma * random.standardNormal()))
                }
            }
            batches.append(batch)
        }
        let total = batches.reduce(0) { $0 + $1.count }
        let engineRate = BenchStopwatch.rate(seconds: seconds) {
            var engine = PositioningEngine(
                nodes: workload.nodes, method: solver, calibration: workload.engineCalibration)
            var checksum = 0.0
            for (round, batch) in batches.enumerated() {
                engine.ingest(batch)
                for name in names {
                    if case .success(let fix) = engine.locate(device: name, at: Double(round)) {
                        checksum += fix.position.x
                    }
                }
            }
            return (total, checksum)
        }
        let ingestRate = BenchStopwatch.rate(seconds: seconds) {
            var engine = PositioningEngine(
                nodes: workload.nodes, method: solver, calibration: workload.engineCalibration)
            var used = 0
            for batch in batches { used += engine.ingest(batch) }
            return (total, Double(used))
        }
        return PositioningBenchReport(
            devices: devices, nodesHeard: 8, sigmaDB: workload.sigma, solvers: solvers,
            engineSightingsPerSecond: engineRate, engineIngestSightingsPerSecond: ingestRate,
            crbRMSMeters: crbRMS, nonlinearRMSEMeters: rmse, nonlinearToCRBRatio: rmse / crbRMS,
            nonlinearMisses: misses, gaussNewtonCFixesPerSecond: baseline,
            nonlinearToGaussNewtonC: baseline > 0 ? nonlinearRate / baseline : 0,
            particleFilter: ParticleFilterBench.measure(
                workload: workload, readings: readings, seconds: measureSolvers ? seconds : 0.01))
    }

    var text: String {
        var lines = [
            "positioning bench: 24 nodes (6 × 4 over 40 m × 30 m, z 2.5 m), \(devices) devices at z 1.2 m, "
                + "\(nodesHeard) nearest heard, σ \(sigmaDB) dB; per core",
            "solver                  fixes/s",
        ]
        for solver in solvers {
            lines.append(
                solver.name.padding(toLength: 22, withPad: " ", startingAt: 0) + "  "
                    + String(format: "%12.0f", solver.fixesPerSecond))
        }
        lines.append(
            String(
                format:
                    "engine: %.0f sightings/s with a nonlinear fix per device per 8 sightings; ingest only %.0f sightings/s",
                engineSightingsPerSecond, engineIngestSightingsPerSecond))
        lines.append(
            String(
                format: "Cramér–Rao: bound RMS %.3f m, nonlinear RMSE %.3f m, ratio %.3f (goal ≤ 1.2), misses %d",
                crbRMSMeters, nonlinearRMSEMeters, nonlinearToCRBRatio, nonlinearMisses))
        lines.append(
            String(
                format:
                    "nonlinear against a plain Gauss–Newton in C on the same readings (%.0f fixes/s): %.2f of its rate"
                    + " (goal ≥ 0.82: 1.4 M where it does 1.7 M)",
                gaussNewtonCFixesPerSecond, nonlinearToGaussNewtonC))
        lines.append(particleFilter.text)
        return lines.joined(separator: "\n")
    }
}
