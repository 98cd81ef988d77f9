import Dispatch
import Foundation

/// The temporary files and folders of ``OutputFile`` and ``OutputFolder`` that exist right now, removed when the
/// run is interrupted.
///
/// The first registration installs handlers for SIGINT, SIGTERM and SIGHUP (as dispatch sources, so the removal
/// runs on a queue, not inside a signal handler). A handler removes every registered path, then restores the
/// default action and sends the signal again to the process, so the process ends with the status the signal gives.
package final class TemporaryFiles: @unchecked Sendable {
    /// The one registry of the process.
    package static let shared = TemporaryFiles()

    // `@unchecked Sendable`: every stored property is read and written with `lock` held.
    private let lock = NSLock()
    private var paths: Set<String> = []
    private var sources: [any DispatchSourceSignal] = []

    private init() {}

    /// Notes a temporary path to remove if the run is interrupted.
    package func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths.insert(path)
        if sources.isEmpty { installHandlers() }
    }

    /// Forgets a path that was renamed into place or removed.
    package func unregister(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths.remove(path)
    }

    /// The paths registered now (for tests).
    var registered: Set<String> {
        lock.lock()
        defer { lock.unlock() }
        return paths
    }

    /// Removes every registered path (files, or folders with what is in them).
    func removeAll() {
        lock.lock()
        let pending = paths
        paths.removeAll()
        lock.unlock()
        for path in pending { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Called with `lock` held.
    private func installHandlers() {
        let queue = DispatchQueue(label: "indoor.temporary-files")
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [weak self] in
                self?.removeAll()
                signal(signalNumber, SIG_DFL)
                // To the process, not this thread: dispatch's threads block signals, the main thread does not.
                kill(getpid(), signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}
