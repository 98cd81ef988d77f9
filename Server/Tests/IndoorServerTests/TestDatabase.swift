import Foundation
import IndoorServer
import IndoorServerTestSupport
import Testing

/// The stores that the store's behaviour tests run against, each test once with each.
///
/// The suites take ``tested`` as their arguments: PostgreSQL only when it is installed. Swift Testing skips whole tests
/// only (a cancelled test case is reported as passed), so without PostgreSQL its cases are left out, and the skipped
/// `PostgresStoreTests` suite says so, naming these suites (``Postgres/notInstalled``).
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// ``SQLiteStore``: a file in a temporary folder.
    case sqlite
    /// ``PostgresStore``: a new database in the shared test cluster (``Postgres/shared()``).
    case postgres

    var testDescription: String { rawValue }

    /// The kinds to test here: SQLite always, PostgreSQL when it is installed.
    static var tested: [StoreKind] { Postgres.isInstalled ? allCases : [.sqlite] }
}

/// A new empty database of one kind for one test, and the stores opened over it.
///
/// Opening it again gives a store over the same data, as a restarted server has. A PostgreSQL database needs
/// PostgreSQL installed (tests that make one are skipped without it: ``StoreKind/tested``).
struct TestDatabase: Sendable {
    let kind: StoreKind
    /// A temporary folder of the test's own (the SQLite file's, and anything else the test writes).
    let folder: URL
    /// The SQLite file's path, or the PostgreSQL database's name.
    let name: String

    /// A new empty database of `kind`.
    /// - Throws: ``PostgresError`` for `.postgres` when PostgreSQL is not installed or its cluster does not start.
    init(_ kind: StoreKind) throws {
        self.kind = kind
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "indoor-server-tests-\(UUID().uuidString)")
        switch kind {
        case .sqlite:
            name = folder.appendingPathComponent("indoor.sqlite").path
        case .postgres:
            guard Postgres.isInstalled else { throw PostgresError(Postgres.notInstalled) }
            name = try Postgres.shared().createDatabase()
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// What `indoor serve --database` takes: the file's path, or the database's URL without its password (give
    /// ``environment`` to the server).
    var argument: String {
        switch kind {
        case .sqlite: name
        case .postgres: (try? Postgres.shared().url(name)) ?? name
        }
    }

    /// What `indoor serve` needs in its environment besides: PostgreSQL's password.
    var environment: [String: String] {
        kind == .postgres ? ["INDOOR_DATABASE_PASSWORD": Postgres.password] : [:]
    }

    /// A store over the database (another one each call, as after a restart).
    func open() async throws -> any LocationStore {
        switch kind {
        case .sqlite:
            return try SQLiteStore(path: name)
        case .postgres:
            return try await PostgresStore.open(
                PostgresURL(try Postgres.shared().url(name), environmentPassword: Postgres.password))
        }
    }

    /// Removes the folder and drops the PostgreSQL database.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
        if kind == .postgres { try? Postgres.shared().dropDatabase(name) }
    }
}
