import Foundation
import IndoorServer
import IndoorServerTestSupport
import Testing

/// The stores that the store's behaviour tests run against, each test once with each.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// ``SQLiteStore``: a file in a temporary folder.
    case sqlite
    /// ``PostgresStore``: a new database in the shared test cluster (``Postgres/shared()``).
    case postgres

    var testDescription: String { rawValue }
}

/// A new empty database of one kind for one test, and the stores opened over it.
///
/// Opening it again gives a store over the same data, as a restarted server has. A PostgreSQL database needs
/// PostgreSQL installed: without it, making one cancels the test, which is then reported skipped with
/// ``Postgres/notInstalled`` (how to install it), neither passed nor failed.
struct TestDatabase: Sendable {
    let kind: StoreKind
    /// A temporary folder of the test's own (the SQLite file's, and anything else the test writes).
    let folder: URL
    /// The SQLite file's path, or the PostgreSQL database's name.
    let name: String

    /// A new empty database of `kind`.
    /// - Throws: `Test.cancel` for `.postgres` when PostgreSQL is not installed; ``PostgresError`` when its cluster does
    ///   not start.
    init(_ kind: StoreKind) throws {
        self.kind = kind
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "indoor-server-tests-\(UUID().uuidString)")
        switch kind {
        case .sqlite:
            name = folder.appendingPathComponent("indoor.sqlite").path
        case .postgres:
            guard Postgres.isInstalled else { try Test.cancel(Comment(rawValue: Postgres.notInstalled)) }
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
