import Foundation
import IndoorGeofencing
import IndoorModel
import Logging
import NIOSSL
import PostgresNIO

/// A store on a PostgreSQL server, through PostgresNIO's `PostgresClient` (a pool of connections), for
/// `indoor serve --database postgres://…`.
///
/// It gives the same answers as ``SQLiteStore`` to the same calls. The schema is ``PostgresMigrations``: the SQLite
/// migrations in PostgreSQL's types, applied when the store opens. A batch (``commit(_:)``) is one transaction, and the
/// call returns once its `COMMIT` has returned. Batches are committed one at a time (a transaction-level advisory
/// lock), as SQLite's single writer does: so each batch's event ids are consecutive and a stream that resumed after an
/// id never misses an event committed later with a lower one. A partial unique index keeps one open visit per device
/// and zone; a check-in while one is open (a session that started afresh after a restart) leaves the open visit as it
/// is. Nothing waits on a thread: every call is a network round trip awaited.
///
/// The store runs its pool in a task of its own from ``open(_:logger:)`` until ``close()``.
package final class PostgresStore: LocationStore {
    /// Where the database is (its ``PostgresURL/description`` never shows the password).
    package let url: PostgresURL
    let client: PostgresClient
    /// How to open a connection of its own (the listening one of ``listen(_:)``).
    let connectionConfiguration: PostgresConnection.Configuration
    private let runner: Task<Void, Never>
    let logger: Logger

    /// The key of the advisory lock each commit holds until it ends.
    static let commitLockKey: Int64 = 0x1D00_C0AA
    /// How long ``ping()`` waits for an answer, seconds.
    static let pingSeconds = 5
    /// Rows per `INSERT` statement (PostgreSQL takes at most 65535 parameters in one statement).
    static let rowsPerStatement = 1000

    package var kind: String { "postgres" }

    private init(
        url: PostgresURL, client: PostgresClient, connectionConfiguration: PostgresConnection.Configuration,
        logger: Logger
    ) {
        self.url = url
        self.client = client
        self.connectionConfiguration = connectionConfiguration
        self.logger = logger
        runner = Task { await client.run() }
    }

    deinit { runner.cancel() }

    /// Connects to the database of `url`, brings its schema up to date and starts the pool.
    ///
    /// One connection is made first, so that a server that cannot be reached, a refused password or a missing database
    /// is said at once in one line.
    /// - Throws: ``StoreError`` naming `host:port` and what to do: when the server cannot be reached or refuses the
    ///   user, the database is missing, belongs to another program or to a newer Indoor.
    package static func open(
        _ url: PostgresURL,
        logger: Logger = Logger(label: "indoor.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> PostgresStore {
        if let roots = url.rootCertificates, !FileManager.default.isReadableFile(atPath: roots) {
            throw StoreError("sslrootcert '\(roots)' cannot be read: give a PEM file of the certificates to trust")
        }
        let connection: PostgresConnection
        let connectionConfiguration: PostgresConnection.Configuration
        do {
            var configuration = PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
                tls: try connectionTLS(url))
            configuration.options.connectTimeout = .seconds(10)
            connectionConfiguration = configuration
            connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        } catch {
            throw StoreError(connectionProblem(error, url: url))
        }
        do {
            try await PostgresMigrations.migrate(connection, name: "\(url)", logger: logger)
            try? await connection.close()
        } catch let error as StoreError {
            try? await connection.close()
            throw error
        } catch {
            try? await connection.close()
            throw StoreError("\(url): \(describe(error))")
        }
        var configuration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: try clientTLS(url))
        configuration.options.maximumConnections = 10
        configuration.options.connectTimeout = .seconds(10)
        return PostgresStore(
            url: url, client: PostgresClient(configuration: configuration),
            connectionConfiguration: connectionConfiguration, logger: logger)
    }

    /// Stops the pool: the store answers no more calls after this.
    package func close() async {
        runner.cancel()
        await runner.value
    }

    /// Brings the query planner's statistics of every table up to date (`ANALYZE`), as autovacuum does in its own time:
    /// for a benchmark that has just filled the store, whose newest rows the statistics would not know yet.
    package func analyze() async throws {
        try await mapped { _ = try await client.query("ANALYZE", logger: logger).collect() }
    }

    /// Answers within ``pingSeconds``, or throws: while the server is unreachable the pool keeps a query waiting
    /// (up to a minute) for a connection, and `/health` must answer sooner than that.
    package func ping() async throws {
        let seconds = Self.pingSeconds
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await self.mapped { _ = try await self.client.query("SELECT 1", logger: self.logger).collect() }
                return true
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return false
            }
            defer { group.cancelAll() }
            guard try await group.next() == true else {
                throw StoreError("\(url.address): PostgreSQL did not answer within \(seconds) s")
            }
        }
    }

    // MARK: Errors and TLS

    /// Runs `body`, turning PostgresNIO's errors into a ``StoreError`` that says what PostgreSQL said.
    @discardableResult
    func mapped<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as StoreError {
            throw error
        } catch let error as LeaseLostError {
            throw error
        } catch let error as PostgresTransactionError where error.closureError is LeaseLostError {
            throw error.closureError ?? error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw StoreError("\(url.address): \(Self.describe(error))")
        }
    }

    /// What went wrong, in words: PostgreSQL's own message and SQLSTATE when it answered, else the connection's
    /// problem. (PostgresNIO's errors print a generic text, to keep queries out of logs; this keeps them out too.)
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as StoreError:
            return error.message
        case let error as PSQLError:
            if let info = error.serverInfo, let message = info[.message] {
                return "PostgreSQL: \(message)" + (info[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
            }
            if let underlying = error.underlying { return "\(error.code): \(underlying)" }
            return "\(error.code)"
        case let error as PostgresTransactionError:
            if let inner = error.beginError ?? error.closureError ?? error.commitError ?? error.rollbackError {
                return describe(inner)
            }
            return "the transaction failed"
        default:
            let text = "\(error)"
            // The pool's circuit breaker (its error type is in an underscored module): no connection for a minute.
            if text.contains("CircuitBreakerTripped") {
                return "no connection to PostgreSQL could be made for a minute; the server keeps trying"
            }
            return text
        }
    }

    /// One line on why the first connection failed, naming `host:port` and what to do.
    static func connectionProblem(_ error: any Error, url: PostgresURL) -> String {
        if let error = error as? StoreError { return error.message }
        let state = (error as? PSQLError)?.serverInfo?[.sqlState]
        switch state {
        case "28P01", "28000":
            return "the PostgreSQL server at \(url.address) refused user '\(url.user)' (\(describe(error))): check the "
                + "user in --database and the password in INDOOR_DATABASE_PASSWORD"
        case "3D000":
            return "the PostgreSQL server at \(url.address) has no database '\(url.database)': create it "
                + "(createdb -h \(url.host) -p \(url.port) -U \(url.user) \(url.database)) or name another in --database"
        default:
            break
        }
        if let error = error as? PSQLError, error.code == .sslUnsupported {
            return "the PostgreSQL server at \(url.address) does not offer TLS, which sslmode=\(url.tls.rawValue) "
                + "requires: turn ssl on in the server, or use sslmode=disable on a trusted network"
        }
        return "cannot connect to the PostgreSQL server at \(url.address) (\(describe(error))): start it, or check the "
            + "host and port in --database (\(url))"
    }

    private static func tlsConfiguration(_ url: PostgresURL) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if url.tls == .verifyFull {
            if let roots = url.rootCertificates { tls.trustRoots = .file(roots) }
        } else {
            // As libpq's prefer and require: encrypted, the certificate not checked.
            tls.certificateVerification = .none
        }
        return tls
    }

    private static func clientTLS(_ url: PostgresURL) throws -> PostgresClient.Configuration.TLS {
        switch url.tls {
        case .disable: .disable
        case .prefer: .prefer(tlsConfiguration(url))
        case .require, .verifyFull: .require(tlsConfiguration(url))
        }
    }

    private static func connectionTLS(_ url: PostgresURL) throws -> PostgresConnection.Configuration.TLS {
        switch url.tls {
        case .disable: return .disable
        case .prefer: return .prefer(try NIOSSLContext(configuration: tlsConfiguration(url)))
        case .require, .verifyFull: return .require(try NIOSSLContext(configuration: tlsConfiguration(url)))
        }
    }
}
