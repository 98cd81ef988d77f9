import GRDB
import GRDBSQLite

/// Values bound straight into one prepared SQLite statement, then run: for the store's hot inserts, where building
/// GRDB's `StatementArguments` (an existential and a `DatabaseValue` per value, validated, then bound) cost more
/// than SQLite's own work (docs/notes/ingest-profile.md).
///
/// Numbers and bytes are bound by GRDB's own `StatementBinding` conformance of their type, so a row stores exactly
/// what `execute(arguments:)` stored. Texts are stored as GRDB stores a `String` (its UTF-8 up to the first NUL,
/// as a C string ends there), but copied once into one buffer of the statement's and bound in place when the
/// statement runs, instead of each through a C string made for the call and a copy of SQLite's
/// (docs/notes/ingest-profile.md, "Store writes without copies").
///
/// The statement is one of the connection's cached statements, used only through this type; it is left reset with
/// no bindings. Parameters are numbered from 1, in the order of the `?`s.
struct SQLiteBindings: ~Copyable {
    private let statement: Statement
    private let handle: SQLiteStatement
    /// The next parameter's number.
    private var next: CInt = 1
    /// The bytes of the texts bound so far, one after the other; it starts with one byte, so that its address is
    /// never `nil` (an empty text is bound as an empty text, not as `NULL`).
    private var texts: [UInt8] = [0]
    /// Which parameter each text is, and where its bytes are in `texts`.
    private var textParameters: [(parameter: CInt, start: Int, count: Int)] = []

    /// Starts binding `statement`'s parameters, clearing any left from before.
    /// - Parameter textBytes: About how many bytes of text will be bound (room is made for them at once).
    /// - Throws: `DatabaseError` when SQLite cannot reset the statement.
    init(_ statement: Statement, textBytes: Int = 256) throws {
        self.statement = statement
        handle = statement.sqliteStatement
        texts.reserveCapacity(1 + textBytes)
        try check(sqlite3_reset(handle))
        try check(sqlite3_clear_bindings(handle))
    }

    /// Binds `value` (a number, bytes) to the next parameter, as GRDB binds it.
    mutating func bind(_ value: some StatementBinding) throws {
        try check(value.bind(to: handle, at: next))
        next += 1
    }

    /// Binds `value`, or `NULL` for `nil`, to the next parameter.
    mutating func bind(_ value: (some StatementBinding)?) throws {
        if let value { try bind(value) } else { try bindNull() }
    }

    /// Binds the text `value` to the next parameter: its UTF-8 up to its first NUL, if any, as GRDB binds a
    /// `String` (a C string).
    /// - Throws: `DatabaseError` (`SQLITE_TOOBIG`) for a text of more than 2³¹ − 1 bytes.
    mutating func bind(_ value: String) throws {
        var value = value
        try value.withUTF8 { bytes in
            let count = bytes.firstIndex(of: 0) ?? bytes.count
            guard count <= Int(CInt.max) else {
                throw DatabaseError(resultCode: .SQLITE_TOOBIG, message: "string or blob too big", sql: statement.sql)
            }
            textParameters.append((next, texts.count, count))
            texts.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<count]))
        }
        next += 1
    }

    /// Binds the text `value`, or `NULL` for `nil`, to the next parameter.
    mutating func bind(_ value: String?) throws {
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
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "\(next - 1) values bound to a statement of \(expected)",
                sql: statement.sql)
        }
        let handle = handle
        let textParameters = textParameters
        // The texts are bound without a copy (SQLITE_STATIC, a nil destructor): SQLite reads them while the
        // statement runs, so they are bound, run and unbound inside the one access to their bytes.
        let failure = texts.withUnsafeBytes { bytes -> (code: CInt, message: String?)? in
            var code = SQLITE_OK
            for text in textParameters where code == SQLITE_OK {
                let start = bytes.baseAddress.map { ($0 + text.start).assumingMemoryBound(to: CChar.self) }
                code = sqlite3_bind_text(handle, text.parameter, start, CInt(text.count), nil)
            }
            if code == SQLITE_OK {
                code = sqlite3_step(handle)
                while code == SQLITE_ROW { code = sqlite3_step(handle) }
            }
            let failure = code == SQLITE_DONE ? nil : (code, Self.message(handle))
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            return failure
        }
        if let failure {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: failure.code), message: failure.message, sql: statement.sql)
        }
    }

    private func check(_ code: CInt) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: Self.message(handle), sql: statement.sql)
        }
    }

    /// SQLite's message for the last error of `handle`'s connection.
    private static func message(_ handle: SQLiteStatement) -> String? {
        sqlite3_errmsg(sqlite3_db_handle(handle)).map { String(cString: $0) }
    }
}
