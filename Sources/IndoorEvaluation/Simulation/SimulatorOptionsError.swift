/// Simulator options that cannot be simulated (for example a truth interval of 0 s or no floors).
struct SimulatorOptionsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One line per unusable option, as ``SimulatorOptions/problems`` lists them.
    var problems: [String]

    init(problems: [String]) {
        self.problems = problems
    }

    var description: String {
        "unusable simulator options: \(problems.joined(separator: "; "))"
    }
}
