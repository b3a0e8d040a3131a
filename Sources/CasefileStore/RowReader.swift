import GRDB
import GRDBSQLite

/// The columns of the row a query stepped to, read straight from SQLite.
///
/// The index writer asks a few questions per input and per report: is the input known, is a copy of the report stored
/// and where from, which group a fingerprint is counted in. Through GRDB's `Row` each answer made a row object, a
/// cursor and a copy of the row's values: 9 µs a question, more than SQLite's own look-up; the copy question alone was
/// 12 % of the writer's time over 20,000 small inputs.
struct RowReader: ~Copyable {
    private let statement: SQLiteStatement

    fileprivate init(_ statement: SQLiteStatement) {
        self.statement = statement
    }

    /// The integer in `column`, or `nil` when it is NULL.
    func int64(_ column: Int32) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
    }

    /// The integer in `column`, or `nil` when it is NULL.
    func int(_ column: Int32) -> Int? {
        int64(column).map { Int($0) }
    }

    /// The text in `column` (a number as SQLite writes it), or `nil` when it is NULL.
    func text(_ column: Int32) -> String? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL, let bytes = sqlite3_column_text(statement, column)
        else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

extension Statement {
    /// The first row of this query for the parameters `bind` binds, in order, as `read` reads it; `nil` when the query
    /// returns no row.
    ///
    /// `bind` must bind every parameter of the statement, as for ``insert(_:)``. The statement is left reset, its
    /// bindings cleared; an SQLite error is thrown as GRDB throws it.
    func firstRow<T>(_ bind: (inout RowBinder) -> Void, _ read: (borrowing RowReader) -> T) throws -> T? {
        try withRow(bind) { statement in
            switch sqlite3_step(statement) {
            case SQLITE_ROW: return read(RowReader(statement))
            case SQLITE_DONE: return nil
            case let code: throw failure(code)
            }
        }
    }
}
