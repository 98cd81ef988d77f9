import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which MQTT broker a ``Broker`` runs: the MQTT suites run against ``tested``, chosen by the environment variable
/// `INDOOR_TEST_BROKER` (`mosquitto`, the default, or `amqtt`), so that the same tests hold on a second broker
/// (scripts/test runs them against both).
package enum BrokerKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Debian's mosquitto (MQTT 3.1.1 and 5), anonymous: it keeps sessions of anonymous clients.
    case mosquitto
    /// PyPI's amqtt 0.12 (MQTT 3.1.1 only: an MQTT 5 CONNECT gets no CONNACK), logged in with a password: amqtt keeps
    /// no session of an anonymous client.
    case amqtt

    /// The environment variable that chooses ``tested``.
    package static let environmentVariable = "INDOOR_TEST_BROKER"

    /// The broker the MQTT suites run against: `INDOOR_TEST_BROKER`, mosquitto when unset or empty; nil when it names
    /// no known broker (the suites are then skipped, saying so: ``IndoorServerTestSupport/needsBroker``).
    package static let tested: BrokerKind? = {
        let name = ProcessInfo.processInfo.environment[environmentVariable] ?? ""
        return name.isEmpty ? .mosquitto : BrokerKind(rawValue: name.lowercased())
    }()

    /// ``tested``, or an error naming the bad value of `INDOOR_TEST_BROKER`.
    package static func requireTested() throws -> BrokerKind {
        guard let tested else {
            let name = ProcessInfo.processInfo.environment[environmentVariable] ?? ""
            throw BrokerError(
                "\(environmentVariable)=\(name) names no broker the tests can start: use "
                    + allCases.map(\.rawValue).joined(separator: " or "))
        }
        return tested
    }

    /// The MQTT versions the broker speaks (as `MQTTProtocolVersion` raw values: 4 is 3.1.1, 5 is 5).
    package var protocolLevels: [UInt8] {
        switch self {
        case .mosquitto: [4, 5]
        case .amqtt: [4]
        }
    }

    package var description: String { rawValue }

    /// Whether the broker's programs are installed: mosquitto's server, `mosquitto_pub` and `mosquitto_passwd`; for
    /// amqtt its `amqtt` program and `mosquitto_pub` (the tests' other publisher, logged in).
    package var isInstalled: Bool {
        switch self {
        case .mosquitto:
            [Broker.executable, Broker.publisher, Broker.passwordTool].allSatisfy {
                FileManager.default.isExecutableFile(atPath: $0)
            }
        case .amqtt:
            Broker.amqttExecutable != nil && FileManager.default.isExecutableFile(atPath: Broker.publisher)
        }
    }

    /// What to install for the broker, for a skipped test's comment.
    package var installHint: String {
        switch self {
        case .mosquitto:
            "install Debian's mosquitto and mosquitto-clients (apt-get install mosquitto mosquitto-clients; CI "
                + "installs them)"
        case .amqtt:
            "install amqtt (pip install 'amqtt>=0.12,<0.13') and Debian's mosquitto-clients (CI installs them)"
        }
    }
}

