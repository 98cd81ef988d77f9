/// Simulator options that cannot be simulated (for example a truth interval of 0 s or no floors).
public struct SimulatorOptionsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One line per unusable option, as ``SimulatorOptions/problems`` lists them.
    public var problems: [String]

    public init(problems: [String]) {
        self.problems = problems
    }

    public var description: String {
        "unusable simulator options: \(problems.joined(separator: "; "))"
    }
}
