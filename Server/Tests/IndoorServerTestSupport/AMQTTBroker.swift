import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An amqtt broker (PyPI's `amqtt`, a second broker beside mosquitto) on a free loopback port, with a password file
/// so that it keeps sessions: the MQTT client against a broker that behaves otherwise (slow to accept while it hashes
/// the password, no MQTT 5). Its configuration and password file live in a temporary directory, removed with it.
package final class AMQTTBroker {
    /// The user and password the broker takes.
    package static let user = "indoor"
    package static let password = "s3cret"

    /// The broker's TCP port on 127.0.0.1.
    package let port: Int
    package let directory: URL
    private var process: Process?

    /// The `amqtt` program on the PATH, if installed (`pip install amqtt`).
    package static var executable: URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("amqtt") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Starts amqtt with a password file of ``user``, its password hashed with argon2 as amqtt's `FileAuthPlugin`
    /// reads it.
    package init() throws {
        guard let executable = Self.executable else {
            throw BrokerError("amqtt is not installed: pip install 'amqtt>=0.12,<0.13' (CI installs it)")
        }
        port = try Broker.freePort()
        directory = try Broker.temporaryDirectory()
        let passwords = directory.appendingPathComponent("passwords")
        let hash = try Self.python(
            "from pwdlib import PasswordHash; from pwdlib.hashers.argon2 import Argon2Hasher; "
                + "print(PasswordHash((Argon2Hasher(),)).hash('\(Self.password)'))")
        try "\(Self.user):\(hash)\n".write(to: passwords, atomically: true, encoding: .utf8)
        let config = """
            listeners:
              default:
                type: tcp
                bind: 127.0.0.1:\(port)
            plugins:
              amqtt.plugins.authentication.FileAuthPlugin:
                password_file: \(passwords.path)
            """
        let configURL = directory.appendingPathComponent("amqtt.yaml")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-c", configURL.path]
        let log = directory.appendingPathComponent("amqtt.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if !process.isRunning { throw BrokerError("amqtt exited (\(process.terminationStatus)): \(self.log)") }
            if Broker.accepts(port: port) { return }
            usleep(50_000)
        }
        stop()
        throw BrokerError("amqtt did not accept connections on port \(port) within 30 s: \(self.log)")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    package func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    package var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("amqtt.log"), encoding: .utf8)) ?? ""
    }

    /// The first line `python3 -c code` prints.
    private static func python(_ code: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", code]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let line = text.split(separator: "\n").first else {
            throw BrokerError("python3 could not hash a password with pwdlib (installed with amqtt)")
        }
        return String(line)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where amqtt is installed (``AMQTTBroker``); skipped elsewhere, saying what to install.
    package static var needsAMQTT: Self {
        .enabled(
            if: AMQTTBroker.executable != nil,
            "needs amqtt, a second MQTT broker: pip install 'amqtt>=0.12,<0.13' (CI installs it)")
    }
}
