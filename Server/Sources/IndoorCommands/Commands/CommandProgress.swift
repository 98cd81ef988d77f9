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
    private let output: (String) -> Void

    /// - Parameters:
    ///   - interactive: Whether standard error is a terminal (found out when nil).
    ///   - output: Where the text goes (standard error unless a test says otherwise).
    init(
        label: String, interactive: Bool? = nil,
        output: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.label = label
        self.output = output
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
        show(Self.line(label: label, task: task, done: done, total: total))
    }

    /// Writes `line` now: in place on a terminal, as a line of its own otherwise.
    func show(_ line: String) {
        output(interactive ? "\r" + line + "\u{1B}[K" : line + "\n")
        wroteLine = true
    }

    /// Clears the progress line written in place, if there is one, so that what is printed next (the results)
    /// starts on a clean line. Does nothing when standard error is not a terminal, or when called again.
    func finish() {
        if interactive && wroteLine { output("\r\u{1B}[K") }
        wroteLine = false
    }

    /// `evaluate: knn 45% (110/244)`.
    static func line(label: String, task: String, done: Int, total: Int) -> String {
        let percent = total > 0 ? min(100, max(0, done) * 100 / total) : 100
        return "\(label): \(task) \(percent)% (\(done)/\(total))"
    }
}
