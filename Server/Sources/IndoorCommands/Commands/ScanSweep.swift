import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import IndoorSession

/// `indoor scan --simulate --sweep`: the error of scans against their length on the seeded simulated office.
///
/// Six walkers walk the office for ten minutes, pausing in rooms; every 5 s of each walk, a scan of each length
/// starts where the walker then stands still for the whole scan (the case of a phone held at a place). The error is
/// the horizontal distance between the scan's answer and the walker's true position at the end of the scan. The
/// engine uses the calibration fitted on the simulated survey, as `indoor evaluate` does.
struct ScanSweep {
    /// The geofence id the simulated office serves.
    static let geofence = "office"
    /// The scan lengths measured, seconds.
    static let lengths: [Double] = [2, 5, 10, 15]

    var seed: UInt64
    var method: MethodCatalog.Method
    /// Whether the scans learn from the simulated survey itself (``IndoorSession/IndoorScan/Options/surveys``), not
    /// only from the calibration fitted on it.
    var learnsSurvey = false

    /// One row of the report.
    struct Row {
        var seconds: Double
        var summary: ErrorSummary
    }

    struct Report {
        var seed: UInt64
        var method: String
        var learnsSurvey = false
        var rows: [Row]

        func table() -> String {
            var text = "Scans of walkers standing still in the simulated office (seed \(seed), 6 walkers, 600 s; "
            text += "\(method); \(learnsSurvey ? "learning from the survey" : "calibration fitted on the survey")). "
            text += "Horizontal error, metres:\n\n"
            text += "length  scans  failed  median m  p90 m  max m\n"
            for row in rows {
                let s = row.summary
                text += pad("\(Int(row.seconds)) s", 6) + "  " + pad("\(s.count)", 5, right: true) + "  "
                text += pad("\(s.misses)", 6, right: true) + "  " + pad(f(s.medianMeters), 8, right: true) + "  "
                text += pad(f(s.p90Meters), 5, right: true) + "  " + pad(f(s.maxMeters), 5, right: true) + "\n"
            }
            return text
        }

        private func f(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-" }
        private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let fill = String(repeating: " ", count: max(0, width - text.count))
            return right ? fill + text : text + fill
        }
    }

    /// The simulated office of `seed`: 6 walkers for 600 s.
    static func office(seed: UInt64) throws -> SimulatedDataset {
        var options = SimulatorOptions()
        options.seed = seed
        options.devices = 6
        options.duration = 600
        return try Simulator(options: options).run()
    }

    func run() throws -> Report {
        let simulated = try Self.office(seed: seed)
        var venue = simulated.venue
        venue.geofences = [Self.geofence]
        let target = try ScanTarget(geofence: Self.geofence, venues: [venue])
        let calibration = simulated.dataset.train.map { CalibrationFitter().fit(nodes: venue.nodes, survey: $0) }
        var options = IndoorScan.Options(method: method, calibration: calibration)
        if learnsSurvey, let survey = simulated.dataset.train {
            options = IndoorScan.Options(method: method, surveys: [venue.id: survey])
        }
        // One session before any sighting, copied for every scan: what it learns is learned once.
        let session = try IndoorScan.session(venue: venue, options: options)
        let byDevice = Dictionary(grouping: simulated.dataset.test.sightings, by: \.device)
        var rows: [Row] = []
        for seconds in Self.lengths {
            var errors: [Double] = []
            var failed = 0
            for device in byDevice.keys.sorted() {
                guard let path = simulated.trajectories[device], let sightings = byDevice[device] else { continue }
                var start = 1.0
                while start + seconds <= simulated.options.duration {
                    defer { start += 5 }
                    let here = path.state(at: start).point
                    let still = stride(from: start, through: start + seconds, by: 0.5).allSatisfy {
                        path.state(at: $0).point.distance(to: here) < 0.05
                    }
                    guard still else { continue }
                    var deviceOptions = options
                    deviceOptions.device = device
                    var scan = try IndoorScan(
                        target: target, duration: seconds, options: deviceOptions, session: session)
                    let first = sightings.partitioningIndex { $0.time >= start }
                    for sighting in sightings[first...] where scan.ingest(sighting) { break }
                    guard case .success(let result) = scan.result(), let end = scan.end else {
                        failed += 1
                        continue
                    }
                    errors.append(Point2D(x: result.x, y: result.y).distance(to: path.state(at: end).point))
                }
            }
            rows.append(Row(seconds: seconds, summary: ErrorSummary(errors: errors, misses: failed)))
        }
        return Report(
            seed: seed, method: MethodCatalog.Selection(method, tracking: true).name, learnsSurvey: learnsSurvey,
            rows: rows)
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, for a predicate false then true along the array.
    fileprivate func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
