import Foundation
import GRDB
import IndoorGeofencing
import IndoorModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The embedded store: one SQLite file in WAL mode, through GRDB.
///
/// Schema changes are append-only migrations (``SQLiteMigrations``). A batch is one transaction; in WAL mode with
/// `synchronous = NORMAL` (the default here) a committed transaction survives the process being killed, and with
/// `synchronous = FULL` (``Durability/full``) a power cut as well, at the price of an fsync per batch.
public final class SQLiteStore: LocationStore {
    /// How hard a commit waits for the disk.
    public enum Durability: String, Sendable, CaseIterable {
        /// Survives the process being killed (SQLite `synchronous = NORMAL` in WAL mode).
        case normal
        /// Survives a power cut too (`synchronous = FULL`): an fsync per committed batch.
        case full
    }

    let pool: DatabasePool
    /// The path of the database file.
    public let path: String
    /// Sightings written by one `INSERT` statement (at most ``maximumSightingRowsPerInsert``); 1 writes them row by
    /// row, as before multi-row inserts were measured (docs/notes/ingest-decoder.md).
    package let sightingRowsPerInsert: Int
    /// 100 rows of 8 values stay under SQLite's oldest limit on the variables of one statement (999).
    package static let maximumSightingRowsPerInsert = 100

    /// Opens (or creates) the database at `path` and brings its schema up to date.
    ///
    /// An existing file must be an Indoor database (or empty): the store never adds its tables to another
    /// program's SQLite file, and never deletes or replaces a file.
    /// - Throws: ``StoreError`` naming the path when it is a folder, not SQLite, or another program's database.
    public convenience init(path: String, durability: Durability = .normal) throws {
        try self.init(path: path, durability: durability, sightingRowsPerInsert: Self.maximumSightingRowsPerInsert)
    }

    /// Opens the database at `path`, writing `sightingRowsPerInsert` sightings per `INSERT` (1...100; the benchmark
    /// compares row by row with multi-row inserts).
    package init(path: String, durability: Durability, sightingRowsPerInsert: Int) throws {
        self.path = path
        self.sightingRowsPerInsert = min(max(1, sightingRowsPerInsert), Self.maximumSightingRowsPerInsert)
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if exists && isFolder.boolValue {
            throw StoreError("'\(path)' is a folder; expected a database file path")
        }
        var configuration = Configuration()
        let synchronous = durability == .full ? "FULL" : "NORMAL"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            // Deleted rows (an erasure, retention) are overwritten with zeros, not left in free pages (docs/PRIVACY.md).
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        configuration.busyMode = .timeout(10)
        do {
            if exists {
                try Self.checkOwnership(path: path)
            } else {
                try Self.createPrivateFile(path: path)
            }
            pool = try DatabasePool(path: path, configuration: configuration)
            try SQLiteMigrations.migrator.migrate(pool)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError("'\(path)': \(error.message ?? "\(error)")")
        }
    }

    /// Creates the empty database file readable and writable by this user only (mode 0600, whatever the umask): it
    /// holds where people were. SQLite gives its `-wal` and `-shm` files the mode of the database file.
    private static func createPrivateFile(path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return }
            throw StoreError("'\(path)': cannot create the database file: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else {
            throw StoreError("'\(path)': cannot make the database file private: \(String(cString: strerror(errno)))")
        }
    }

    /// Refuses a database that holds tables but not Indoor's migrations.
    /// Opened read-only, so that a file that is not ours is left byte for byte as it was.
    private static func checkOwnership(path: String) throws {
        var readOnly = Configuration()
        readOnly.readonly = true
        let pool = try DatabaseQueue(path: path, configuration: readOnly)
        defer { try? pool.close() }
        let tables = try pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        guard !tables.isEmpty else { return }
        let ours = try pool.read { db -> Bool in
            guard tables.contains("grdb_migrations") else { return false }
            return try Bool.fetchOne(
                db, sql: "SELECT COUNT(*) > 0 FROM grdb_migrations WHERE identifier = ?",
                arguments: [SQLiteMigrations.first]) ?? false
        }
        guard ours else {
            throw StoreError(
                "'\(path)' is a database of another program (tables: \(tables.sorted().prefix(5).joined(separator: ", ")));"
                    + " choose another --database path")
        }
    }

    public var kind: String { "sqlite" }

    public func ping() async throws {
        _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }
}

/// A problem with the store: the path, and what is wrong.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong and how to fix it.
    public var message: String
    /// A store error saying `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
