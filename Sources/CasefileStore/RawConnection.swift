import GRDBSQLite

/// A database opened through SQLite's own interface, outside GRDB: the copy ``RowsFloor`` times, and the index's
/// readers (``IndexReaders``).
final class RawConnection {
    let handle: OpaquePointer
    private let path: String

    init(path: String, flags: Int32) throws(StoreError) {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            throw StoreError(path: path, reason: "cannot open: SQLite error \(code)")
        }
        self.handle = handle
        self.path = path
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws(StoreError) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    func prepare(_ sql: String) throws(StoreError) -> RawStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sql)
        }
        return RawStatement(handle: statement, connection: self)
    }

    func failure(_ sql: String) -> StoreError {
        StoreError(path: path, reason: "\(String(cString: sqlite3_errmsg(handle))) in \(sql.prefix(80))")
    }
}

/// A prepared statement, finalized with its last reference.
final class RawStatement {
    let handle: OpaquePointer
    private let connection: RawConnection

    init(handle: OpaquePointer, connection: RawConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The position of the result column `name`, or `nil` when the statement has none of that name.
    func column(named name: String) -> Int32? {
        (0..<columnCount).first { sqlite3_column_name(handle, $0).map { String(cString: $0) } == name }
    }

    /// Steps once: `true` for a row, `false` when done.
    func step() throws(StoreError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.failure(String(cString: sqlite3_sql(handle)))
        }
    }

    /// Steps a statement that returns no rows, and resets it.
    func run() throws(StoreError) {
        defer { sqlite3_reset(handle) }
        _ = try step()
    }

    /// Binds the values of `rows` in order, one row's after another's, steps, and resets: a statement of as many rows
    /// (`INSERT … VALUES (…), (…)`) inserts them all.
    func run(binding rows: some Sequence<Values>) throws(StoreError) {
        var position: Int32 = 1
        for values in rows {
            for value in values.all {
                if let value {
                    sqlite3_bind_value(handle, position, value)
                } else {
                    sqlite3_bind_null(handle, position)
                }
                position += 1
            }
        }
        try run()
    }

    func reset(binding text: String) {
        sqlite3_reset(handle)
        sqlite3_bind_text(handle, 1, text, -1, RowBinder.transient)
    }

    func reset(binding number: Int64) {
        sqlite3_reset(handle)
        sqlite3_bind_int64(handle, 1, number)
    }

    func blob(_ column: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
    }

    func text(_ column: Int32) -> String {
        sqlite3_column_text(handle, column).map { String(cString: $0) } ?? ""
    }
}

/// One row's values, copied out of SQLite and freed with the last reference (`nil` where SQLite had no memory for
/// a copy).
final class Values {
    let all: [OpaquePointer?]

    init(_ statement: RawStatement) {
        all = (0..<statement.columnCount).map { sqlite3_value_dup(sqlite3_column_value(statement.handle, $0)) }
    }

    deinit {
        for value in all { sqlite3_value_free(value) }
    }
}