/// An MQTT broker on a free loopback port, for one test: mosquitto or amqtt (``BrokerKind``, by default the one
/// `INDOOR_TEST_BROKER` names). Its configuration, log, password file and certificates live in a temporary
/// directory, removed with the broker. Clients log in with ``username`` and ``password`` (nil for mosquitto, which
/// takes anonymous clients unless `requiresLogin`; set for amqtt, which keeps sessions only of clients logged in);
/// ``url`` and ``environment`` give them to `indoor serve` and `indoor gateway`.
///
/// Tests need the broker's programs (``BrokerKind/isInstalled``; CI installs them); a test marked ``needsBroker``
/// is skipped without them, saying so, and `init` throws naming what is missing.
package final class Broker {
    package static let executable = "/usr/sbin/mosquitto"
    package static let publisher = "/usr/bin/mosquitto_pub"
    package static let passwordTool = "/usr/bin/mosquitto_passwd"
    /// The user and password a broker that requires a login takes (its password file holds only them): amqtt always,
    /// mosquitto when asked (`requiresLogin`).
    package static let loginUser = "indoor"
    package static let loginPassword = "s3cret"

    /// Which broker runs.
    package let kind: BrokerKind
    /// The broker's TCP port on 127.0.0.1.
    package let port: Int
    /// The temporary directory of the configuration, log, password file and certificates.
    package let directory: URL
    /// The user name clients log in with; nil: anonymous.
    package let username: String?
    /// The password clients log in with (given to `indoor` in `INDOOR_MQTT_PASSWORD`: ``environment``).
    package let password: String?
    private let configLines: [String]
    private var process: Process?

    /// Starts a broker of `kind` (by default ``BrokerKind/tested``), on `port` or a free one. amqtt always takes only
    /// ``loginUser`` with ``loginPassword``; mosquitto only when `requiresLogin` (a password file, and
    /// `allow_anonymous false`), else anonymous clients. mosquitto only: `extraConfig` lines go into its configuration
    /// file after the listener line (amqtt refuses them).
    package init(
        kind: BrokerKind? = nil, requiresLogin: Bool = false, extraConfig: [String] = [], directory: URL? = nil,
        port: Int? = nil
    ) throws {
        let kind = try kind ?? BrokerKind.requireTested()
        self.kind = kind
        self.port = try port ?? Self.freePort()
        self.directory = try directory ?? Self.temporaryDirectory()
        switch kind {
        case .mosquitto:
            try Self.requireInstalled(Self.executable)
            var lines = [
                "listener \(self.port) 127.0.0.1", "allow_anonymous \(!requiresLogin)", "persistence false",
                "max_queued_messages 100000", "log_type all",
            ]
            if getuid() == 0 { lines.append("user root") }  // else it drops to user mosquitto and cannot read our files
            if requiresLogin {
                let passwords = self.directory.appendingPathComponent("passwords").path
                try Self.requireInstalled(Self.passwordTool)
                try Self.runTool(Self.passwordTool, ["-b", "-c", passwords, Self.loginUser, Self.loginPassword])
                lines.append("password_file \(passwords)")
            }
            configLines = lines + extraConfig
            username = requiresLogin ? Self.loginUser : nil
            password = requiresLogin ? Self.loginPassword : nil
        case .amqtt:
            guard extraConfig.isEmpty else {
                throw BrokerError("extraConfig is mosquitto's configuration; amqtt takes none: \(extraConfig)")
            }
            guard Self.amqttExecutable != nil else {
                throw BrokerError("amqtt is not installed: \(BrokerKind.amqtt.installHint)")
            }
            let passwords = self.directory.appendingPathComponent("passwords")
            try "\(Self.loginUser):\(try Self.amqttPasswordHash.get())\n".write(
                to: passwords, atomically: true, encoding: .utf8)
            configLines = [
                "listeners:", "  default:", "    type: tcp", "    bind: 127.0.0.1:\(self.port)", "plugins:",
                "  amqtt.plugins.authentication.FileAuthPlugin:", "    password_file: \(passwords.path)",
            ]
            username = Self.loginUser
            password = Self.loginPassword
        }
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The broker's URL for `indoor serve --mqtt` and `indoor gateway --mqtt`: `mqtt://[user@]127.0.0.1:port` (the
    /// password goes in ``environment``).
    package var url: String { url(port: port) }

    /// ``url`` with another port (a proxy's in front of the broker).
    package func url(port: Int) -> String {
        "mqtt://\(username.map { "\($0)@" } ?? "")127.0.0.1:\(port)"
    }

    /// The environment `indoor` needs beside ``url``: `INDOOR_MQTT_PASSWORD` when clients log in.
    package var environment: [String: String] {
        password.map { ["INDOOR_MQTT_PASSWORD": $0] } ?? [:]
    }

    /// ``url`` and ``environment`` of a broker of `kind` (by default ``BrokerKind/tested``) on `port`, before it is
    /// started.
    package static func address(
        port: Int, kind: BrokerKind? = nil, requiresLogin: Bool = false
    ) -> (url: String, environment: [String: String]) {
        let logsIn = requiresLogin || (kind ?? BrokerKind.tested) == .amqtt
        return (
            "mqtt://\(logsIn ? "\(loginUser)@" : "")127.0.0.1:\(port)",
            logsIn ? ["INDOOR_MQTT_PASSWORD": loginPassword] : [:]
        )
    }

    /// The `amqtt` program on the PATH, if installed (`pip install amqtt`).
    package static var amqttExecutable: URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("amqtt") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// ``loginPassword`` hashed with argon2 as amqtt's `FileAuthPlugin` reads it (by pwdlib, installed with amqtt),
    /// once per test process: hashing takes a Python start.
    private static let amqttPasswordHash: Result<String, BrokerError> = Result {
        try python(
            "from pwdlib import PasswordHash; from pwdlib.hashers.argon2 import Argon2Hasher; "
                + "print(PasswordHash((Argon2Hasher(),)).hash('\(loginPassword)'))")
    }.mapError { $0 as? BrokerError ?? BrokerError("\($0)") }

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

    package static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "indoor-mqtt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    package static func requireInstalled(_ path: String) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BrokerError(
                "\(path) is not installed: the MQTT tests need a real broker; install Debian's packages "
                    + "`mosquitto` and `mosquitto-clients` (apt-get install mosquitto mosquitto-clients; CI installs them)"
            )
        }
    }

    /// The name of the broker's configuration and log files in ``directory``.
    private var fileStem: String { kind.rawValue }

    /// Starts (or starts again, on the same port) and waits until the port accepts connections.
    package func start() throws {
        let configPath = directory.appendingPathComponent(kind == .mosquitto ? "mosquitto.conf" : "amqtt.yaml").path
        try (configLines.joined(separator: "\n") + "\n").write(toFile: configPath, atomically: true, encoding: .utf8)
        let logPath = directory.appendingPathComponent("\(fileStem).log").path
        if !FileManager.default.fileExists(atPath: logPath) {
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        log.seekToEndOfFile()
        let process = Process()
        switch kind {
        case .mosquitto: process.executableURL = URL(fileURLWithPath: Self.executable)
        case .amqtt:
            guard let executable = Self.amqttExecutable else {
                throw BrokerError("amqtt is not installed: \(BrokerKind.amqtt.installHint)")
            }
            process.executableURL = executable
        }
        process.arguments = ["-c", configPath]
        process.standardOutput = log
        process.standardError = log
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if !process.isRunning {
                throw BrokerError("\(kind) exited with status \(process.terminationStatus); its log:\n\(self.log)")
            }
            if Self.accepts(port: port) { return }
            usleep(20_000)
        }
        stop()
        throw BrokerError("\(kind) did not accept connections on port \(port) within 30 s; its log:\n\(self.log)")
    }

    /// Stops the broker and waits for it to exit. SIGKILL, not SIGTERM: mosquitto keeps the signal mask it
    /// was started with, and a test runner's threads may block SIGTERM, so SIGTERM may never arrive (and the
    /// broker keeps no state worth a clean exit here: persistence is off; amqtt keeps sessions in memory only).
    package func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Freezes (true) or thaws (false) the broker process, to make it stop answering without closing sockets.
    package func suspend(_ suspended: Bool) {
        guard let process else { return }
        kill(process.processIdentifier, suspended ? SIGSTOP : SIGCONT)
    }

    package var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("\(fileStem).log"), encoding: .utf8)) ?? ""
    }

    /// Publishes with `mosquitto_pub` (another client than the one under test), logged in as ``username``; in MQTT 5
    /// when `version5` and the broker speaks it (amqtt does not: it gets MQTT 3.1.1).
    package func publish(topic: String, message: String, qos: Int = 1, version5: Bool = false) throws {
        try Self.requireInstalled(Self.publisher)
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-m", message, "-q", "\(qos)"]
        if version5 && kind.protocolLevels.contains(5) { arguments += ["-V", "mqttv5"] }
        if let username { arguments += ["-u", username] }
        if let password { arguments += ["-P", password] }
        try Self.runTool(Self.publisher, arguments)
    }

    /// Writes a mosquitto password file with one user; returns its path.
    package func writePasswordFile(user: String, password: String) throws -> String {
        guard kind == .mosquitto else { throw BrokerError("a password file of mosquitto's form: \(kind) has its own") }
        try Self.requireInstalled(Self.passwordTool)
        let path = directory.appendingPathComponent("passwords").path
        try Self.runTool(Self.passwordTool, ["-b", "-c", path, user, password])
        return path
    }

    package static func runTool(_ path: String, _ arguments: [String], in directory: URL? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BrokerError(
                "\(path) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(text)")
        }
    }

    /// A port on 127.0.0.1 that was free a moment ago (bound to port 0, then closed).
    package static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BrokerError("socket() failed: \(errno)") }
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw BrokerError("bind() failed: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw BrokerError("getsockname() failed: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    package static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return connected == 0
    }

    package static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

/// A broker that could not be started or used, with what to do about it.
package struct BrokerError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
