import CasefileCore
import Foundation
import GRDB
import GRDBSQLite

/// The parameters of one execution of a prepared insert, bound in order straight from the values' own storage.
///
/// The index writer inserts tens of thousands of rows a run: a crash's frames, images and threads, a recording's
/// timeline events. Through `StatementArguments` each value was boxed twice — as an existential, then as a
/// `DatabaseValue` — in a fresh array per row, which cost more than SQLite's own work on the row. Here a string is
/// handed to `sqlite3_bind_text` from its UTF-8 storage (SQLite copies it), a number as it is.
///
/// Values are stored as GRDB stores them: `nil` as NULL, a `Bool` as 0 or 1, an `Int` as a 64-bit integer, a string
/// as text, bytes as a blob.
struct RowBinder: ~Copyable {
    private let statement: SQLiteStatement
    private var position: Int32 = 1

    fileprivate init(_ statement: SQLiteStatement) {
        self.statement = statement
    }

    /// Binds the next parameter to `value`, or NULL.
    mutating func bind(_ value: String?) {
        bindNext(value) { statement, position, text in
            text.withUTF8Bytes { Self.bindText(UnsafeRawBufferPointer($0), statement, position) }
        }
    }

    /// Binds the next parameter to `value`, or NULL.
    mutating func bind(_ value: Int64?) {
        bindNext(value) { sqlite3_bind_int64($0, $1, $2) }
    }

    /// Binds the next parameter to `value`, or NULL.
    mutating func bind(_ value: Int?) {
        bind(value.map { Int64($0) })
    }

    /// Binds the next parameter to 1 or 0.
    mutating func bind(_ value: Bool) {
        bind(Int64(value ? 1 : 0))
    }

    /// Binds the next parameter to `value`, or NULL.
    mutating func bind(_ value: Double?) {
        bindNext(value) { sqlite3_bind_double($0, $1, $2) }
    }

    /// Binds the next parameter to the blob `bytes` (an empty blob, not NULL, when there are none).
    mutating func bind(blob bytes: [UInt8]) {
        defer { position += 1 }
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                sqlite3_bind_zeroblob(statement, position, 0)
                return
            }
            sqlite3_bind_blob(statement, position, base, Int32(buffer.count), Self.transient)
        }
    }

    /// Binds the next parameter to a value GRDB converted, such as a date in GRDB's text format.
    mutating func bind(_ value: DatabaseValue) {
        switch value.storage {
        case .null: bind(nil as Int64?)
        case .int64(let number): bind(number)
        case .double(let number): bind(number)
        case .string(let text): bind(text)
        case .blob(let data): bind(blob: [UInt8](data))
        }
    }

    /// The number of parameters bound so far.
    var count: Int32 { position - 1 }

    /// Binds the next parameter to NULL, or by `bindValue` to `value`.
    private mutating func bindNext<Value>(
        _ value: Value?, _ bindValue: (SQLiteStatement, Int32, Value) -> Void
    ) {
        defer { position += 1 }
        guard let value else {
            sqlite3_bind_null(statement, position)
            return
        }
        bindValue(statement, position, value)
    }

    private static func bindText(_ utf8: UnsafeRawBufferPointer, _ statement: SQLiteStatement, _ position: Int32) {
        guard let base = utf8.baseAddress, !utf8.isEmpty else {
            // An empty buffer may have no address, and a null pointer would bind NULL instead of ''.
            sqlite3_bind_text(statement, position, "", 0, Self.transient)
            return
        }
        sqlite3_bind_text(
            statement, position, base.assumingMemoryBound(to: CChar.self), Int32(utf8.count), Self.transient)
    }

    /// SQLite's `SQLITE_TRANSIENT`: SQLite copies the value before the call returns.
    static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
}

extension Statement {
    /// Executes this insert (or update) once, its parameters bound by `bind` in order.
    ///
    /// `bind` must bind every parameter of the statement: a count that differs is a programming error, reported as a
    /// `DatabaseError` naming the statement. An SQLite error (a violated constraint, a full disk) is thrown as GRDB
    /// throws it, with its code, message and SQL. The statement is left reset, its bindings cleared.
    func insert(_ bind: (inout RowBinder) -> Void) throws {
        let statement = sqliteStatement
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try self.bind(bind)
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else { throw failure(code) }
    }

    /// Resets this statement and binds its parameters by `bind`, in order; throws when `bind` bound another number of
    /// parameters than the statement has.
    func bind(_ bind: (inout RowBinder) -> Void) throws {
        let statement = sqliteStatement
        sqlite3_reset(statement)
        var binder = RowBinder(statement)
        bind(&binder)
        let expected = sqlite3_bind_parameter_count(statement)
        guard binder.count == expected else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "bound \(binder.count) of \(expected) parameters", sql: sql)
        }
    }

    /// The error SQLite's result `code` of a step of this statement is, with the connection's message.
    func failure(_ code: Int32) -> DatabaseError {
        let connection = sqlite3_db_handle(sqliteStatement)
        return DatabaseError(
            resultCode: ResultCode(rawValue: code), message: connection.map { String(cString: sqlite3_errmsg($0)) },
            sql: sql)
    }
}
