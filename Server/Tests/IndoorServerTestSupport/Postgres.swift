import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A throw-away PostgreSQL cluster on a free loopback port, for the tests of the PostgreSQL store: made with Debian's
/// `initdb` in a temporary folder, its `postgres` server run as a child process of the tests (not daemonised by
/// `pg_ctl`: a daemon inheriting the test process's descriptors would keep Foundation's `Process` from seeing its
/// parent end), and stopped and removed by ``stop()`` (and at the end of the test process, for the ``shared()`` one).
///
/// Tests share one cluster, started at the first ``shared()``, and each takes a new empty database of its own
/// (``createDatabase()``): a database is made in a fraction of a second, a cluster in seconds. Host connections need
/// the password ``password`` of user ``user`` (scram-sha-256), so the store's password path is exercised; the tools
/// connect over the Unix socket in the folder. When the test process runs as root, the folder is given to the
/// `postgres` user and `initdb` and `postgres` run as that user (`setpriv`; PostgreSQL refuses to run as root).
///
/// Tests need Debian's `postgresql` (CI installs it); without it, ``isInstalled`` is false and the tests that need it
/// are skipped, saying so (``notInstalled``).
package final class Postgres: Sendable {
    /// The user the tests connect as, a superuser of the cluster.
    package static let user = "indoor"
    /// That user's password (a test cluster's, on loopback only).
    package static let password = "indoor-test-password"
    /// Why PostgreSQL tests are skipped when it is missing, and how to install it.
    package static let notInstalled =
        "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): the PostgreSQL store's tests are skipped, "
        + "these suites, ClusterTests (several instances) and the postgres cases of StoreAndStreamTests, "
        + "RetentionTests, VenueReplacementTests and DurabilityTests; install Debian's postgresql (apt-get install "
        + "postgresql; .ci/run installs it) to run them"

    /// The folder of the server's programs (`initdb`, `postgres`, `psql`), the newest version installed, or
    /// `nil`. `INDOOR_TESTS_WITHOUT_POSTGRES=1` pretends there is none (to see the tests skip).
    package static let binaries: URL? = {
        if ProcessInfo.processInfo.environment["INDOOR_TESTS_WITHOUT_POSTGRES"] == "1" { return nil }
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return
            versions
            .sorted { (Int($0) ?? 0, $0) > (Int($1) ?? 0, $1) }
            .map { root.appendingPathComponent($0).appendingPathComponent("bin") }
            .first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) }
    }()

    /// Whether PostgreSQL's server programs are installed.
    package static var isInstalled: Bool { binaries != nil }

    /// The server's TCP port on 127.0.0.1.
    package let port: Int
    /// The temporary folder: the data directory, the socket and the log.
    package let directory: URL
    /// The PEM certificate of the authority that signed the server's certificate (for `localhost` and 127.0.0.1), when
    /// the server offers TLS: it does when openssl is installed to make the certificates.
    package let certificateAuthority: URL?
    private let bin: URL
    private let server = Mutex<Process?>(nil)
    private let databases = Mutex(0)

    private static let sharedCluster = Mutex<Postgres?>(nil)

    /// The cluster the tests share, started at the first call and stopped when the test process exits.
    /// - Throws: ``PostgresError`` when PostgreSQL is not installed or does not start (with its log).
    package static func shared() throws -> Postgres {
        try sharedCluster.withLock { cluster in
            if let cluster { return cluster }
            let started = try Postgres()
            cluster = started
            atexit { Postgres.sharedCluster.withLock { $0?.stop() } }
            return started
        }
    }

    /// Makes and starts a cluster of its own in a new temporary folder.
    package init() throws {
        guard let bin = Self.binaries else { throw PostgresError(Self.notInstalled) }
        self.bin = bin
        port = try Broker.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let passwordFile = directory.appendingPathComponent("password")
        try Self.password.write(to: passwordFile, atomically: true, encoding: .utf8)
        if TestCertificates.isInstalled {
            try TestCertificates.make(in: directory, authority: "Indoor test PostgreSQL CA")
            certificateAuthority = directory.appendingPathComponent("ca.pem")
        } else {
            certificateAuthority = nil
        }
        if getuid() == 0 {
            try Broker.runTool("/bin/chown", ["-R", "postgres:postgres", directory.path])
        }
        do {
            let initdb = try runAsServer(
                "initdb",
                [
                    "-D", dataDirectory, "-U", Self.user, "--pwfile", passwordFile.path, "--auth-local", "trust",
                    "--auth-host", "scram-sha-256", "--encoding", "UTF8", "--locale", "C", "--no-sync",
                ], output: directory.appendingPathComponent("initdb.log").path)
            initdb.waitUntilExit()
            guard initdb.terminationStatus == 0 else {
                throw PostgresError(
                    "initdb failed (\(initdb.terminationStatus)): "
                        + ((try? String(contentsOf: directory.appendingPathComponent("initdb.log"), encoding: .utf8))
                            ?? ""))
            }
            var settings = [
                "listen_addresses=127.0.0.1", "fsync=off", "synchronous_commit=off", "full_page_writes=off",
                "max_connections=200",
            ]
            if certificateAuthority != nil {
                settings += [
                    "ssl=on", "ssl_cert_file=\(directory.path)/server.pem", "ssl_key_file=\(directory.path)/server.key",
                ]
            }
            let process = try runAsServer(
                "postgres",
                ["-D", dataDirectory, "-p", "\(port)", "-k", directory.path] + settings.flatMap { ["-c", $0] },
                output: logPath)
            server.withLock { $0 = process }
            try waitUntilReady(process)
        } catch {
            stop()
            throw PostgresError("the test cluster did not start: \(error)\nits log:\n\(log)")
        }
    }

    /// Waits until the server answers a query, at most 60 s.
    private func waitUntilReady(_ process: Process) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            guard process.isRunning else {
                throw PostgresError("postgres exited with status \(process.terminationStatus)")
            }
            if Broker.accepts(port: port), (try? psql("postgres", "SELECT 1")) == "1" { return }
            usleep(50_000)
        }
        throw PostgresError("postgres did not answer on port \(port) within 60 s")
    }

    deinit {
        stop()
    }

    private var dataDirectory: String { directory.appendingPathComponent("data").path }
    private var logPath: String { directory.appendingPathComponent("postgres.log").path }

    /// The server's log.
    package var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Stops the server at once (SIGQUIT: PostgreSQL's immediate shutdown; SIGKILL after 10 s) and removes its folder.
    package func stop() {
        if let process = server.withLock({ $0.take() }), process.isRunning {
            kill(process.processIdentifier, SIGQUIT)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Makes a new empty database and answers its name.
    package func createDatabase() throws -> String {
        let name = databases.withLock { count in
            count += 1
            return "test_\(count)_\(UInt32.random(in: 0...UInt32.max))"
        }
        _ = try psql("postgres", "CREATE DATABASE \(name) TEMPLATE template0")
        return name
    }

    /// Removes `database`, closing its connections.
    package func dropDatabase(_ database: String) {
        _ = try? psql("postgres", "DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
    }

    /// The URL of `database` for `indoor serve --database`: `postgres://indoor@127.0.0.1:PORT/DATABASE`, with the
    /// password only when `withPassword` (else give it by `INDOOR_DATABASE_PASSWORD`).
    package func url(_ database: String, withPassword: Bool = false) -> String {
        let credentials = withPassword ? "\(Self.user):\(Self.password)" : Self.user
        return "postgres://\(credentials)@127.0.0.1:\(port)/\(database)"
    }

    /// Runs `sql` in `database` with `psql` over the socket: its rows, one a line, columns separated by `|`.
    @discardableResult
    package func psql(_ database: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = bin.appendingPathComponent("psql")
        process.arguments = [
            "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory.path, "-p", "\(port)", "-U", Self.user,
            "-d", database, "-c", sql,
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PostgresError("psql -c \"\(sql)\" failed (\(process.terminationStatus)): \(problem)")
        }
        return text.trimmingCharacters(in: .newlines)
    }

    /// Starts one of the server's programs (as the `postgres` user when this process is root), its output appended to
    /// the file `output`.
    private func runAsServer(_ program: String, _ arguments: [String], output: String) throws -> Process {
        let path = bin.appendingPathComponent(program).path
        let process = Process()
        if getuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=postgres", "--regid=postgres", "--init-groups", "--", path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        if !FileManager.default.fileExists(atPath: output) {
            _ = FileManager.default.createFile(atPath: output, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? handle.close()
        return process
    }
}

/// A cluster that could not be made or used, with what to do about it.
package struct PostgresError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
