import ArgumentParser
import IndoorPositioning
import Testing

@testable import IndoorBenchmarks
@testable import IndoorCommands

/// Numbers out of range get the range message (status 64), also when negative or written as `1e12`.
@Suite("numeric options")
struct NumericOptionsTests {
    @Test(arguments: [
        (["simulate", "-o", "/tmp/x", "--floors", "-1"], "floors must be 1...50"),
        (["simulate", "-o", "/tmp/x", "--sigma", "-1"], "sigma must be 0...30 dB"),
        (["simulate", "-o", "/tmp/x", "--devices", "-3"], "devices must be 0...10000"),
        (["bench", "decode", "--count", "1e12"], "--count must be 1...100000000"),
        (["bench", "decode", "--count", "1000000000000"], "--count must be 1...100000000"),
        (["bench", "decode", "--count", "-5"], "--count must be 1...100000000"),
        (["bench", "decode", "--repeat", "-1"], "--repeat must be positive"),
        (["evaluate", "/tmp/x", "--limit", "-3"], "--limit must be at least 1"),
        (["evaluate", "/tmp/x", "--tuning", "speed=0"], "--tuning: speed must be more than 0 (got 0.0)"),
        (
            ["evaluate", "/tmp/x", "--tuning", "dense-minimum=4.5"],
            "--tuning: dense-minimum must be a whole number 1 to 1000 (got 4.5)"
        ),
        (["evaluate", "/tmp/x", "--tuning", "speed"], "--tuning takes name=value, a number after '=' (got 'speed')"),
    ])
    func outOfRange(arguments: [String], message: String) throws {
        let error = try #require(throws: (any Error).self) {
            // `indoor-bench` is a command of its own: its arguments here start with "bench".
            if arguments.first == "bench" {
                _ = try BenchCommand.parseAsRoot(Array(arguments.dropFirst()))
            } else {
                _ = try IndoorCommand.parseAsRoot(arguments)
            }
        }
        #expect(IndoorCommand.message(for: error) == message)
        #expect(IndoorCommand.exitCode(for: error) == .validationFailure)
    }

    @Test func exponentFormIsAWholeNumber() throws {
        let command = try #require(
            try BenchCommand.parseAsRoot(["decode", "--count", "2e6"]) as? BenchDecodeCommand)
        #expect(command.count == 2_000_000)
        #expect(throws: (any Error).self) { try BenchCommand.parseAsRoot(["decode", "--count", "2.5"]) }
    }

    @Test func evaluateHelpNamesEveryTuningParameter() {
        let help = IndoorCommand.helpMessage(for: EvaluateCommand.self, columns: 400)
        for name in DefaultTuning.names { #expect(help.contains("\(name):"), "\(name)") }
    }

    @Test func forceIsExplainedInEachCommandsHelp() {
        let commands: [(root: any ParsableCommand.Type, command: any ParsableCommand.Type)] = [
            (IndoorCommand.self, SimulateCommand.self), (IndoorCommand.self, EvaluateCommand.self),
            (IndoorCommand.self, CalibrateCommand.self), (IndoorCommand.self, DecodeCommand.self),
            (BenchCommand.self, BenchDecodeCommand.self),
        ]
        for (root, command) in commands {
            let help = root.helpMessage(for: command, columns: 200)
            #expect(help.contains("--force"), "\(command) help lacks --force")
            #expect(help.contains("renamed into place") || help.contains("swapped into place"), "\(command)")
        }
    }
}
