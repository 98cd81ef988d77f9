import Foundation
import IndoorModel
import IndoorServer
import Synchronization

/// The sighting writes of `indoor-bench ingest`: batches committed to a fresh SQLite store (sightings only, no
/// events), row by row or with multi-row `INSERT`s.
enum SQLiteCommitBench {
    /// Sightings/s committing `batches` to a new database in a temporary folder, `rowsPerInsert` rows a statement.
    static func sightingsPerSecond(_ batches: [[Sighting]], venue: String, rowsPerInsert: Int) throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(
            path: folder.appendingPathComponent("bench.sqlite").path, durability: .normal,
            sightingRowsPerInsert: rowsPerInsert)
        let outcome = Mutex<Result<Double, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let clock = ContinuousClock()
                let start = clock.now
                var count = 0
                for batch in batches {
                    _ = try await store.commit(IngestBatch(venue: venue, sightings: batch, events: [], receivedAt: 0))
                    count += batch.count
                }
                let seconds = BenchStopwatch.seconds(clock.now - start)
                outcome.withLock { $0 = .success(Double(count) / seconds) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0 }?.get() ?? 0
    }

    /// Commits `batch` to `store` and waits for it: the store's work of one `POST /v1/sightings`, from a loop
    /// that is not async (`indoor-bench ingest`'s in-process run with the store).
    /// - Returns: The events stored.
    /// - Throws: What the store throws.
    static func commit(_ batch: IngestBatch, to store: SQLiteStore) throws -> Int {
        let outcome = Mutex<Result<Int, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let stored = try await store.commit(batch)
                outcome.withLock { $0 = .success(stored.count) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0 }?.get() ?? 0
    }

    /// A new store in a new temporary folder, and the folder to remove after.
    static func temporaryStore() throws -> (store: SQLiteStore, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: folder.appendingPathComponent("bench.sqlite").path, durability: .normal)
        return (store, folder)
    }
}
