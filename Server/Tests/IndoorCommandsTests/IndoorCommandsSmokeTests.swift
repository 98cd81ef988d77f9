import ArgumentParser
import Testing

@testable import IndoorBenchmarks
@testable import IndoorCommands

@Suite("indoor")
struct IndoorCommandsSmokeTests {
    @Test func helpListsTheSubcommands() {
        let help = IndoorCommand.helpMessage()
        for name in ["demo", "simulate", "evaluate", "decode", "replay", "scan", "serve"] {
            #expect(help.contains("  \(name) "), "help lacks '\(name)'")
        }
    }

    @Test func subcommandsParseByName() throws {
        #expect(try IndoorCommand.parseAsRoot(["demo", "--seed", "7"]) is DemoCommand)
        #expect(try IndoorCommand.parseAsRoot(["evaluate", "/tmp/x", "--json"]) is EvaluateCommand)
        #expect(try IndoorCommand.parseAsRoot(["simulate", "-o", "/tmp/x"]) is SimulateCommand)
        #expect(try BenchCommand.parseAsRoot(["decode", "--count", "10"]) is BenchDecodeCommand)
        #expect(throws: (any Error).self) { try IndoorCommand.parseAsRoot(["bench", "decode"]) }
    }

    // Wrong arguments are usage errors (status 64); files that cannot be used are plain failures (status 1).
    @Test func exitCodes() throws {
        let usage = try #require(throws: (any Error).self) {
            try IndoorCommand.parseAsRoot(["simulate", "-o", "x", "--floors", "0"])
        }
        #expect(IndoorCommand.exitCode(for: usage) == .validationFailure)
        #expect(IndoorCommand.exitCode(for: CommandFailure("no such file")) == .failure)
        #expect(IndoorCommand.message(for: CommandFailure("x.log: no such file")) == "x.log: no such file")
    }
}
