import IndoorModel
import IndoorPositioning

/// Scores a positioning engine on a recording exactly as the shared dataset format says: online and causal.
///
/// For each device, in time order, every truth row is answered by `locate(device:at:)` after the engine has
/// ingested that device's sightings with a time at or before the row's time, and no later ones. A row with
/// no position is a miss. The error of a row is the horizontal (x, y) distance in metres; where the truth
/// row has a floor, the fix's floor is right or wrong. A located row counts as covered when its error is within the
/// fix's accuracy radius; a device's floor flips when the floor of one located row differs from its previous one.
public enum Evaluator {
    /// Scores `engine` on `recording`.
    ///
    /// - Parameters:
    ///   - engine: A fresh engine (it keeps per-device state; each device is fed separately).
    ///   - recording: The sightings and truth to score on (a dataset's `test/`).
    ///   - name: The name to report; the engine's method name when `nil`.
    ///   - progress: Called after each truth row with (rows done, rows in all).
    /// - Returns: Every located row's error, the misses and the floor hits.
    /// - Complexity: O(s log s + r log r) for s sightings and r truth rows, plus the engine's work.
    public static func score(
        _ engine: PositioningEngine, on recording: Recording, name: String? = nil,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) -> MethodScore {
        var engine = engine
        var sightingsByDevice: [String: [Sighting]] = [:]
        for sighting in recording.sightings {
            sightingsByDevice[sighting.device, default: []].append(sighting)
        }
        var truthByDevice: [String: [TruthPoint]] = [:]
        for row in recording.truth {
            truthByDevice[row.device, default: []].append(row)
        }
        var score = MethodScore(method: name ?? engine.methodName, errors: [], misses: 0)
        let total = recording.truth.count
        var done = 0
        for device in truthByDevice.keys.sorted() {
            // Stable sorts keep the file order of rows with equal times.
            let sightings = (sightingsByDevice[device] ?? []).enumerated()
                .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            let truth = (truthByDevice[device] ?? []).enumerated()
                .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            var next = 0
            var lastFloor: Int?
            var firstLocated: Double?
            var lastLocated: Double?
            for row in truth {
                while next < sightings.count, sightings[next].time <= row.time {
                    engine.ingest(sightings[next])
                    next += 1
                }
                switch engine.locate(device: device, at: row.time) {
                case .success(let fix):
                    let error = fix.position.horizontal.distance(to: row.point)
                    if error.isFinite {
                        score.errors.append(error)
                        if error <= fix.accuracy { score.coveredRows += 1 }
                        if let floor = fix.floor {
                            if let lastFloor, lastFloor != floor { score.floorFlips += 1 }
                            lastFloor = floor
                        }
                        firstLocated = firstLocated ?? row.time
                        lastLocated = row.time
                        if let floor = row.floor {
                            score.floorRows += 1
                            if fix.floor == floor { score.floorHits += 1 }
                        }
                    } else {
                        score.misses += 1
                    }
                case .failure:
                    score.misses += 1
                }
                done += 1
                progress(done, total)
            }
            if let firstLocated, let lastLocated { score.trackedSeconds += lastLocated - firstLocated }
        }
        return score
    }
}
