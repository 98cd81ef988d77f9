import Foundation

/// Progress of a long run on standard error, and only once the run has taken a second.
///
/// On a terminal one line is rewritten in place at most twice a second; when standard error is a file or a
/// pipe (a CI log), a plain line is written after the first second and then at most every 10 s, so the log stays readable.
final class CommandProgress {
    private let label: String
    private let interactive: Bool
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastReport: ContinuousClock.Instant
    private var wroteLine = false

    /// - Parameter interactive: whether standard error is a terminal (found out when nil).
    init(label: String, interactive: Bool? = nil) {
        self.label = label
        self.interactive = interactive ?? (isatty(STDERR_FILENO) != 0)
        self.start = clock.now
        self.lastReport = clock.now
    }

    /// Notes that `done` of `total` steps of `task` are finished.
    func report(_ task: String, _ done: Int, _ total: Int) {
        let now = clock.now
        let interval: Duration = interactive ? .milliseconds(500) : .seconds(10)
        guard now - start > .seconds(1),
            !wroteLine || now - lastReport > interval || (interactive && done == total)
        else { return }
        lastReport = now
        let line = Self.line(label: label, task: task, done: done, total: total)
        write(interactive ? "\r" + line + "\u{1B}[K" : line + "\n")
        wroteLine = true
    }

    /// Ends the progress line, if one was written in place.
    func finish() {
        if interactive && wroteLine { write("\n") }
    }

    /// `evaluate: knn 45% (110/244)`.
    static func line(label: String, task: String, done: Int, total: Int) -> String {
        let percent = total > 0 ? min(100, max(0, done) * 100 / total) : 100
        return "\(label): \(task) \(percent)% (\(done)/\(total))"
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
