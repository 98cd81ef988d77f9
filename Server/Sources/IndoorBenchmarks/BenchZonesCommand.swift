import ArgumentParser
import Foundation
import IndoorCommands
import IndoorEvaluation
import IndoorGeofencing
import IndoorModel

/// `indoor-bench zones`: fixes per second through ``ZoneEngine`` for a crowd random-walking over many zones.
struct BenchZonesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zones",
        abstract:
            "Fixes per second through the zone engine: DEVICES walkers over ZONES fences and geolines, 1 fix/s each.",
        discussion: """
            Workload (seeded, `ZoneWorkload`): a grid of 20 m cells, one zone per cell on two floors, each with a \
            circle or polygon fence; a tenth of the zones also have a geoline. Zone rules vary (dwell events, no \
            check-out, re-trigger, lost rule off). Devices random-walk at 0.5–1.5 m/s and report one noisy fix per \
            second of data time, staggered inside the second; some go silent for a while. After each second the \
            engine is advanced to the next second, as a server's timer would. The fixes are generated before \
            timing; the timed part is a single-threaded run of a fresh engine over all of them. The digest pins \
            the event stream. Build with `-c release`.
            """)

    @Option(help: "Number of walking devices.")
    var devices = 5000

    @Option(help: "Number of zones.")
    var zones = 50

    @Option(help: "Seconds of data time (one fix per device per second).")
    var seconds = 30

    @Option(help: "Seed of the workload's generator.")
    var seed: UInt64 = 1

    @Option(help: "Timed runs; the best is reported.")
    var `repeat` = 1

    @Flag(
        help: ArgumentHelp(
            "Measure memory instead: a stream of short-lived devices (--arrivals new ones a second, each heard for "
                + "--lifetime seconds) over --seconds of data; run under /usr/bin/time -v."))
    var churn = false

    @Option(help: "With --churn: new devices a second.")
    var arrivals = 1000

    @Option(help: "With --churn: seconds each device is heard.")
    var lifetime = 10

    @Flag(help: "Print one JSON object.")
    var json = false

    struct Result: Encodable {
        var benchmark = "zones"
        var devices: Int
        var zones: Int
        var dataSeconds: Int
        var fixes: Int
        var seconds: Double
        var fixesPerSecond: Double
        var events: Int
        var checkIns: Int
        var checkOuts: Int
        var dwells: Int
        var openVisits: Int
        var digest: String
    }

    func validate() throws {
        guard devices > 0 else { throw ValidationError("--devices must be positive") }
        guard zones > 0 else { throw ValidationError("--zones must be positive") }
        guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
        guard `repeat` > 0 else { throw ValidationError("--repeat must be positive") }
        // The fixes are generated up front: keep them (and the zones) to what fits in memory.
        guard zones <= Self.maximumZones else { throw ValidationError("--zones must be at most \(Self.maximumZones)") }
        let (fixes, overflow) = devices.multipliedReportingOverflow(by: seconds)
        guard !overflow, fixes <= Self.maximumFixes else {
            throw ValidationError("--devices × --seconds must be at most \(Self.maximumFixes) fixes")
        }
    }

    /// The most zones a run builds.
    static let maximumZones = 1_000_000
    /// The most fixes (devices × seconds) a run generates before timing.
    static let maximumFixes = 100_000_000

    func run() throws {
        if churn {
            guard arrivals > 0, lifetime > 0 else {
                throw ValidationError("--arrivals and --lifetime must be positive")
            }
            let result = BenchZonesChurn(
                zones: zones, seconds: seconds, arrivals: arrivals, lifetime: lifetime, seed: seed
            ).run()
            if json {
                print(String(decoding: try JSONFormat.encoder().encode(result), as: UTF8.self))
            } else {
                print(
                    "zones churn: \(result.devices) devices, \(result.fixes) fixes, \(result.events) events "
                        + "(\(result.drainedVisits) visits drained) in " + String(format: "%.1f s", result.seconds)
                        + "; \(result.rememberedDevices) devices remembered, \(result.openVisits) visits open at the end"
                )
            }
            return
        }
        let workload = ZoneWorkload(devices: devices, zones: zones, seconds: seconds, seed: seed)
        let bySecond = workload.fixesBySecond()
        let fixes = bySecond.reduce(0) { $0 + $1.count }
        var best = Double.infinity
        var result: Result?
        for _ in 0..<`repeat` {
            var engine = ZoneEngine(zones: workload.zones)
            var digest = ZoneWorkload.Digest()
            var kinds: [ZoneEvent.Kind: Int] = [:]
            func take(_ events: [ZoneEvent]) {
                for event in events { kinds[event.kind, default: 0] += 1 }
                digest.add(events)
            }
            let time = BenchStopwatch.time {
                for (second, list) in bySecond.enumerated() {
                    for fix in list { take(engine.update(with: fix)) }
                    take(engine.advance(to: Double(second + 1)))
                }
            }
            guard time < best else { continue }
            best = time
            result = Result(
                devices: devices, zones: zones, dataSeconds: seconds, fixes: fixes, seconds: time,
                fixesPerSecond: Double(fixes) / time, events: digest.count, checkIns: kinds[.checkIn] ?? 0,
                checkOuts: kinds[.checkOut] ?? 0, dwells: kinds[.dwell] ?? 0, openVisits: engine.openVisits.count,
                digest: String(digest.value, radix: 16))
        }
        guard let result else { throw CommandFailure("no run was timed") }
        if json {
            print(String(decoding: try JSONFormat.encoder().encode(result), as: UTF8.self))
        } else {
            print(
                "zones: \(result.fixes) fixes of \(devices) devices over \(zones) zones (\(seconds) s of data) in "
                    + String(format: "%.3f s: %.0f fixes/s", result.seconds, result.fixesPerSecond))
            print(
                "events: \(result.events) (\(result.checkIns) check-ins, \(result.checkOuts) check-outs, "
                    + "\(result.dwells) dwells), \(result.openVisits) visits open at the end, digest \(result.digest)")
        }
    }
}
