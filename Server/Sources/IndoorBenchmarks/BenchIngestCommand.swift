import ArgumentParser
import Foundation
import IndoorCommands
import IndoorEvaluation
import IndoorModel
import IndoorServer
import IndoorSession

/// `indoor-bench ingest`: the ingest workload of `scripts/bench-serve.sh` measured in-process, and the body decoders.
struct BenchIngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Sightings/s of the simulated office in-process through LocationSession, and of the body decoders.",
        discussion: """
            Simulates the office of `indoor simulate --devices N --duration D` (the workload scripts/bench-serve.sh \
            POSTs over HTTP) and replays its test sightings in order, in batches, laps shifted in time so data time \
            only moves forward: (1) through one LocationSession on one core, for --seconds; (2) the same batches as \
            `POST /v1/sightings` bodies (the text scripts/bench/post-batches.lua sends), decoded bytes → sightings by \
            the JSONDecoder-based SightingBatch and by the one-pass SightingBatchReader, best of --repeat. \
            scripts/bench-ingest.sh runs this and the HTTP benchmark in one run and prints the ratio.
            """)

    @Option(help: "Walkers in the simulated office.")
    var devices = 50

    @Option(help: "Simulated seconds.")
    var duration = 300.0

    @Option(help: "Sightings per batch (per request body).")
    var batch = 100

    @Option(help: "CPU seconds of in-process ingest (each way).")
    var seconds = 10.0

    @Option(parsing: .unconditional, help: "Timed decoding passes over all the bodies; the best is reported.")
    var `repeat` = 5

    @Flag(help: "Print one JSON object.")
    var json = false

    struct Decoder: Encodable {
        var name: String
        var seconds: Double
        var megabytesPerSecond: Double
        var sightingsPerSecond: Double
    }

    struct Result: Encodable {
        var benchmark = "ingest"
        var devices: Int
        var batch: Int
        var sightings: Int
        var bodyBytes: Int
        /// In-process: sightings/s through one LocationSession on one core.
        var sessionSightingsPerSecond: Double
        var sessionSightings: Int
        var sessionSeconds: Double
        /// Fixes and zone events the session gave.
        var sessionEvents: Int
        /// In-process with the store: sightings/s through one LocationSession, each batch then committed with its
        /// events to a fresh SQLiteStore (one core at a time: the commit runs while the loop waits for it).
        var storedSightingsPerSecond: Double
        var storedSightings: Int
        var storedSeconds: Double
        var decoders: [Decoder]
        /// SQLite commits of the same batches (sightings only), best of --repeat, by rows per `INSERT`.
        var sqlite: [SQLiteWrite]
    }

    struct SQLiteWrite: Encodable {
        var rowsPerInsert: Int
        var sightingsPerSecond: Double
    }

    func validate() throws {
        guard devices > 0, duration > 0, batch > 0, seconds > 0, `repeat` > 0 else {
            throw ValidationError("--devices, --duration, --batch, --seconds and --repeat must be positive")
        }
    }

    func run() throws {
        let result = try measure()
        if json {
            print(String(decoding: try JSONFormat.encoder().encode(result), as: UTF8.self))
            return
        }
        print(
            "ingest: \(devices) walkers, \(result.sightings) sightings a lap, batches of \(batch)"
                + String(
                    format: "\n  in-process (LocationSession, 1 core): %.0f sightings/s (%d in %.1f CPU s)",
                    result.sessionSightingsPerSecond, result.sessionSightings, result.sessionSeconds)
                + String(
                    format:
                        "\n  in-process with the store (LocationSession + SQLiteStore commit, 1 core): %.0f sightings/s (%d in %.1f CPU s)",
                    result.storedSightingsPerSecond, result.storedSightings, result.storedSeconds))
        for decoder in result.decoders {
            print(
                "  decode \(decoder.name): "
                    + String(
                        format: "%.1f MB/s, %.0f sightings/s", decoder.megabytesPerSecond, decoder.sightingsPerSecond))
        }
        for write in result.sqlite {
            print(
                "  SQLite commit, \(write.rowsPerInsert) rows per INSERT: "
                    + String(format: "%.0f sightings/s", write.sightingsPerSecond))
        }
    }

    /// Simulates the office and runs the three measurements.
    ///
    /// - Throws: ``CommandFailure`` when a decoder does not read every sighting of the bodies.
    func measure() throws -> Result {
        var options = SimulatorOptions()
        options.devices = devices
        options.duration = duration
        let simulated = try Simulator(options: options).run()
        let venue = simulated.venue
        let rows = simulated.dataset.test.sightings
        guard let last = rows.last else { throw CommandFailure("the simulation gave no sightings") }
        let span = (last.time).rounded(.up) + 1

        // (1) In-process, one core: batches into one session, laps shifted by the span; then the same with each
        // batch's sightings and events committed to a fresh SQLite store, as the server does before it answers.
        var session = try LocationSession(SessionConfiguration(venue: venue))
        let alone = try replay(rows, span: span) { session.ingest($0).count }
        session = try LocationSession(SessionConfiguration(venue: venue))
        let (store, folder) = try SQLiteCommitBench.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stored = try replay(rows, span: span) { pending in
            let events = ServerEvent.stored(from: session.ingest(pending))
            return try SQLiteCommitBench.commit(
                IngestBatch(venue: venue.id, sightings: pending, events: events, receivedAt: 0), to: store)
        }

        // (2) The decoders over the bodies of one lap.
        var bodies: [[UInt8]] = []
        var at = 0
        while at < rows.count {
            let items = rows[at..<min(rows.count, at + batch)].map { row in
                #"{"t":\#(String(format: "%.3f", row.time)),"device":"\#(row.device)","node":"\#(row.source.text)","rssi":\#(DatasetCSV.number(row.rssi))}"#
            }
            bodies.append(Array(#"{"venue":"\#(venue.id)","sightings":[\#(items.joined(separator: ","))]}"#.utf8))
            at += batch
        }
        let bytes = bodies.reduce(0) { $0 + $1.count }
        func measure(_ name: String, _ decode: ([UInt8]) throws -> Int) throws -> Decoder {
            var best = Double.infinity
            for _ in 0..<`repeat` {
                var read = 0
                let time = try BenchStopwatch.time {
                    for body in bodies { read += try decode(body) }
                }
                guard read == rows.count else {
                    throw CommandFailure("\(name) read \(read) of \(rows.count) sightings")
                }
                best = min(best, time)
            }
            return Decoder(
                name: name, seconds: best, megabytesPerSecond: Double(bytes) / best / 1e6,
                sightingsPerSecond: Double(rows.count) / best)
        }
        let decoders = [
            try measure("JSONDecoder (SightingBatch)") { body in
                try SightingBatch.decode(Data(body)).items.count {
                    if case .success = $0.result { true } else { false }
                }
            },
            try measure("one pass (SightingBatchReader)") { body in
                try body.withUnsafeBytes { try SightingBatchReader.read($0) }.sightings.count
            },
        ]
        let batches = stride(from: 0, to: rows.count, by: batch).map { Array(rows[$0..<min(rows.count, $0 + batch)]) }
        var best: [Int: Double] = [:]
        for _ in 0..<`repeat` {
            for rowsPerInsert in [1, SQLiteStore.maximumSightingRowsPerInsert] {
                let rate = try SQLiteCommitBench.sightingsPerSecond(
                    batches, venue: venue.id, rowsPerInsert: rowsPerInsert)
                best[rowsPerInsert] = max(best[rowsPerInsert] ?? 0, rate)
            }
        }
        let sqlite = best.sorted { $0.key < $1.key }.map {
            SQLiteWrite(rowsPerInsert: $0.key, sightingsPerSecond: $0.value)
        }
        let result = Result(
            devices: devices, batch: batch, sightings: rows.count, bodyBytes: bytes,
            sessionSightingsPerSecond: Double(alone.sightings) / alone.seconds, sessionSightings: alone.sightings,
            sessionSeconds: alone.seconds, sessionEvents: alone.events,
            storedSightingsPerSecond: Double(stored.sightings) / stored.seconds, storedSightings: stored.sightings,
            storedSeconds: stored.seconds, decoders: decoders, sqlite: sqlite)
        return result
    }

    /// What one replay did: sightings, the events of `ingest`, seconds.
    struct Replay {
        var sightings = 0
        var events = 0
        var seconds = 0.0
    }

    /// Feeds `rows` to `ingest` in batches of `batch` until the process has spent `seconds` of CPU time, in order,
    /// each lap over the rows shifted by `span` seconds so that data time only moves forward (as
    /// `scripts/bench/post-batches.lua` does).
    ///
    /// Timed by the process's CPU time (`CLOCK_PROCESS_CPUTIME_ID`), as `scripts/bench-serve.sh` times the server:
    /// so the in-process and the HTTP figures are both per core second, whatever else the machine runs, and the
    /// store's commits count though they run on GRDB's writer thread.
    func replay(_ rows: [Sighting], span: Double, _ ingest: ([Sighting]) throws -> Int) throws -> Replay {
        var done = Replay()
        var lap = 0.0
        let start = Self.processCPUSeconds()
        var index = 0
        var pending: [Sighting] = []
        pending.reserveCapacity(batch)
        repeat {
            pending.removeAll(keepingCapacity: true)
            while pending.count < batch {
                var sighting = rows[index]
                sighting.time += lap * span
                pending.append(sighting)
                index += 1
                if index == rows.count {
                    index = 0
                    lap += 1
                }
            }
            done.events += try ingest(pending)
            done.sightings += pending.count
            done.seconds = Self.processCPUSeconds() - start
        } while done.seconds < seconds
        return done
    }

    /// The CPU time the process has used, in seconds (all its threads).
    static func processCPUSeconds() -> Double {
        var now = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) == 0 else { return 0 }
        return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
    }
}
