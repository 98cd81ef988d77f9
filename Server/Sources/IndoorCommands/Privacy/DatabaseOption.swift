import ArgumentParser
import Foundation
import IndoorServer
import Logging

/// The `--database` of `indoor forget` and `indoor export`: an existing Indoor database, as `indoor serve` takes it (a
/// SQLite file, locked while the command runs, or a `postgres://` URL with its password in INDOOR_DATABASE_PASSWORD).
struct DatabaseOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The database of indoor serve: a SQLite file or postgres://user@host:port/dbname (INDOOR_DATABASE; "
                + "default ./indoor.sqlite).",
            valueName: "path-or-url"))
    var database: String?

    /// The database as given (or its variable, or the default).
    var given: String {
        database ?? ProcessInfo.processInfo.environment["INDOOR_DATABASE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "indoor.sqlite"
    }

    /// The store, and the SQLite file's lock (held until it is dropped).
    /// - Throws: ``CommandFailure`` in one line: the file is missing or held by a running server, the URL is wrong, the
    ///   server cannot be reached, the database is not an Indoor one.
    func open() async throws -> (store: any LocationStore, lock: DatabaseLock?) {
        let database = given
        do {
            if PostgresURL.isPostgres(database) {
                let url = try PostgresURL(
                    database, environmentPassword: ProcessInfo.processInfo.environment["INDOOR_DATABASE_PASSWORD"])
                return (try await PostgresStore.open(url), nil)
            }
            guard FileManager.default.fileExists(atPath: database) else {
                throw CommandFailure("the database '\(database)' does not exist; give indoor serve's with --database")
            }
            let lock = try DatabaseLock(path: database)
            return (try SQLiteStore(path: database), lock)
        } catch let error as StoreError {
            throw CommandFailure(error.message)
        }
    }

    /// Closes `store` (a PostgreSQL pool; nothing for SQLite).
    static func close(_ store: any LocationStore) async {
        if let postgres = store as? PostgresStore { await postgres.close() }
    }
}
