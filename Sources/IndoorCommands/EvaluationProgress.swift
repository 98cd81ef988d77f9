import Foundation

/// Progress of a long run on standard error: at most twice a second, and only once the run has taken a second.
final class EvaluationProgress {
    private let label: String
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastReport: ContinuousClock.Instant
    private var wroteLine = false

    init(label: String) {
        self.label = label
        self.start = clock.now
        self.lastReport = clock.now
    }

    /// Notes that `done` of `total` steps of `task` are finished.
    func report(_ task: String, _ done: Int, _ total: Int) {
        let now = clock.now
        guard now - start > .seconds(1), now - lastReport > .milliseconds(500) || done == total else { return }
        lastReport = now
        let percent = total > 0 ? done * 100 / total : 100
        write("\r\(label): \(task) \(percent)% (\(done)/\(total))\u{1B}[K")
        wroteLine = true
    }

    /// Ends the progress line, if one was written.
    func finish() {
        if wroteLine { write("\n") }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
