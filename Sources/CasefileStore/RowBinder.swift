import CasefileCore
import Foundation
import GRDB
import GRDBSQLite

/// The parameters of one execution of a prepared insert, bound in order straight from the values' own storage.
///
/// The index writer inserts tens of thousands of rows a run: a crash's frames, images and threads, a recording's
/// timeline events. Through `StatementArguments` each value was boxed twice — as an existential, then as a
/// `DatabaseValue` — in a fresh array per row, which cost more than SQLite's own work on the row. Here a number is
/// bound as it is, and a string's UTF-8 is copied into scratch memory that lives until the row is stepped (on the stack
/// for one row, ``MultiRowInsert``'s for several) and bound from there without SQLite copying it again: a copy made by
/// SQLite is an allocation per text column (its `sqlite3_bind_*` frees the parameter's previous memory first), and a
/// text that does not fit is left to SQLite.
///
/// Values are stored as GRDB stores them: `nil` as NULL, a `Bool` as 0 or 1, an `Int` as a 64-bit integer, a string
/// as text, bytes as a blob.
struct RowBinder: ~Copyable {
    private let statement: SQLiteStatement
    private var position: Int32 = 1
    /// Where texts are copied; it outlives the statement's step (``Statement/withRow(_:_:)``).
    private let scratch: UnsafeMutableRawBufferPointer
    private var used = 0

    fileprivate init(_ statement: SQLiteStatement, scratch: UnsafeMutableRawBufferPointer) {
        self.statement = statement
        self.scratch = scratch
    }

    /// Binds the next parameter to `value`, or NULL.
    mutating func bind(_ value: String?) {
        guard let value else {
            bind(nil as Int64?)
            return
        }
        value.withUTF8Bytes { bindText(UnsafeRawBufferPointer($0)) }
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

    /// Binds the next parameter to the text `utf8`, copied into the scratch memory when it fits.
    private mutating func bindText(_ utf8: UnsafeRawBufferPointer) {
        defer { position += 1 }
        guard let base = utf8.baseAddress, !utf8.isEmpty else {
            // An empty buffer may have no address, and a null pointer would bind NULL instead of ''. A static string's
            // bytes live as long as the program: SQLite need not copy them (a `nil` destructor is `SQLITE_STATIC`).
            let empty = UnsafeRawPointer(Self.empty.utf8Start).assumingMemoryBound(to: CChar.self)
            sqlite3_bind_text(statement, position, empty, 0, nil)
            return
        }
        guard let room = scratch.baseAddress, utf8.count <= scratch.count - used else {
            sqlite3_bind_text(
                statement, position, base.assumingMemoryBound(to: CChar.self), Int32(utf8.count), Self.transient)
            return
        }
        let copy = room + used
        copy.copyMemory(from: base, byteCount: utf8.count)
        used += utf8.count
        sqlite3_bind_text(statement, position, copy.assumingMemoryBound(to: CChar.self), Int32(utf8.count), nil)
    }

    private static let empty: StaticString = ""

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
        try withRow(bind, stepToDone)
    }

    /// Binds this statement's parameters by `bind`, in order, and runs `body` (which steps it); then resets the
    /// statement and clears its bindings. The texts bound live in scratch memory that lasts until then.
    func withRow<T>(_ bind: (inout RowBinder) -> Void, _ body: (SQLiteStatement) throws -> T) throws -> T {
        // On the stack: Swift allocates up to 1 KB there without asking how much stack is left. A row's texts past the
        // first kilobyte are copied by SQLite, as every text was.
        return try withUnsafeTemporaryAllocation(byteCount: 1024, alignment: 1) { scratch in
            try withRow(bind, scratch: scratch, body)
        }
    }

    /// Executes this insert of several rows once: `bind` is called with each of `rows` in order, and binds that row's
    /// parameters after the previous row's (the statement is ``MultiRowInsert``'s, with as many rows as `rows` holds).
    /// The texts are copied into `scratch`, which must hold no other row's; what does not fit there SQLite copies.
    /// Errors are thrown as ``insert(_:)`` throws them; the statement is left reset, its bindings cleared.
    func insert(
        rows: Range<Int>, scratch: UnsafeMutableRawBufferPointer, _ bind: (Int, inout RowBinder) -> Void
    ) throws {
        try withRow({ binder in for row in rows { bind(row, &binder) } }, scratch: scratch, stepToDone)
    }

    /// Binds this statement's parameters by `bind`, in order, with texts copied into `scratch`, and runs `body` (which
    /// steps it); then resets the statement and clears its bindings.
    private func withRow<T>(
        _ bind: (inout RowBinder) -> Void, scratch: UnsafeMutableRawBufferPointer,
        _ body: (SQLiteStatement) throws -> T
    ) throws -> T {
        let statement = sqliteStatement
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try self.bind(bind, scratch: scratch)
        return try body(statement)
    }

    /// Steps an insert once; throws SQLite's error unless it is done.
    private func stepToDone(_ statement: SQLiteStatement) throws {
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else { throw failure(code) }
    }

    /// Resets this statement and binds its parameters by `bind`, in order; throws when `bind` bound another number of
    /// parameters than the statement has.
    private func bind(_ bind: (inout RowBinder) -> Void, scratch: UnsafeMutableRawBufferPointer) throws {
        let statement = sqliteStatement
        sqlite3_reset(statement)
        var binder = RowBinder(statement, scratch: scratch)
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
