import IndoorGeofencing
import IndoorModel
import IndoorPositioning

/// Scores a positioning engine on a recording exactly as the shared dataset format says: online and causal.
///
/// Every truth row is answered by `locate(device:at:)` after the engine has ingested that device's sightings with a
/// time at or before the row's time, and no later ones. A row with no position is a miss. The error of a row is
/// the horizontal (x, y) distance in metres; where the truth row has a floor, the fix's floor is right or wrong. A
/// located row counts as covered when its error is within the fix's accuracy radius; a device's floor flips when
/// the floor of one located row differs from its previous one. When the venue has rooms (zones with polygon
/// fences), the truth's and the fix's rooms are compared row by row, and each one's changes counted.
///
/// Two ways, with the same scores on time-sorted files: ``score(_:on:name:zones:progress:answered:)`` takes a
/// recording in memory and feeds each device separately, in any row order;
/// ``score(_:sightings:truth:zones:limit:observe:answered:progress:)`` reads the sightings and truth once, merged by
/// time, feeding every engine in the same pass, and holds no rows.
public enum Evaluator {
    /// Scores `engine` on `recording`, device by device.
    ///
    /// - Parameters:
    ///   - engine: A fresh engine (it keeps per-device state; each device is fed separately).
    ///   - recording: The sightings and truth to score on (a dataset's `test/`), in any order.
    ///   - name: The name to report; the engine's method name when `nil`.
    ///   - zones: The venue's zones: those with polygon fences are the rooms scored (``MethodScore/rooms``);
    ///     none (the default), or none with a polygon fence, leaves rooms unscored.
    ///   - progress: Called after each truth row with (rows done, rows in all).
    ///   - answered: Told each truth row and the engine's answer to it, device by device (``RowReport``).
    /// - Returns: Every located row's error, the misses, the floor hits and, with rooms, the room counts.
    /// - Complexity: O(s log s + r log r) for s sightings and r truth rows, plus the engine's work.
    public static func score(
        _ engine: PositioningEngine, on recording: Recording, name: String? = nil, zones: [Zone] = [],
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in },
        answered: (_ row: TruthPoint, _ result: Result<Fix, NoFix>) -> Void = { _, _ in }
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
        var tally = MethodTally(method: name ?? engine.methodName, rooms: RoomMap(zones: zones))
        let total = recording.truth.count
        var done = 0
        for device in truthByDevice.keys.sorted() {
            // Stable sorts keep the file order of rows with equal times.
            let sightings = (sightingsByDevice[device] ?? []).enumerated()
                .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            let truth = (truthByDevice[device] ?? []).enumerated()
                .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            var next = 0
            for row in truth {
                while next < sightings.count, sightings[next].time <= row.time {
                    engine.ingest(sightings[next])
                    next += 1
                }
                let result = engine.locate(device: device, at: row.time)
                tally.record(result, for: row)
                answered(row, result)
                done += 1
                progress(done, total)
            }
        }
        var score = tally.score
        score.learned = MethodCatalog.learnedNote(engine)
        score.estimator = MethodCatalog.chosenEstimator(engine)?.estimator
        score.validatedMedian = MethodCatalog.chosenEstimator(engine)?.validatedMedian
        return score
    }

    /// Scores several engines in one pass over a recording's sightings and truth, both read in time order.
    ///
    /// For each truth row in file order, every engine ingests the sightings up to the row's time (all devices',
    /// in file order), then states the position of the row's device at the row's time. Memory: the engines, and
    /// per method one error (8 bytes) per located row plus a few numbers per device; no sighting or truth row is
    /// kept. On time-sorted files the scores are those of ``score(_:on:name:zones:progress:answered:)`` for each
    /// engine.
    ///
    /// - Parameters:
    ///   - engines: Fresh engines and the names to report them by.
    ///   - sightings: The recording's sightings (`test/sightings.csv`), sorted by time.
    ///   - truth: The recording's truth rows (`test/truth.csv`), sorted by time.
    ///   - zones: The venue's zones: those with polygon fences are the rooms scored (``MethodScore/rooms``).
    ///   - limit: Score only the first `limit` truth rows, and read no further than they need (the rest of either
    ///     file is not read, nor checked); `nil`: every row, and both files are read to their end.
    ///   - observe: Told every sighting read, engines' use or not (to count the unknown nodes, say).
    ///   - answered: Told each truth row and each engine's answer to it (the engine's index in `engines`), in the
    ///     order scored (``RowReport``).
    ///   - progress: Called after each truth row with (rows done, bytes of both files read).
    /// - Returns: One score per engine, in the order given, and the number of truth rows scored.
    /// - Throws: ``FormatError`` for a bad row of either file; one with the code ``FormatError/Code/unsorted``,
    ///   naming the file and line, when a row's time is earlier than the row before it (score the recording in
    ///   memory with ``score(_:on:name:zones:progress:answered:)`` instead).
    /// - Complexity: O(s + r) rows read for s sightings and r truth rows, plus the engines' work.
    public static func score(
        _ engines: [(name: String, engine: PositioningEngine)], sightings: inout CSVRowStream<Sighting>,
        truth: inout CSVRowStream<TruthPoint>, zones: [Zone] = [], limit: Int? = nil,
        observe: (Sighting) -> Void = { _ in },
        answered: (_ engine: Int, _ row: TruthPoint, _ result: Result<Fix, NoFix>) -> Void = { _, _, _ in },
        progress: (_ rows: Int, _ bytesRead: Int) -> Void = { _, _ in }
    ) throws -> (scores: [MethodScore], rows: Int) {
        var models = engines.map(\.engine)
        let rooms = RoomMap(zones: zones)
        var tallies = engines.map { MethodTally(method: $0.name, rooms: rooms) }
        var order = TimeOrder()
        var waiting: Sighting?
        var rows = 0
        while limit.map({ rows < $0 }) ?? true, let row = try truth.next() {
            try order.check(truth: row.time, file: truth.file, line: truth.line)
            while true {
                if waiting == nil, let next = try sightings.next() {
                    try order.check(sighting: next.time, file: sightings.file, line: sightings.line)
                    observe(next)
                    waiting = next
                }
                guard let sighting = waiting, sighting.time <= row.time else { break }
                for index in models.indices { models[index].ingest(sighting) }
                waiting = nil
            }
            for index in models.indices {
                let result = models[index].locate(device: row.device, at: row.time)
                tallies[index].record(result, for: row)
                answered(index, row, result)
            }
            rows += 1
            progress(rows, sightings.bytesRead + truth.bytesRead)
        }
        if limit == nil {
            // No truth row is left: the other sightings cannot change a score, but are read (and checked) as the
            // whole-file reader would.
            while let next = try sightings.next() {
                try order.check(sighting: next.time, file: sightings.file, line: sightings.line)
                observe(next)
            }
        }
        var scores = tallies.map(\.score)
        for (index, engine) in engines.enumerated() where scores.indices.contains(index) {
            scores[index].learned = MethodCatalog.learnedNote(engine.engine)
            scores[index].estimator = MethodCatalog.chosenEstimator(engine.engine)?.estimator
            scores[index].validatedMedian = MethodCatalog.chosenEstimator(engine.engine)?.validatedMedian
        }
        return (scores, rows)
    }
}
