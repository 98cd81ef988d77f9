import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mosquitto broker on a free loopback port, for one test: its configuration, password file and
/// certificates live in a temporary directory, removed with the broker.
///
/// Tests need Debian's `mosquitto` and `mosquitto-clients` (CI installs them); a test marked ``needsBroker`` is
/// skipped without them, saying so, and `start` throws naming what is missing.
package final class Broker {
    package static let executable = "/usr/sbin/mosquitto"
    package static let publisher = "/usr/bin/mosquitto_pub"
    package static let passwordTool = "/usr/bin/mosquitto_passwd"

    /// The broker's TCP port on 127.0.0.1.
    package let port: Int
    /// The temporary directory of the configuration, log, password file and certificates.
    package let directory: URL
    private let configLines: [String]
    private var process: Process?

    /// Starts a broker, on `port` or a free one; `extraConfig` lines go into its configuration file after the
    /// listener line, and `allowAnonymous` decides `allow_anonymous`.
    package init(
        extraConfig: [String] = [], allowAnonymous: Bool = true, directory: URL? = nil, port: Int? = nil
    ) throws {
        try Self.requireInstalled(Self.executable)
        self.port = try port ?? Self.freePort()
        self.directory = try directory ?? Self.temporaryDirectory()
        var lines = [
            "listener \(self.port) 127.0.0.1", "allow_anonymous \(allowAnonymous)", "persistence false",
            "max_queued_messages 100000", "log_type all",
        ]
        if getuid() == 0 { lines.append("user root") }  // else it drops to user mosquitto and cannot read our files
        configLines = lines + extraConfig
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    package static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "indoor-mqtt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Whether Debian's `mosquitto` and `mosquitto-clients` are installed (the tests that need a broker are skipped,
    /// saying so, when they are not: ``IndoorServerTestSupport/needsBroker``).
    package static var isInstalled: Bool {
        [executable, publisher, passwordTool].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    package static func requireInstalled(_ path: String) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BrokerError(
                "\(path) is not installed: the MQTT tests need a real broker; install Debian's packages "
                    + "`mosquitto` and `mosquitto-clients` (apt-get install mosquitto mosquitto-clients; CI installs them)"
            )
        }
    }

    /// Starts (or starts again, on the same port) and waits until the port accepts connections.
    package func start() throws {
        let configPath = directory.appendingPathComponent("mosquitto.conf").path
        try (configLines.joined(separator: "\n") + "\n").write(toFile: configPath, atomically: true, encoding: .utf8)
        let logPath = directory.appendingPathComponent("mosquitto.log").path
        if !FileManager.default.fileExists(atPath: logPath) {
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        log.seekToEndOfFile()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-c", configPath]
        process.standardOutput = log
        process.standardError = log
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if !process.isRunning {
                throw BrokerError("mosquitto exited with status \(process.terminationStatus); its log:\n\(self.log)")
            }
            if Self.accepts(port: port) { return }
            usleep(20_000)
        }
        stop()
        throw BrokerError("mosquitto did not accept connections on port \(port) within 30 s; its log:\n\(self.log)")
    }

    /// Stops the broker and waits for it to exit. SIGKILL, not SIGTERM: mosquitto keeps the signal mask it
    /// was started with, and a test runner's threads may block SIGTERM, so SIGTERM may never arrive (and the
    /// broker keeps no state worth a clean exit here: persistence is off).
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
        (try? String(contentsOf: directory.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? ""
    }

    /// Publishes with `mosquitto_pub` (another client than the one under test).
    package func publish(topic: String, message: String, qos: Int = 1, version5: Bool = false) throws {
        try Self.requireInstalled(Self.publisher)
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-m", message, "-q", "\(qos)"]
        if version5 { arguments += ["-V", "mqttv5"] }
        try Self.runTool(Self.publisher, arguments)
    }

    /// Writes a mosquitto password file with one user; returns its path.
    package func writePasswordFile(user: String, password: String) throws -> String {
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
