import Foundation
import Synchronization

/// Batches of sightings waiting on disk to be acknowledged, oldest first, in a folder.
///
/// A batch is the file `batch-<sequence, 20 digits>-<sightings>.json` (a JSON array of ``ForwardedSighting``),
/// written first as `.batch-….json.tmp` and renamed into place, so a half-written batch is never read. A batch is
/// deleted only by ``remove(_:)`` (once the server acknowledged it) or ``enqueue(_:)`` (the oldest beyond the
/// bound). Only files named so are ever read, renamed or deleted: anything else in the folder is left alone.
/// Safe to share between the reading thread and the sending task.
final class DiskQueue: Sendable {
    /// One queued batch.
    struct Batch: Hashable, Sendable {
        /// The order of the batch; higher is newer.
        var sequence: UInt64
        /// How many sightings it holds.
        var count: Int
        /// Its size on disk, bytes.
        var bytes: Int
        /// Its file name in the folder.
        var name: String { String(format: "batch-%020llu-%d.json", sequence, count) }
    }

    /// What ``enqueue(_:)`` had to drop to stay within the bound.
    struct Dropped: Hashable, Sendable {
        var batches = 0
        var sightings = 0
    }

    private struct State {
        var batches: [Batch] = []
        var nextSequence: UInt64 = 1
        var totalBytes = 0
        /// The batch being sent now: never dropped for the bound.
        var sending: UInt64?
    }

    /// The queue folder.
    let folder: URL
    /// The most bytes the queued batches may take; beyond it the oldest are dropped (the newest one is kept).
    let limitBytes: Int
    private let state = Mutex(State())

    /// Opens (creating it when missing) the queue in `folder` and finds the batches a previous run left there.
    ///
    /// Temporary files a previous run left half-written (`.batch-….json.tmp`) are removed.
    /// - Throws: ``GatewayFailure`` naming the folder (`--queue`) when it cannot be created or read.
    init(folder: URL, limitBytes: Int) throws(GatewayFailure) {
        self.folder = folder
        self.limitBytes = limitBytes
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw GatewayFailure("--queue '\(folder.path)': \(CommandFailure.cannotCreateFolder(folder.path, error))")
        }
        guard manager.isWritableFile(atPath: folder.path) else {
            throw GatewayFailure("--queue '\(folder.path)': the folder is not writable")
        }
        let names: [String]
        do {
            names = try manager.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw GatewayFailure("--queue '\(folder.path)': cannot be read: \(CommandFailure.reason(error))")
        }
        var found: [Batch] = []
        for name in names {
            if name.hasPrefix(".batch-"), name.hasSuffix(".json.tmp"),
                Self.parse(String(name.dropFirst().dropLast(4))) != nil
            {
                try? manager.removeItem(at: folder.appendingPathComponent(name))
                continue
            }
            guard var batch = Self.parse(name) else { continue }
            let size = (try? manager.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size]) as? Int
            batch.bytes = size ?? 0
            found.append(batch)
        }
        found.sort { $0.sequence < $1.sequence }
        let existing = found
        state.withLock { state in
            state.batches = existing
            state.totalBytes = existing.reduce(0) { $0 + $1.bytes }
            state.nextSequence = (existing.last?.sequence ?? 0) + 1
        }
    }

    /// The batch named `name`, or nil when the name is not one this queue writes.
    static func parse(_ name: String) -> Batch? {
        guard name.hasPrefix("batch-"), name.hasSuffix(".json") else { return nil }
        let parts = name.dropFirst("batch-".count).dropLast(".json".count).split(
            separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 20, parts[0].allSatisfy(\.isASCII),
            let sequence = UInt64(parts[0]), let count = Int(parts[1]), count >= 0, String(count) == parts[1]
        else { return nil }
        return Batch(sequence: sequence, count: count, bytes: 0)
    }

    /// Batches queued now.
    var count: Int { state.withLock { $0.batches.count } }
    /// Sightings queued now.
    var sightingCount: Int { state.withLock { $0.batches.reduce(0) { $0 + $1.count } } }
    /// Bytes queued now.
    var totalBytes: Int { state.withLock { $0.totalBytes } }

    /// Writes a batch (temporary file, then rename) and drops the oldest batches while the queue is over its bound.
    ///
    /// - Returns: What was dropped.
    /// - Throws: ``GatewayFailure`` naming the file when it cannot be written (the batch is not queued).
    func enqueue(_ sightings: [ForwardedSighting]) throws(GatewayFailure) -> Dropped {
        let sequence = state.withLock { state in
            defer { state.nextSequence += 1 }
            return state.nextSequence
        }
        var batch = Batch(sequence: sequence, count: sightings.count, bytes: 0)
        let file = folder.appendingPathComponent(batch.name)
        let temporary = folder.appendingPathComponent("." + batch.name + ".tmp")
        do {
            let data = try JSONEncoder().encode(sightings)
            batch.bytes = data.count
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw GatewayFailure("cannot write the queued batch '\(temporary.path)': \(CommandFailure.reason(error))")
        }
        guard rename(temporary.path, file.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw GatewayFailure("cannot rename the queued batch into '\(file.path)': \(reason)")
        }
        let victims = state.withLock { state in
            state.batches.append(batch)
            state.totalBytes += batch.bytes
            var victims: [Batch] = []
            var index = 0
            while state.totalBytes > limitBytes, index < state.batches.count - 1 {
                let oldest = state.batches[index]
                if oldest.sequence == state.sending {
                    index += 1
                    continue
                }
                state.batches.remove(at: index)
                state.totalBytes -= oldest.bytes
                victims.append(oldest)
            }
            return victims
        }
        var dropped = Dropped()
        for victim in victims {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(victim.name))
            dropped.batches += 1
            dropped.sightings += victim.count
        }
        return dropped
    }

    /// The oldest batch and its sightings, marked as being sent (so the bound does not drop it meanwhile); nil when
    /// the queue is empty.
    ///
    /// A batch file that cannot be read or parsed is dropped (it is reported as the second value).
    func oldest() -> (Batch, [ForwardedSighting])? {
        while true {
            guard
                let batch = state.withLock({ state -> Batch? in
                    state.sending = state.batches.first?.sequence
                    return state.batches.first
                })
            else { return nil }
            let file = folder.appendingPathComponent(batch.name)
            if let data = try? Data(contentsOf: file),
                let sightings = try? JSONDecoder().decode([ForwardedSighting].self, from: data)
            {
                return (batch, sightings)
            }
            // Unreadable: written by this queue, so it may go; sending it again could never work.
            remove(batch)
        }
    }

    /// Deletes an acknowledged (or refused, or unreadable) batch.
    func remove(_ batch: Batch) {
        let removed = state.withLock { state in
            if state.sending == batch.sequence { state.sending = nil }
            guard let index = state.batches.firstIndex(where: { $0.sequence == batch.sequence }) else { return false }
            state.totalBytes -= state.batches[index].bytes
            state.batches.remove(at: index)
            return true
        }
        if removed { try? FileManager.default.removeItem(at: folder.appendingPathComponent(batch.name)) }
    }
}
