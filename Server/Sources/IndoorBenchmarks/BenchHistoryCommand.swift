import ArgumentParser
import Foundation
import IndoorCommands
import IndoorModel
import IndoorServer
import Synchronization

/// `indoor-bench history`: fills a store with a week of a 50-device venue at a fix a second (``HistoryWorkload``,
/// about 30 M fixes) and times what looking back reads: a day's zone report for all zones (hourly buckets) and an
/// hour's history playback (every fix of every device, in pages), on SQLite and, given `--postgres`, PostgreSQL.
struct BenchHistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Seconds for a day's zone report and an hour's history playback over a filled store.",
        discussion: """
            Fills a store with --days of --devices walking between --zones rooms, a fix a second each, with their \
            visits (docs/notes/2026-11-29-history-reports.md), then times, best of --repeat (and the first, colder): \
            the zone report of the last whole day by hour, all zones (ZoneReport, as GET \
            /v1/venues/{id}/reports/zones computes it); the playback of an hour of that day, all devices, in pages of \
            --page fixes (the store's fixHistory, as GET /v1/venues/{id}/history reads it); one device's hour; and \
            the devices' positions at one instant (?at=). A store that already holds the benchmark's venue is not \
            filled again (--sqlite to keep and reuse a file; a --postgres database is kept).
            """)

    @Option(help: "Days of data.")
    var days = 7.0

    @Option(help: "Devices, a fix a second each.")
    var devices = 50

    @Option(help: "Rooms (zones) of the venue.")
    var zones = 8

    @Option(help: "Fixes per page of the playback.")
    var page = 10_000

    @Option(parsing: .unconditional, help: "Timed runs of each read; the best is reported beside the first.")
    var `repeat` = 3

    @Option(
        help: ArgumentHelp(
            "The SQLite file (kept; reused when it holds the benchmark's venue). Default: a temporary file, deleted.",
            valueName: "path"))
    var sqlite: String?

    @Option(
        help: ArgumentHelp(
            "Also a PostgreSQL database (empty, or holding the benchmark's venue), postgres://user@host:port/db; the "
                + "password in INDOOR_DATABASE_PASSWORD.", valueName: "url"))
    var postgres: String?

    @Flag(help: "Measure only the --postgres database, not SQLite (to fill both at once in two runs).")
    var postgresOnly = false

    @Flag(help: "Print one JSON object.")
    var json = false

    /// What one store measured.
    struct StoreResult: Encodable {
        var store: String
        /// Whether this run filled it (`false`: it held the venue already).
        var filled: Bool
        var fillSeconds: Double?
        var fixes: Int?
        var zoneEvents: Int?
        /// The database's size after the fill, bytes.
        var bytes: Int
        var reportSeconds: Double
        var reportFirstSeconds: Double
        var reportRows: Int
        var reportVisits: Int
        var playbackSeconds: Double
        var playbackFirstSeconds: Double
        var playbackFixes: Int
        var playbackPages: Int
        var devicePlaybackSeconds: Double
        var devicePlaybackFixes: Int
        var instantSeconds: Double
        var instantDevices: Int
    }

    struct Result: Encodable {
        var benchmark = "history"
        var days: Double
        var devices: Int
        var zones: Int
        var reportFrom: Double
        var playbackFrom: Double
        var stores: [StoreResult]
    }

    func validate() throws {
        guard days > 0, days <= 366, devices > 0, zones > 0, page > 0, `repeat` > 0 else {
            throw ValidationError("--days (at most 366), --devices, --zones, --page and --repeat must be positive")
        }
        if postgresOnly && postgres == nil { throw ValidationError("--postgres-only needs --postgres URL") }
    }

    var workload: HistoryWorkload { HistoryWorkload(days: days, devices: devices, zones: zones) }

    /// The day reported: the last whole day of the data (all of it when shorter than a day).
    var reportPeriod: (from: Double, to: Double) {
        let workload = workload
        let whole = Int(days)
        guard whole >= 1 else { return (workload.start, workload.start + Double(workload.seconds)) }
        let from = workload.start + Double(whole - 1) * 86400
        return (from, from + 86400)
    }

    /// The hour played back: from noon of the reported day (or its start, for less than a day), at most an hour.
    var playbackPeriod: (from: Double, to: Double) {
        let day = reportPeriod
        let from = day.to - day.from >= 86400 ? day.from + 12 * 3600 : day.from
        return (from, min(from + 3600, day.to))
    }

    func run() throws {
        let outcome = Mutex<Swift.Result<Result, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let command = self
        Task {
            do {
                let result = try await command.measure()
                outcome.withLock { $0 = .success(result) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        guard let result = try outcome.withLock({ $0 })?.get() else { return }
        if json {
            print(String(decoding: try JSONFormat.encoder().encode(result), as: UTF8.self))
            return
        }
        print("history: \(days) days × \(devices) devices × \(zones) zones")
        for store in result.stores {
            let fill =
                store.filled
                ? String(
                    format: "filled %d fixes, %d zone events in %.1f s", store.fixes ?? 0, store.zoneEvents ?? 0,
                    store.fillSeconds ?? 0) : "reused"
            print(
                "  \(store.store): \(fill); \(store.bytes / 1_000_000) MB; "
                    + String(
                        format:
                            "day report %.3f s (first %.3f s, %d rows, %d visits); hour playback %.3f s (first %.3f s, "
                            + "%d fixes, %d pages); one device's hour %.3f s (%d fixes); at one instant %.3f s (%d "
                            + "devices)",
                        store.reportSeconds, store.reportFirstSeconds, store.reportRows, store.reportVisits,
                        store.playbackSeconds, store.playbackFirstSeconds, store.playbackFixes, store.playbackPages,
                        store.devicePlaybackSeconds, store.devicePlaybackFixes, store.instantSeconds,
                        store.instantDevices))
        }
    }

    /// Fills and times each store.
    func measure() async throws -> Result {
        var stores: [StoreResult] = []
        let temporary = sqlite == nil
        let path =
            sqlite
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "indoor-bench-history-\(UUID().uuidString).sqlite"
            ).path
        defer {
            if temporary {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        }
        if !postgresOnly { stores.append(try await measure(try SQLiteStore(path: path))) }
        if let postgres {
            let url = try PostgresURL(
                postgres, environmentPassword: ProcessInfo.processInfo.environment["INDOOR_DATABASE_PASSWORD"])
            let store = try await PostgresStore.open(url)
            do {
                stores.append(try await measure(store))
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
        return Result(
            days: days, devices: devices, zones: zones, reportFrom: reportPeriod.from,
            playbackFrom: playbackPeriod.from, stores: stores)
    }

    /// Fills `store` (unless it holds the venue) and times the reads.
    func measure(_ store: any LocationStore) async throws -> StoreResult {
        let workload = workload
        let venue = workload.venue
        var filled = false
        var fillSeconds: Double?
        var fixes: Int?
        var zoneEvents: Int?
        if try await store.venue(id: venue.id) == nil {
            let clock = ContinuousClock()
            let start = clock.now
            var counts = (fixes: 0, zone: 0)
            var pending: [IngestBatch] = []
            // A minute per batch, ten batches per transaction (as a venue's waiting batches are committed together).
            var batches = workload.batches(secondsPerBatch: 60)
            while let batch = batches.next() {
                for event in batch.events {
                    if case .fix = event { counts.fixes += 1 } else { counts.zone += 1 }
                }
                pending.append(batch)
                if pending.count == 10 {
                    _ = try await store.commit(batches: pending)
                    pending.removeAll(keepingCapacity: true)
                }
            }
            if !pending.isEmpty { _ = try await store.commit(batches: pending) }
            // The venue last: a store holding it is complete.
            try await store.putVenue(StoredVenue(id: venue.id, json: try venue.encodeJSON()))
            // The planner's statistics as autovacuum would have them by then (taken mid-fill, they know nothing of
            // the last days, and a page of the playback was read by a plan that sorts the whole hour).
            if let postgres = store as? PostgresStore { try await postgres.analyze() }
            filled = true
            fillSeconds = BenchStopwatch.seconds(clock.now - start)
            fixes = counts.fixes
            zoneEvents = counts.zone
        }
        let day = reportPeriod
        var report: ZoneReport?
        let reportTimes = try await timed {
            report = try await ZoneReport.make(store: store, venue: venue, from: day.from, to: day.to, bucket: .hour)
        }
        let hour = playbackPeriod
        var playback = (fixes: 0, pages: 0)
        let playbackTimes = try await timed {
            playback = try await play(store, from: hour.from, to: hour.to, device: nil)
        }
        var one = (fixes: 0, pages: 0)
        let deviceTimes = try await timed {
            one = try await play(store, from: hour.from, to: hour.to, device: "device-0")
        }
        var instant = 0
        let instantTimes = try await timed {
            instant = try await store.fixes(venue: venue.id, at: hour.from + 1800, window: 60, device: nil).count
        }
        return StoreResult(
            store: store.kind, filled: filled, fillSeconds: fillSeconds, fixes: fixes, zoneEvents: zoneEvents,
            bytes: try await store.storage().bytes, reportSeconds: reportTimes.best,
            reportFirstSeconds: reportTimes.first, reportRows: report?.rows.count ?? 0,
            reportVisits: report?.rows.reduce(0) { $0 + $1.visits } ?? 0, playbackSeconds: playbackTimes.best,
            playbackFirstSeconds: playbackTimes.first, playbackFixes: playback.fixes, playbackPages: playback.pages,
            devicePlaybackSeconds: deviceTimes.best, devicePlaybackFixes: one.fixes,
            instantSeconds: instantTimes.best, instantDevices: instant)
    }

    /// Every page of the history of `from ..< to` (one device's, or all), as the route reads it.
    func play(_ store: any LocationStore, from: Double, to: Double, device: String?) async throws -> (
        fixes: Int, pages: Int
    ) {
        var after: FixHistoryPosition?
        var fixes = 0
        var pages = 0
        repeat {
            let page = try await store.fixHistory(
                FixHistoryQuery(venue: "bench", from: from, to: to, device: device, limit: self.page, after: after))
            fixes += page.fixes.count
            pages += 1
            after = page.next
        } while after != nil
        return (fixes, pages)
    }

    /// Wall-clock seconds of `body`, --repeat times: the first and the best.
    func timed(_ body: () async throws -> Void) async throws -> (first: Double, best: Double) {
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<`repeat` {
            let start = clock.now
            try await body()
            times.append(BenchStopwatch.seconds(clock.now - start))
        }
        return (times.first ?? 0, times.min() ?? 0)
    }
}
