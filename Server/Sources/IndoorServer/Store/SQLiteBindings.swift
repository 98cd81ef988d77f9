import GRDB
import GRDBSQLite

/// Values bound straight into one prepared SQLite statement, then run: for the store's hot inserts, where building
/// GRDB's `StatementArguments` (an existential and a `DatabaseValue` per value, validated, then bound) cost more
/// than SQLite's own work (docs/notes/ingest-profile.md).
///
/// Each value is bound by GRDB's own `StatementBinding` conformance of its type, so a row stores exactly what
/// `execute(arguments:)` stored. The statement is one of the connection's cached statements, used only through
/// this type; it is left reset with no bindings. Parameters are numbered from 1, in the order of the `?`s.
struct SQLiteBindings: ~Copyable {
    private let statement: Statement
    private let handle: SQLiteStatement
    /// The next parameter's number.
    private var next: CInt = 1

    /// Starts binding `statement`'s parameters, clearing any left from before.
    /// - Throws: `DatabaseError` when SQLite cannot reset the statement.
    init(_ statement: Statement) throws {
        self.statement = statement
        handle = statement.sqliteStatement
        try check(sqlite3_reset(handle))
        try check(sqlite3_clear_bindings(handle))
    }

    /// Binds `value` (a number, a text, bytes) to the next parameter, as GRDB binds it.
    mutating func bind(_ value: some StatementBinding) throws {
        try check(value.bind(to: handle, at: next))
        next += 1
    }

    /// Binds `value`, or `NULL` for `nil`, to the next parameter.
    mutating func bind(_ value: (some StatementBinding)?) throws {
        if let value { try bind(value) } else { try bindNull() }
    }

    /// Binds `NULL` to the next parameter.
    mutating func bindNull() throws {
        try check(sqlite3_bind_null(handle, next))
        next += 1
    }

    /// Runs the statement to its end (an `INSERT` or `UPDATE`: its rows, if any, are skipped), then resets it
    /// and clears its bindings.
    /// - Throws: `DatabaseError` with SQLite's code and message (a constraint failed, the disk is full…), or
    ///   `SQLITE_MISUSE` when fewer or more values were bound than the statement has parameters.
    consuming func execute() throws {
        let expected = sqlite3_bind_parameter_count(handle)
        guard next - 1 == expected else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "\(next - 1) values bound to a statement of \(expected)",
                sql: statement.sql)
        }
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW { code = sqlite3_step(handle) }
        let failure =
            code == SQLITE_DONE
            ? nil : DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        if let failure { throw failure }
    }

    private func check(_ code: CInt) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
    }

    /// SQLite's message for the connection's last error.
    private var message: String? {
        sqlite3_errmsg(sqlite3_db_handle(handle)).map { String(cString: $0) }
    }
}
